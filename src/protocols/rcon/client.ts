// An RCON client for Arma Reforger's own RCON (BattlEye's protocol over UDP); session.ts keeps
// one logged in. docs/rcon.md says what is implemented and why; packets.ts the layout.
// Over 500 lines on purpose: one connection's state machine (login, the command queue, the two
// answer styles, acknowledgements, keepalive and their timers) reads best in one place.
//
// Sources:
//  [spec]  BattlEye RCon Protocol Specification v2, the copy in thegamecracks/berconpy
//          docs/source/BERConProtocol.txt: login; commands with a 1-byte sequence starting at 0;
//          the answer in the 0x01 reply, in numbered parts when long; an empty command at least
//          every 45 s or the client is removed; every server message (0x02) acknowledged, else
//          it is sent "5 times for 10 seconds" and the client removed.
//  [bpy]   thegamecracks/berconpy src/berconpy/io.py and protocol/client.py: keepalive after 30 s
//          without a command; a command resent with the SAME sequence when unanswered (3 tries,
//          1 s apart: "re-use the same payload to avoid triggering the same command multiple
//          times"); datagrams from any address but the server's ignored; a message's sequence
//          remembered so a resend is acknowledged but not delivered twice (NonceCheck(5));
//          sequences wrap at 256; multi-part answers joined as bytes, then decoded.
//  [b11]   thegamecracks/berconpy#11 (2026-04): against Reforger, `players` is answered with an
//          EMPTY 0x01 reply; "Processing Command: players" and "Players on server: [Player#] ;
//          [Player UID] ; [Player Name]" come after it as 0x02 messages; "Logged In! Client ID:
//          #2" is a 0x02 message sent after the login.
//  [bc2]   WoozyMasta/bercon-cli#2: Reforger answers every 0x01 command with an empty 0x01 reply;
//          "the real response lines come later (without guarantee and expected timeframes) as
//          separate messages in 0x02".
//  [b8]    thegamecracks/berconpy#8: a capture against Reforger: the #players output as five 0x02
//          messages (sequences 2..6), each acknowledged before the next.
//  [rjs]   ZSU-GG-Reforger/ReforgerJS reforger-server/rconClient.js and rcon.js: a working Node
//          client for Reforger; keepalive every 30 s; gathers the 0x02 messages that follow a
//          "players" command until 1 s after the first, parsing each message line by line.
//  [wiki]  https://community.bistudio.com/wiki/Arma_Reforger:Server_Management: `@logout`
//          (1.2.1) "de-authenticate RCON client on server side which immediately frees the
//          connection for new RCON client".
//
// How an answer is told apart (where the sources are silent, the rule chosen):
//  - A 0x01 reply with text, or in parts, is the answer (the spec's style). Server messages that
//    arrived meanwhile were not the answer: they are emitted as `message`.
//  - An EMPTY 0x01 reply starts Reforger's style: the answer is every 0x02 message received since
//    the command was sent (before the acknowledgement too: UDP may reorder), closed when no
//    further message comes for `quietMs` (300 ms) after a line of output, or for `settleMs`
//    (2 s) after the acknowledgement or a progress line ("Processing Command: …", "Processing ban
//    list": a command that queried Bohemia's backend answers later), and always at the command's
//    `timeoutMs`. A message that arrives during that window is taken as part of the answer
//    (a chat line among them is the parser's to skip); messages are joined with "\n", as each
//    message is taken to hold whole lines ([rjs] parses them one by one).
//    Reforger opens its output with "Processing Command: …" [b11]: messages gathered before that
//    line were not the answer and are emitted as `message` ("Logged In!" right after the login).
//  - No 0x01 reply within `replyTimeoutMs` (5 s), though the command was resent every
//    `resendMs` (1 s) with the same sequence, means the server is gone or has dropped this
//    client: the client disconnects ("no RCON answer from HOST:PORT within 5 s"). An ICMP "port
//    unreachable" that the socket reports (ECONNREFUSED; Bun reports it only at the socket's next
//    read, so it is not relied on) ends it too: "nothing answers RCON on HOST:PORT (the port is
//    closed)".
import { createSocket, type RemoteInfo, type Socket } from "node:dgram";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import {
  decodeServerPacket,
  decodeText,
  encodeCommand,
  encodeLogin,
  encodeMessageAck,
  limitsWith,
  PartAssembler,
  type RconLimits,
  type ServerPacket,
} from "./packets";

export class RconError extends Error {
  override name = "RconError";
}
/** The server answered the login with 0x00. */
export class RconLoginRefusedError extends RconError {
  override name = "RconLoginRefusedError";
}
/** Nothing came back in time (login, or a command's reply). */
export class RconTimeoutError extends RconError {
  override name = "RconTimeoutError";
}
/** The client is closed or was disconnected; the message says why. */
export class RconClosedError extends RconError {
  override name = "RconClosedError";
}
/** An answer that cannot be used (too large, parts that disagree, parts missing). */
export class RconAnswerError extends RconError {
  override name = "RconAnswerError";
}

/** A tiny typed event emitter. A listener that throws is its own problem: the rest still run. */
export class TypedEmitter<E extends Record<string, unknown[]>> {
  private readonly listeners = new Map<keyof E, Set<(...args: unknown[]) => void>>();
  /** Returns the function that removes the listener. */
  on<K extends keyof E>(event: K, fn: (...args: E[K]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const stored = fn as unknown as (...args: unknown[]) => void;
    set.add(stored);
    return () => set.delete(stored);
  }
  protected emit<K extends keyof E>(event: K, ...args: E[K]): void {
    for (const fn of [...(this.listeners.get(event) ?? [])]) {
      try {
        fn(...args);
      } catch {
        // a listener's failure must not break the socket loop
      }
    }
  }
}

export type RconClientEvents = {
  /** Logged in. */
  connected: [];
  /** The connection ended: lost (no reply, socket error) or closed; why, in words. */
  disconnected: [reason: string];
  /** A server message that is not a command's answer (chat, a player connecting, "Logged In!"). */
  message: [text: string];
  /** A packet ignored, and why (another sender, a bad checksum, a malformed packet, a resend). */
  dropped: [reason: string];
};

export type RconClientState = "idle" | "connecting" | "connected" | "closed";

export interface RconTimings {
  /** The login's whole wait (default 5000). */
  loginTimeoutMs?: number;
  /** A command (or the login) unanswered is sent again this often (default 1000). */
  resendMs?: number;
  /** No 0x01 reply to a command for this long: the connection is lost (default 5000). */
  replyTimeoutMs?: number;
  /** An empty command after this long without a command (default 30000; the server drops at 45 s). */
  keepaliveMs?: number;
  /** Defaults for every command (below). */
  command?: RconCommandOptions;
}

export interface RconClientOptions extends RconTimings {
  host: string;
  port: number;
  password: string;
  limits?: Partial<RconLimits>;
  /** Send `@logout` when closing, so the server frees the slot at once [wiki] (default true). */
  logoutOnClose?: boolean;
  /** Is this server message only progress, with the output still to come? (default: Reforger's lines) */
  isProgress?: (text: string) => boolean;
  now?: () => number;
}

export interface RconCommandOptions {
  /** The whole answer's bound (default 10000). */
  timeoutMs?: number;
  /** Reforger style: the answer ends this long after a line of output (default 300). */
  quietMs?: number;
  /** Reforger style: the wait after the acknowledgement or a progress line (default 2000). */
  settleMs?: number;
}

/** Reforger's progress lines: the command runs, its output is still to come [b11], BanCommands.c. */
export const isReforgerProgress = (text: string): boolean => /^\s*Processing (Command:.*|ban list)\s*$/i.test(text);

const COMMAND_DEFAULTS: Required<RconCommandOptions> = { timeoutMs: 10_000, quietMs: 300, settleMs: 2_000 };

/** "5 s", "0.3 s". */
export const seconds = (ms: number): string => `${+(ms / 1000).toFixed(3)} s`;
export const hostPort = (host: string, port: number): string => (host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`);

interface Job {
  kind: "command" | "keepalive";
  text: string;
  opts: Required<RconCommandOptions>;
  resolve: (answer: string) => void;
  reject: (err: Error) => void;
}

interface InFlight extends Job {
  seq: number;
  packet: Buffer;
  replied: boolean;
  /** "reforger" after an empty 0x01 reply; "spec" after a reply with text or parts. */
  style: "spec" | "reforger" | null;
  parts: PartAssembler | null;
  messages: string[];
  messageBytes: number;
  overflow: string | null;
  resendTimer?: ReturnType<typeof setInterval>;
  replyTimer?: ReturnType<typeof setTimeout>;
  deadlineTimer?: ReturnType<typeof setTimeout>;
  gatherTimer?: ReturnType<typeof setTimeout>;
}

/** How many recent server-message sequences are remembered to recognise a resend (of 256). */
const RECENT_MESSAGES = 64;

/**
 * One RCON connection: `connect()` once, `command()` as often as needed (one in flight at a time,
 * the rest queued), `close()`. A client that lost its connection stays closed: make a new one
 * (RconSession does).
 */
export class RconClient extends TypedEmitter<RconClientEvents> {
  readonly host: string;
  readonly port: number;
  private readonly password: string;
  private readonly limits: RconLimits;
  private readonly loginTimeoutMs: number;
  private readonly resendMs: number;
  private readonly replyTimeoutMs: number;
  private readonly keepaliveMs: number;
  private readonly commandDefaults: Required<RconCommandOptions>;
  private readonly logoutOnClose: boolean;
  private readonly isProgress: (text: string) => boolean;
  private readonly now: () => number;

  private _state: RconClientState = "idle";
  private _lastSeenAt: number | null = null;
  private _closeReason: string | null = null;
  private address: string | null = null;
  private socket: Socket | null = null;
  private login: { resolve: () => void; reject: (e: Error) => void; resend?: ReturnType<typeof setInterval>; timer?: ReturnType<typeof setTimeout> } | null = null;
  private nextSeq = 0;
  private readonly queue: Job[] = [];
  private inflight: InFlight | null = null;
  private readonly recent: number[] = [];
  private keepaliveTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(opts: RconClientOptions) {
    super();
    if (!Number.isInteger(opts.port) || opts.port < 1 || opts.port > 65535) throw new RangeError(`an RCON port is 1..65535, not ${opts.port}`);
    this.host = opts.host;
    this.port = opts.port;
    this.password = opts.password;
    this.limits = limitsWith(opts.limits);
    this.loginTimeoutMs = opts.loginTimeoutMs ?? 5_000;
    this.resendMs = opts.resendMs ?? 1_000;
    this.replyTimeoutMs = opts.replyTimeoutMs ?? 5_000;
    this.keepaliveMs = opts.keepaliveMs ?? 30_000;
    this.commandDefaults = { ...COMMAND_DEFAULTS, ...opts.command };
    this.logoutOnClose = opts.logoutOnClose ?? true;
    this.isProgress = opts.isProgress ?? isReforgerProgress;
    this.now = opts.now ?? Date.now;
  }

  get state(): RconClientState {
    return this._state;
  }
  /** When a valid packet last came from the server (epoch ms). */
  get lastSeenAt(): number | null {
    return this._lastSeenAt;
  }
  /** Why the client closed, once it has. */
  get closeReason(): string | null {
    return this._closeReason;
  }
  private get where(): string {
    return hostPort(this.host, this.port);
  }

  /**
   * Logs in. Rejects with RconLoginRefusedError ("the server refused the RCON password") or
   * RconTimeoutError ("no RCON answer from HOST:PORT within 5 s"); the client is then closed.
   */
  async connect(): Promise<void> {
    if (this._state !== "idle") throw new RconError(`connect() is called once per client (this one is ${this._state})`);
    this._state = "connecting";
    let address: string;
    try {
      address = isIP(this.host) ? this.host : (await lookup(this.host)).address;
    } catch (err) {
      this.shut(`cannot resolve ${this.host}`);
      throw new RconError(`cannot resolve ${this.host}: ${(err as Error).message}`);
    }
    if (this._state !== "connecting") throw new RconClosedError(this._closeReason ?? "closed");
    this.address = address;
    return new Promise<void>((resolve, reject) => {
      this.login = { resolve, reject };
      const socket = createSocket(isIP(address) === 6 ? "udp6" : "udp4");
      this.socket = socket;
      socket.on("message", (buf, rinfo) => this.receive(buf, rinfo));
      socket.on("error", (err) => this.socketError(err));
      socket.bind(0, () => {
        if (this._state !== "connecting" || !this.login) return;
        const packet = encodeLogin(this.password);
        this.send(packet);
        this.login.resend = setInterval(() => this.send(packet), this.resendMs);
        this.login.timer = setTimeout(() => {
          const reason = `no RCON answer from ${this.where} within ${seconds(this.loginTimeoutMs)}`;
          this.failLogin(new RconTimeoutError(reason), reason);
        }, this.loginTimeoutMs);
      });
    });
  }

  /**
   * Runs a command and answers its output (either style, see the top of this file). Rejects with
   * RconClosedError when not connected or disconnected meanwhile, RconTimeoutError when the
   * server does not reply, RconAnswerError for an answer that cannot be used.
   */
  command(text: string, opts: RconCommandOptions = {}): Promise<string> {
    if (this._state !== "connected") return Promise.reject(new RconClosedError(this._closeReason ?? `not connected (${this._state})`));
    if (/[\0\r\n]/.test(text)) return Promise.reject(new RconError("an RCON command is one line without NUL"));
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes + 9 > this.limits.maxPacketBytes) return Promise.reject(new RconError(`an RCON command of ${bytes} bytes does not fit one packet`));
    return new Promise<string>((resolve, reject) => {
      this.queue.push({ kind: "command", text, opts: { ...this.commandDefaults, ...opts }, resolve, reject });
      this.pump();
    });
  }

  /** Closes the connection (after `@logout` when logged in). Queued commands reject. */
  close(reason = "closed"): void {
    if (this._state === "closed") return;
    const wasConnected = this._state === "connected";
    const socket = this.socket;
    this.socket = null;
    if (wasConnected && socket && this.logoutOnClose) {
      // fire and forget; the socket closes once the datagram is out
      const seq = this.nextSeq;
      this.nextSeq = (seq + 1) & 0xff;
      try {
        socket.send(encodeCommand(seq, "@logout"), this.port, this.address!, () => closeQuietly(socket));
      } catch {
        closeQuietly(socket);
      }
    } else if (socket) closeQuietly(socket);
    this.shut(reason);
    if (this.login) this.failLogin(new RconClosedError(reason), reason);
    if (wasConnected) this.emit("disconnected", reason);
  }

  // ---- internals ------------------------------------------------------------------------

  private send(packet: Buffer): void {
    const socket = this.socket;
    if (!socket || !this.address) return;
    try {
      socket.send(packet, this.port, this.address);
    } catch (err) {
      this.socketError(err as Error);
    }
  }

  private drop(reason: string): void {
    this.emit("dropped", reason);
  }

  private receive(buf: Buffer, rinfo: RemoteInfo): void {
    try {
      if (this._state !== "connecting" && this._state !== "connected") return;
      if (rinfo.address !== this.address || rinfo.port !== this.port) return this.drop(`a packet from ${hostPort(rinfo.address, rinfo.port)}, not the server`);
      const d = decodeServerPacket(buf, this.limits);
      if (!d.ok) return this.drop(d.reason);
      this._lastSeenAt = this.now();
      const p = d.packet;
      if (p.type === "login") return this.onLoginReply(p.ok);
      // a message before the login's reply is left unacknowledged: the server sends it again
      if (this._state !== "connected") return this.drop(`a ${p.type} packet before the login was answered`);
      if (p.type === "message") return this.onMessage(p.seq, p.text);
      return this.onCommandReply(p);
    } catch (err) {
      this.drop(`a packet the client could not handle: ${(err as Error).message}`);
    }
  }

  private onLoginReply(ok: boolean): void {
    if (this._state !== "connecting" || !this.login) return this.drop("a login reply while not logging in");
    const login = this.login;
    clearInterval(login.resend);
    clearTimeout(login.timer);
    this.login = null;
    if (!ok) {
      const reason = "the server refused the RCON password";
      closeQuietly(this.socket);
      this.socket = null;
      this.shut(reason);
      login.reject(new RconLoginRefusedError(reason));
      return;
    }
    this._state = "connected";
    this.nextSeq = 0;
    this.scheduleKeepalive();
    login.resolve();
    this.emit("connected");
  }

  private onMessage(seq: number, text: string): void {
    this.send(encodeMessageAck(seq)); // every copy is acknowledged: the earlier ack may be lost [spec]
    if (this.recent.includes(seq)) return this.drop(`server message ${seq} again (a resend): acknowledged, not delivered twice`);
    this.recent.push(seq);
    if (this.recent.length > RECENT_MESSAGES) this.recent.shift();
    const f = this.inflight;
    if (f && f.kind === "command") return this.collect(f, text);
    this.emit("message", text);
  }

  private collect(f: InFlight, text: string): void {
    if (f.overflow === null) {
      f.messages.push(text);
      f.messageBytes += Buffer.byteLength(text, "utf8");
      if (f.messages.length > this.limits.maxAnswerMessages) f.overflow = `an answer of more than ${this.limits.maxAnswerMessages} messages`;
      else if (f.messageBytes > this.limits.maxAnswerBytes) f.overflow = `an answer of more than ${this.limits.maxAnswerBytes} bytes`;
      if (f.overflow) f.messages = [];
    }
    // an answer refused for its size still absorbs the rest of itself until the server goes quiet
    if (f.style === "reforger") this.armGather(f, this.isProgress(text) && f.overflow === null ? f.opts.settleMs : f.opts.quietMs);
  }

  private onCommandReply(p: Extract<ServerPacket, { type: "command" }>): void {
    const f = this.inflight;
    if (!f || p.seq !== f.seq) return this.drop(`a reply to command ${p.seq}, which is not the one in flight`);
    if (f.kind === "keepalive") return this.finish(f, null, "");
    if (p.part) {
      if (f.style === "reforger") return this.drop(`a part of command ${p.seq}'s answer after its empty acknowledgement`);
      this.replied(f, "spec");
      f.parts ??= new PartAssembler(this.limits);
      const r = f.parts.add(p.part, p.body);
      if (r.state === "refused") return this.finish(f, new RconAnswerError(`the answer to "${f.text}" was refused: ${r.reason}`));
      if (r.state === "done") return this.finish(f, null, decodeText(r.body));
      return;
    }
    if (f.replied) return this.drop(`command ${p.seq}'s reply again (the command was resent)`);
    if (p.body.length > 0) {
      this.replied(f, "spec");
      return this.finish(f, null, decodeText(p.body));
    }
    // Reforger: an empty acknowledgement, the output follows (or came first) as server messages
    this.replied(f, "reforger");
    const last = f.messages.at(-1);
    this.armGather(f, f.overflow === null && (last === undefined || this.isProgress(last)) ? f.opts.settleMs : f.opts.quietMs);
  }

  private replied(f: InFlight, style: "spec" | "reforger"): void {
    f.replied = true;
    f.style = style;
    clearInterval(f.resendTimer);
    clearTimeout(f.replyTimer);
  }

  private armGather(f: InFlight, ms: number): void {
    clearTimeout(f.gatherTimer);
    f.gatherTimer = setTimeout(() => this.finishGathered(f), ms);
  }

  private finishGathered(f: InFlight): void {
    if (f.overflow) return this.finish(f, new RconAnswerError(`the answer to "${f.text}" was refused: ${f.overflow}`));
    // Reforger opens its output with "Processing Command: …" [b11]: what came before it was not
    // the answer (a chat line, "Logged In!" right after the login)
    const start = f.messages.findIndex((m) => /^\s*Processing Command:/i.test(m));
    const before = start > 0 ? f.messages.slice(0, start) : [];
    const answer = f.messages.slice(Math.max(start, 0));
    this.finish(f, null, answer.map((m) => m.replace(/\r?\n$/, "")).join("\n"));
    for (const m of before) this.emit("message", m);
  }

  private finish(f: InFlight, err: Error | null, answer = ""): void {
    if (this.inflight !== f) return;
    this.inflight = null;
    clearTimers(f);
    // in the spec's style the server messages that came meanwhile were not the answer
    const notTheAnswer = f.style === "spec" ? f.messages : [];
    if (err) f.reject(err);
    else f.resolve(answer);
    for (const m of notTheAnswer) this.emit("message", m);
    this.pump();
  }

  private pump(): void {
    if (this.inflight || this._state !== "connected") return;
    const job = this.queue.shift();
    if (!job) return;
    const seq = this.nextSeq;
    this.nextSeq = (seq + 1) & 0xff;
    const f: InFlight = { ...job, seq, packet: encodeCommand(seq, job.text), replied: false, style: null, parts: null, messages: [], messageBytes: 0, overflow: null };
    this.inflight = f;
    this.sendCommand(f.packet);
    f.resendTimer = setInterval(() => this.sendCommand(f.packet), this.resendMs);
    const replyMs = Math.min(f.opts.timeoutMs, this.replyTimeoutMs);
    f.replyTimer = setTimeout(() => {
      const reason = `no RCON answer from ${this.where} within ${seconds(replyMs)}`;
      if (replyMs < this.replyTimeoutMs) return this.finish(f, new RconTimeoutError(`${reason} (to "${f.text}")`));
      // the server is gone or dropped this client: the command fails with the reason, then the rest
      this.inflight = null;
      clearTimers(f);
      f.reject(new RconTimeoutError(reason));
      this.lose(reason);
    }, replyMs);
    f.deadlineTimer = setTimeout(() => {
      if (!f.replied) return; // the reply timer decides
      if (f.style === "reforger") return this.finishGathered(f);
      this.finish(f, new RconAnswerError(`the answer to "${f.text}" was not complete within ${seconds(f.opts.timeoutMs)}`));
    }, f.opts.timeoutMs);
  }

  private sendCommand(packet: Buffer): void {
    this.send(packet);
    this.scheduleKeepalive();
  }

  /** The keepalive: an empty command once `keepaliveMs` passed without any command [spec]. */
  private scheduleKeepalive(): void {
    if (this.keepaliveTimer) clearTimeout(this.keepaliveTimer);
    this.keepaliveTimer = setTimeout(() => {
      this.keepaliveTimer = null;
      if (this._state !== "connected") return;
      if (this.inflight || this.queue.length > 0) return this.scheduleKeepalive();
      this.queue.push({ kind: "keepalive", text: "", opts: this.commandDefaults, resolve: () => {}, reject: () => {} });
      this.pump();
    }, this.keepaliveMs);
  }

  private socketError(err: Error): void {
    // ICMP "port unreachable" comes back as ECONNREFUSED: nothing listens there (a server down)
    const refused = (err as NodeJS.ErrnoException).code === "ECONNREFUSED" || /ECONNREFUSED/.test(err.message);
    const reason = refused ? `nothing answers RCON on ${this.where} (the port is closed)` : `RCON socket error: ${err.message}`;
    if (this._state === "connecting") {
      closeQuietly(this.socket);
      this.socket = null;
      this.failLogin(new RconError(reason), reason);
    } else if (this._state === "connected") this.lose(reason);
  }

  private failLogin(err: Error, reason: string): void {
    const login = this.login;
    this.login = null;
    if (login) {
      clearInterval(login.resend);
      clearTimeout(login.timer);
    }
    closeQuietly(this.socket);
    this.socket = null;
    this.shut(reason);
    login?.reject(err);
  }

  /** The connection is gone (not closed by us): everything waiting fails, `disconnected` says why. */
  private lose(reason: string): void {
    if (this._state === "closed") return;
    closeQuietly(this.socket);
    this.socket = null;
    this.shut(reason);
    this.emit("disconnected", reason);
  }

  /** Stops every timer and fails everything queued; the state becomes closed. */
  private shut(reason: string): void {
    this._state = "closed";
    this._closeReason ??= reason;
    if (this.keepaliveTimer) clearTimeout(this.keepaliveTimer);
    this.keepaliveTimer = null;
    const f = this.inflight;
    this.inflight = null;
    if (f) {
      clearTimers(f);
      f.reject(new RconClosedError(reason));
    }
    for (const job of this.queue.splice(0)) job.reject(new RconClosedError(reason));
  }
}

function clearTimers(f: InFlight): void {
  clearInterval(f.resendTimer);
  clearTimeout(f.replyTimer);
  clearTimeout(f.deadlineTimer);
  clearTimeout(f.gatherTimer);
}

function closeQuietly(socket: Socket | null): void {
  if (!socket) return;
  try {
    socket.close();
  } catch {
    // already closed
  }
}
