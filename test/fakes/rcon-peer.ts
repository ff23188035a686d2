// A local RCON peer on 127.0.0.1 (UDP, random port) that answers as an Arma Reforger server does
// (docs/rcon.md; the sources are named in src/protocols/rcon/*.ts and there):
//  - login: 0x00 0x01 for the right password (then the 0x02 message "Logged In! Client ID: #N"
//    [berconpy#11]), 0x00 0x00 for a wrong one;
//  - "reforger" style (the default): every command acknowledged by an EMPTY 0x01 reply, then its
//    output as 0x02 messages: "Processing Command: <keyword>", then the result; the players table
//    in one message or split over several (`rowsPerMessage`); #ban's results only after
//    `backendDelayMs` (the game asks Bohemia's backend first: BanCommands.c returns PENDING);
//  - "battleye" style (the spec): the output in the 0x01 reply, in numbered parts of `partBytes`
//    when longer (in order or reversed);
//  - every 0x02 resent every `messageResendMs` until acknowledged, at most `messageResendTimes`
//    times, then the client is dropped [spec: "5 times for 10 seconds"];
//  - a client that sends no command for `dropAfterMs` (45 s) is dropped: its commands are then
//    ignored, as from a stranger;
//  - a command resent with the same sequence is answered again, not run twice;
//  - a roster, #kick and #ban create/remove/list with the game's own answers (BanCommands.c), a
//    ban list that #shutdown WIPES ("Bans are not persistent between server executions"), the
//    peer then down for `downMs` and back on the same port;
//  - permission "monitor": only #players (and the keepalive) run; the rest is refused.
// Switches for a hostile or broken network: a wrong password (`password`), a packet with a bad
// checksum before each real one or instead of it (`badCrc`), a forged packet from another port
// before each real one or the real one only from there (`fromOtherPort`), a server that never
// answers (`silent`), every message's first acknowledgement ignored (`ignoreFirstAck`), the first
// N command packets lost (`loseCommands`).
// Over 500 lines on purpose: one peer, one socket and one state machine (clients, sequences, resends,
// the ban list across a #shutdown) that every switch above changes; split, each part would need it all.
import { createSocket, type Socket } from "node:dgram";
import {
  decodeClientPacket,
  encodeCommandReply,
  encodeCommandReplyParts,
  encodeLoginReply,
  encodeServerMessage,
} from "../../src/protocols/rcon/packets";

export interface PeerPlayer {
  player_id: number;
  uid: string;
  name: string;
}

export interface PeerBan {
  uid: string;
  name: string;
  reason: string;
  /** 0: permanent. */
  seconds: number;
  created_at: number;
}

export interface RconPeerOptions {
  password: string;
  permission: "admin" | "monitor";
  style: "reforger" | "battleye";
  /** Reforger style: rows per message after the header's own message; null: the table in one message. */
  rowsPerMessage: number | null;
  /** BattlEye style: an answer longer than this goes in parts. */
  partBytes: number;
  partsOrder: "in-order" | "reversed";
  dropAfterMs: number;
  messageResendMs: number;
  messageResendTimes: number;
  backendDelayMs: number;
  downMs: number;
  silent: boolean;
  badCrc: "none" | "stray" | "all";
  fromOtherPort: "none" | "stray" | "all";
  ignoreFirstAck: boolean;
  /** Command packets to lose before answering any (counts down). */
  loseCommands: number;
  /** What the peer answers for a command its permission does not allow (the real words are not known). */
  permissionText: (keyword: string) => string;
}

export const DEFAULT_PEER_OPTIONS: RconPeerOptions = {
  password: "secret",
  permission: "admin",
  style: "reforger",
  rowsPerMessage: null,
  partBytes: 1000,
  partsOrder: "in-order",
  dropAfterMs: 45_000,
  messageResendMs: 2_000,
  messageResendTimes: 5,
  backendDelayMs: 20,
  downMs: 1_000,
  silent: false,
  badCrc: "none",
  fromOtherPort: "none",
  ignoreFirstAck: false,
  loseCommands: 0,
  permissionText: (keyword) => `Insufficient RCON permission for command '${keyword}'`,
};

interface Outstanding {
  packet: Buffer;
  text: string;
  sends: number;
  acks: number;
  timer: ReturnType<typeof setInterval>;
}

interface PeerClient {
  key: string;
  address: string;
  port: number;
  id: number;
  nextMessage: number;
  outstanding: Map<number, Outstanding>;
  lastCommandSeq: number | null;
  lastCommandReply: Buffer[];
  dropTimer: ReturnType<typeof setTimeout> | null;
}

export interface PeerRecord {
  logins: { port: number; ok: boolean; at: number }[];
  /** Every command packet received from a logged-in client (keepalives are text ""). */
  commands: { port: number; seq: number; text: string; at: number }[];
  /** Every acknowledgement received. */
  acks: { port: number; seq: number; at: number }[];
  /** Every 0x02 sent (resends too). */
  messages: { port: number; seq: number; text: string; resend: boolean; at: number }[];
  /** Clients dropped, and why. */
  drops: { port: number; reason: string; at: number }[];
  /** Packets from clients the peer could not read (a bad checksum…). */
  badPackets: string[];
}

export interface RconPeer {
  readonly port: number;
  /** The second socket's port: forged packets and replies "from another port". */
  readonly otherPort: number;
  /** Switches, changeable while it runs. */
  readonly opts: RconPeerOptions;
  /** The players on the server; set it freely. */
  roster: PeerPlayer[];
  /** The server's ban list (wiped by #shutdown). */
  bans: PeerBan[];
  readonly record: PeerRecord;
  /** Logged-in clients. */
  clients(): number;
  readonly isDown: boolean;
  /** How many times the peer came back up after a #shutdown. */
  readonly restarts: number;
  /** A player joins (refused when banned): true when they are on. */
  join(player: Omit<PeerPlayer, "player_id"> & { player_id?: number }): boolean;
  /** A server message to every logged-in client (chat, "Player connected"). */
  say(text: string): void;
  /** Goes down as #shutdown does (bans wiped, clients dropped) and comes back after `downMs`. */
  shutdown(downMs?: number): void;
  close(): Promise<void>;
}

export async function startRconPeer(options: Partial<RconPeerOptions> = {}): Promise<RconPeer> {
  const opts: RconPeerOptions = { ...DEFAULT_PEER_OPTIONS, ...options };
  const record: PeerRecord = { logins: [], commands: [], acks: [], messages: [], drops: [], badPackets: [] };
  const clients = new Map<string, PeerClient>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let nextClientId = 1;
  let nextPlayerId = 1;
  let down = false;
  let closed = false;
  let restarts = 0;

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const bind = (s: Socket, port: number) =>
    new Promise<number>((resolve, reject) => {
      s.once("error", reject);
      s.bind(port, "127.0.0.1", () => {
        s.off("error", reject);
        resolve(s.address().port);
      });
    });

  // a client gone away makes the kernel answer "port unreachable": not the peer's problem
  const quiet = (s: Socket) => s.on("error", () => {});
  let main = createSocket("udp4");
  const other = createSocket("udp4");
  quiet(main);
  quiet(other);
  const port = await bind(main, 0);
  const otherPort = await bind(other, 0);
  main.on("message", (buf, rinfo) => receive(buf, rinfo.address, rinfo.port));

  const peer: RconPeer = {
    port,
    otherPort,
    opts,
    roster: [],
    bans: [],
    record,
    clients: () => clients.size,
    get isDown() {
      return down;
    },
    get restarts() {
      return restarts;
    },
    join(player) {
      if (activeBans().some((b) => b.uid === player.uid)) return false;
      const player_id = player.player_id ?? nextPlayerId++;
      nextPlayerId = Math.max(nextPlayerId, player_id + 1);
      peer.roster.push({ player_id, uid: player.uid, name: player.name });
      return true;
    },
    say(text) {
      for (const c of clients.values()) sendMessage(c, text);
    },
    shutdown(downMs = opts.downMs) {
      goDown(downMs);
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const c of [...clients.values()]) forget(c);
      await Promise.all([closeSocket(main), closeSocket(other)]);
    },
  };

  const closeSocket = (s: Socket) =>
    new Promise<void>((resolve) => {
      try {
        s.close(() => resolve());
      } catch {
        resolve();
      }
    });

  const activeBans = () => {
    const now = Date.now();
    peer.bans = peer.bans.filter((b) => b.seconds === 0 || b.created_at + b.seconds * 1000 > now);
    return peer.bans;
  };

  // ---- sending, with the network's misbehaviour ----

  const forge = (packet: Buffer): Buffer => {
    // the same packet with other contents: a login reply's answer flipped, a text replaced
    const type = packet[7];
    if (type === 0x00) return encodeLoginReply(packet[8] !== 1);
    if (type === 0x01) return encodeCommandReply(packet[8]!, "FORGED ANSWER");
    return encodeServerMessage(packet[8]!, "FORGED MESSAGE");
  };
  const corrupt = (packet: Buffer): Buffer => {
    const bad = Buffer.from(packet);
    bad[2] = bad[2]! ^ 0xff;
    return bad;
  };

  function sendTo(c: { address: string; port: number }, packet: Buffer): void {
    if (opts.silent || down || closed) return;
    const raw = (s: Socket, b: Buffer) => {
      try {
        s.send(b, c.port, c.address);
      } catch {
        // closing
      }
    };
    if (opts.badCrc === "stray") raw(main, corrupt(forge(packet)));
    if (opts.fromOtherPort === "stray") raw(other, forge(packet));
    if (opts.fromOtherPort === "all") return raw(other, opts.badCrc === "all" ? corrupt(packet) : packet);
    raw(main, opts.badCrc === "all" ? corrupt(packet) : packet);
  }

  function sendMessage(c: PeerClient, text: string): void {
    const seq = c.nextMessage;
    c.nextMessage = (seq + 1) & 0xff;
    const packet = encodeServerMessage(seq, text);
    const o: Outstanding = {
      packet,
      text,
      sends: 1,
      acks: 0,
      timer: setInterval(() => {
        if (down || closed || !clients.has(c.key)) return clearInterval(o.timer);
        if (o.sends >= opts.messageResendTimes) {
          clearInterval(o.timer);
          return drop(c, `message ${seq} not acknowledged after ${o.sends} sends`);
        }
        o.sends++;
        record.messages.push({ port: c.port, seq, text, resend: true, at: Date.now() });
        sendTo(c, packet);
      }, opts.messageResendMs),
    };
    const old = c.outstanding.get(seq);
    if (old) clearInterval(old.timer);
    c.outstanding.set(seq, o);
    record.messages.push({ port: c.port, seq, text, resend: false, at: Date.now() });
    sendTo(c, packet);
  }

  function forget(c: PeerClient): void {
    for (const o of c.outstanding.values()) clearInterval(o.timer);
    c.outstanding.clear();
    if (c.dropTimer) clearTimeout(c.dropTimer);
    c.dropTimer = null;
    clients.delete(c.key);
  }

  function drop(c: PeerClient, reason: string): void {
    if (!clients.has(c.key)) return;
    record.drops.push({ port: c.port, reason, at: Date.now() });
    forget(c);
  }

  function armDrop(c: PeerClient): void {
    if (c.dropTimer) clearTimeout(c.dropTimer);
    c.dropTimer = setTimeout(() => drop(c, `no command for ${opts.dropAfterMs} ms`), opts.dropAfterMs);
  }

  function goDown(downMs: number): void {
    if (down || closed) return;
    down = true;
    for (const c of [...clients.values()]) forget(c);
    peer.bans = []; // "Bans are not persistent between server executions"
    peer.roster = [];
    void closeSocket(main).then(() => later(downMs, comeBack));
  }

  function comeBack(): void {
    if (closed) return;
    const s = createSocket("udp4");
    quiet(s);
    s.on("message", (buf, rinfo) => receive(buf, rinfo.address, rinfo.port));
    bind(s, port).then(
      () => {
        if (closed) return void closeSocket(s);
        main = s;
        down = false;
        restarts++;
      },
      () => {
        void closeSocket(s);
        later(50, comeBack); // the port is still held: try again
      },
    );
  }

  // ---- receiving ----

  function receive(buf: Buffer, address: string, fromPort: number): void {
    if (down || closed) return;
    const d = decodeClientPacket(buf);
    if (!d.ok) {
      record.badPackets.push(d.reason);
      return;
    }
    const key = `${address}:${fromPort}`;
    const p = d.packet;
    if (p.type === "login") {
      const ok = p.password === opts.password;
      record.logins.push({ port: fromPort, ok, at: Date.now() });
      if (!ok) return sendTo({ address, port: fromPort }, encodeLoginReply(false));
      let c = clients.get(key);
      const fresh = !c;
      if (!c) {
        c = { key, address, port: fromPort, id: nextClientId++, nextMessage: 0, outstanding: new Map(), lastCommandSeq: null, lastCommandReply: [], dropTimer: null };
        clients.set(key, c);
      }
      armDrop(c);
      sendTo(c, encodeLoginReply(true));
      if (fresh) sendMessage(c, `Logged In! Client ID: #${c.id}`);
      return;
    }
    const c = clients.get(key);
    if (!c) return; // not logged in (or dropped): ignored
    if (p.type === "ack") {
      record.acks.push({ port: fromPort, seq: p.seq, at: Date.now() });
      const o = c.outstanding.get(p.seq);
      if (!o) return;
      o.acks++;
      if (opts.ignoreFirstAck && o.acks === 1) return;
      clearInterval(o.timer);
      c.outstanding.delete(p.seq);
      return;
    }
    if (opts.loseCommands > 0) {
      opts.loseCommands--;
      return;
    }
    record.commands.push({ port: fromPort, seq: p.seq, text: p.command, at: Date.now() });
    armDrop(c);
    if (c.lastCommandSeq === p.seq) {
      // the same command again (its reply was lost): the reply again, the command not run twice
      for (const r of c.lastCommandReply) sendTo(c, r);
      return;
    }
    c.lastCommandSeq = p.seq;
    c.lastCommandReply = [];
    run(c, p.seq, p.command);
  }

  // ---- commands ----

  /** Answers a command: `result` is its output lines (an array per message), `delay` its backend wait. */
  function answer(c: PeerClient, seq: number, keyword: string, result: string[][], delay = 0, after?: () => void): void {
    if (opts.style === "reforger") {
      const ack = encodeCommandReply(seq, "");
      c.lastCommandReply = [ack];
      sendTo(c, ack);
      if (keyword !== "") sendMessage(c, `Processing Command: ${keyword}`);
      const rest = () => {
        if (!clients.has(c.key)) return;
        for (const lines of result) sendMessage(c, lines.join("\n"));
        after?.();
      };
      if (delay > 0) later(delay, rest);
      else rest();
      return;
    }
    const reply = () => {
      const parts = encodeCommandReplyParts(seq, result.map((l) => l.join("\n")).join("\n"), opts.partBytes);
      if (opts.partsOrder === "reversed") parts.reverse();
      c.lastCommandReply = parts;
      for (const part of parts) sendTo(c, part);
      after?.();
    };
    if (delay > 0) later(delay, reply);
    else reply();
  }

  function run(c: PeerClient, seq: number, text: string): void {
    const trimmed = text.trim();
    if (trimmed === "") return answer(c, seq, "", []); // the keepalive
    const argv = trimmed.replace(/^[#]/, "").split(/\s+/);
    const keyword = argv[0]!.toLowerCase();
    const adminOnly = keyword !== "players";
    if (adminOnly && opts.permission !== "admin") return answer(c, seq, keyword, [[opts.permissionText(keyword)]]);
    switch (keyword) {
      case "players":
        return answer(c, seq, keyword, playersOutput());
      case "kick":
        return answer(c, seq, keyword, [[kick(argv)]]);
      case "ban":
        return ban(c, seq, argv);
      case "restart":
        return answer(c, seq, keyword, []);
      case "shutdown":
        return answer(c, seq, keyword, [], 0, () => later(10, () => goDown(opts.downMs)));
      case "@logout":
        return answer(c, seq, "", [], 0, () => forget(c));
      default:
        return answer(c, seq, keyword, [[`Unknown command '${keyword}'`]]);
    }
  }

  function playersOutput(): string[][] {
    const header = "Players on server: [Player#] ; [Player UID] ; [Player Name]";
    const rows = peer.roster.map((p) => `${p.player_id} ; ${p.uid} ; ${p.name}`);
    if (opts.rowsPerMessage === null) return [[header, ...rows]];
    const out: string[][] = [[header]];
    for (let i = 0; i < rows.length; i += opts.rowsPerMessage) out.push(rows.slice(i, i + opts.rowsPerMessage));
    return out;
  }

  function kick(argv: string[]): string {
    if (argv.length < 2) return "Wrong parameters";
    const id = toInt(argv[1]!);
    if (id < 1) return "Not Valid Player ID";
    const p = peer.roster.find((r) => r.player_id === id);
    if (!p) return "Player not found";
    peer.roster = peer.roster.filter((r) => r !== p);
    return `Player '${p.name}' kicked!`;
  }

  function ban(c: PeerClient, seq: number, argv: string[]): void {
    const sub = argv[1];
    const now = Date.now();
    if (sub === "create") {
      if (argv.length < 4) return answer(c, seq, "ban", [["Wrong parameters"]]);
      const seconds = toInt(argv[3]!, -1);
      if (seconds < 0) return answer(c, seq, "ban", [["Not Valid time value in seconds"]]);
      const reason = argv.length > 4 ? argv.slice(4).join(" ") : "No reason provided";
      const id = argv[2]!;
      if (isIdentity(id)) {
        const online = peer.roster.find((r) => r.uid === id);
        return answer(c, seq, "ban", [[`Player '${id}' banned!`]], opts.backendDelayMs, () => addBan(id, online?.name ?? id, reason, seconds, now));
      }
      if (/^\d+$/.test(id)) {
        const p = peer.roster.find((r) => r.player_id === Number(id));
        if (!p) return answer(c, seq, "ban", [["Player not found"]]);
        return answer(c, seq, "ban", [[`Player '${p.name}' banned!`]], opts.backendDelayMs, () => {
          addBan(p.uid, p.name, reason, seconds, now);
          peer.roster = peer.roster.filter((r) => r !== p); // banned players are kicked
        });
      }
      const p = peer.roster.find((r) => r.name === id);
      if (!p) return answer(c, seq, "ban", [["User not found!"]], opts.backendDelayMs);
      return answer(c, seq, "ban", [[`Player '${p.name}' banned!`]], opts.backendDelayMs, () => {
        addBan(p.uid, p.name, reason, seconds, now);
        peer.roster = peer.roster.filter((r) => r !== p);
      });
    }
    if (sub === "remove") {
      if (argv.length < 3) return answer(c, seq, "ban", [["Wrong parameters"]]);
      const id = argv[2]!;
      const found = activeBans().some((b) => b.uid === id || b.name === id);
      return answer(c, seq, "ban", [[found ? "Ban removed!" : "User not found!"]], opts.backendDelayMs, () => {
        if (found) peer.bans = peer.bans.filter((b) => b.uid !== id && b.name !== id);
      });
    }
    if (sub === "list") {
      const page = argv.length > 2 ? toInt(argv[2]!) : 1;
      if (page < 1) return answer(c, seq, "ban", [["Not Valid page number"]]);
      return answer(c, seq, "ban", [["Processing ban list"], banListPage(page)], opts.backendDelayMs);
    }
    return answer(c, seq, "ban", [
      [
        "Help for ban command. ",
        "#ban create <playerId/playerName> <duration> <reason> ",
        "#ban create <identityId/playerName> <duration> <reason> ",
        "#ban remove <identityId/playerName>",
        "#ban list <page>",
        "",
        "- <duration> is in seconds and can be set to 0 for permanent.",
        "- <reason> is optional.",
      ],
    ]);
  }

  function addBan(uid: string, name: string, reason: string, seconds: number, created_at: number): void {
    peer.bans = peer.bans.filter((b) => b.uid !== uid);
    peer.bans.push({ uid, name, reason, seconds, created_at });
  }

  function banListPage(page: number): string[] {
    const bans = activeBans();
    const perPage = 25; // over RCON [wiki]
    const pages = Math.ceil(bans.length / perPage);
    if (pages === 0) return ["Server has no bans to list."];
    if (page > pages) return ["Page not found!"];
    return [`Total bans: ${bans.length} | Page: ${page}/${pages}`, "- Identity Id | Banned name", ...bans.slice((page - 1) * perPage, page * perPage).map((b) => `- ${b.uid} | ${b.name}`)];
  }

  return peer;
}

/** The game's test for an identity id (BanCommands.c GetPlayerIdType). */
const isIdentity = (id: string) => id.length === 36 && id[8] === "-" && id[13] === "-" && id[18] === "-" && id[23] === "-";

/** Enforce's string.ToInt(default): the leading integer, or the default. */
function toInt(s: string, dflt = 0): number {
  const m = /^[+-]?\d+/.exec(s);
  return m ? Number(m[0]) : dflt;
}

/** Waits until `cond()` holds (polled every 5 ms), or fails after `ms` naming what it waited for. */
export async function until(cond: () => boolean, what: string, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
