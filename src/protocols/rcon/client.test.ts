// The RCON client and session against the fake peer on 127.0.0.1 (real UDP sockets): login, both
// answer styles, parts, several messages, acknowledgements, a hostile network, the keepalive,
// sequence numbers, reconnection after #shutdown. Timings are scaled down (docs/rcon.md gives the
// real ones); every wait is on a condition.
import { afterEach, describe, expect, test } from "bun:test";
import { startRconPeer, until, type RconPeer, type RconPeerOptions } from "../../../test/fakes/rcon-peer";
import {
  RconAnswerError,
  RconClient,
  RconClosedError,
  RconLoginRefusedError,
  RconTimeoutError,
  seconds,
  type RconClientOptions,
} from "./client";
import { RconSession, type RconSessionOptions } from "./session";
import { players, shutdown } from "./reforger";

const peers: RconPeer[] = [];
const clients: RconClient[] = [];
const sessions: RconSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.stop();
  for (const c of clients.splice(0)) c.close();
  for (const p of peers.splice(0)) await p.close();
});

async function peer(opts: Partial<RconPeerOptions> = {}): Promise<RconPeer> {
  const p = await startRconPeer({ messageResendMs: 100, ...opts });
  peers.push(p);
  return p;
}

// Short, but with room for a busy machine: a late timer must not cut an answer short or end a login.
const FAST = { loginTimeoutMs: 2000, resendMs: 100, replyTimeoutMs: 2000, command: { quietMs: 150, settleMs: 800, timeoutMs: 5000 } } satisfies Partial<RconClientOptions>;

function client(p: RconPeer, opts: Partial<RconClientOptions> = {}): RconClient {
  const c = new RconClient({ host: "127.0.0.1", port: p.port, password: "secret", ...FAST, ...opts });
  clients.push(c);
  return c;
}

const uid = (i: number) => `${i.toString(16).padStart(8, "0")}-1111-4222-8333-${i.toString(16).padStart(12, "0")}`;
const roster = (n: number) => Array.from({ length: n }, (_, i) => ({ player_id: i + 1, uid: uid(i + 1), name: `Player ${i + 1}; the ${i % 2 ? "quick" : "slow"} one` }));

describe("login", () => {
  test("the right password: connected, and the server's 'Logged In!' message arrives as a message", async () => {
    const p = await peer();
    const c = client(p);
    const messages: string[] = [];
    c.on("message", (m) => messages.push(m));
    let connected = 0;
    c.on("connected", () => connected++);
    await c.connect();
    expect(c.state).toBe("connected");
    expect(connected).toBe(1);
    await until(() => messages.length === 1, "the login message");
    expect(messages).toEqual(["Logged In! Client ID: #1"]);
    expect(p.record.logins.map((l) => l.ok)).toEqual([true]);
    expect(c.lastSeenAt).toBeGreaterThan(0);
  });

  test("a wrong password: 'the server refused the RCON password', and the client is closed", async () => {
    const p = await peer({ password: "other" });
    const c = client(p);
    const err = await c.connect().catch((e) => e);
    expect(err).toBeInstanceOf(RconLoginRefusedError);
    expect(err.message).toBe("the server refused the RCON password");
    expect(c.state).toBe("closed");
    await expect(c.command("#players")).rejects.toBeInstanceOf(RconClosedError);
  });

  test("a server that never answers: 'no RCON answer from HOST:PORT within …', the login resent meanwhile", async () => {
    const p = await peer({ silent: true });
    // Long enough that a busy machine's late timers still resend twice before it gives up: the
    // resends are waited for as a condition, the timeout's message checked when it comes.
    const c = client(p, { loginTimeoutMs: 3000 });
    const failed = c.connect().catch((e) => e);
    await until(() => p.record.logins.length >= 3, "the login sent three times", 3000);
    const err = await failed;
    expect(err).toBeInstanceOf(RconTimeoutError);
    expect(err.message).toBe(`no RCON answer from 127.0.0.1:${p.port} within 3 s`);
    expect(seconds(5000)).toBe("5 s");
  });

  test("connect() is once per client", async () => {
    const p = await peer();
    const c = client(p);
    await c.connect();
    await expect(c.connect()).rejects.toThrow("connect() is called once per client (this one is connected)");
  });
});

describe("the two answer styles", () => {
  test("Reforger: an empty 0x01 acknowledgement, then the output as 0x02 messages, gathered into the answer", async () => {
    const p = await peer({ style: "reforger" });
    p.roster = roster(3);
    const c = client(p);
    const events: string[] = [];
    c.on("message", (m) => events.push(m));
    await c.connect();
    await until(() => events.length === 1, "the login message");
    const answer = await c.command("#players");
    expect(answer).toBe(
      [
        "Processing Command: players",
        "Players on server: [Player#] ; [Player UID] ; [Player Name]",
        `1 ; ${uid(1)} ; Player 1; the slow one`,
        `2 ; ${uid(2)} ; Player 2; the quick one`,
        `3 ; ${uid(3)} ; Player 3; the slow one`,
      ].join("\n"),
    );
    expect(events).toEqual(["Logged In! Client ID: #1"]); // the answer's messages are not events
  });

  test("BattlEye's spec: the output in the 0x01 reply itself", async () => {
    const p = await peer({ style: "battleye" });
    p.roster = roster(2);
    const c = client(p);
    await c.connect();
    const answer = await c.command("#players");
    expect(answer.split("\n")).toEqual(["Players on server: [Player#] ; [Player UID] ; [Player Name]", `1 ; ${uid(1)} ; Player 1; the slow one`, `2 ; ${uid(2)} ; Player 2; the quick one`]);
  });

  for (const partsOrder of ["in-order", "reversed"] as const) {
    test(`a long answer in numbered parts (${partsOrder}) is reassembled`, async () => {
      const p = await peer({ style: "battleye", partBytes: 200, partsOrder });
      p.roster = roster(60);
      const c = client(p);
      await c.connect();
      const list = await players(c);
      expect(list).toHaveLength(60);
      expect(list[59]).toEqual({ player_id: 60, uid: uid(60), name: "Player 60; the quick one" });
    });
  }

  test("a roster over several messages (Reforger) is gathered whole, each message acknowledged", async () => {
    const p = await peer({ style: "reforger", rowsPerMessage: 4 });
    p.roster = roster(10);
    const c = client(p);
    await c.connect();
    const list = await players(c);
    expect(list.map((x) => x.player_id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // 1 login message + "Processing Command" + header + 3 row messages
    await until(() => p.record.acks.length >= 6, "every acknowledgement");
    const sent = p.record.messages.filter((m) => !m.resend).map((m) => m.seq);
    expect(sent).toEqual([0, 1, 2, 3, 4, 5]);
    expect([...new Set(p.record.acks.map((a) => a.seq))].sort((a, b) => a - b)).toEqual(sent);
  });

  test("a #ban answered only after the backend (Reforger's PENDING): the progress line does not end the answer", async () => {
    const p = await peer({ style: "reforger", backendDelayMs: 150 });
    p.roster = roster(1);
    const c = client(p);
    await c.connect();
    // quietMs 40 would end the answer after "Processing Command: ban" if progress lines counted as output
    const answer = await c.command("#ban create 1 60 test");
    expect(answer).toBe("Processing Command: ban\nPlayer 'Player 1; the slow one' banned!");
  });

  test("a chat message while no command runs is a `message`; during the spec's answer too", async () => {
    const p = await peer({ style: "battleye", backendDelayMs: 100 });
    const c = client(p);
    const events: string[] = [];
    c.on("message", (m) => events.push(m));
    await c.connect();
    const pending = c.command("#ban list");
    await until(() => p.record.commands.length === 1, "the command to arrive");
    p.say("(Global) Bob: hello");
    expect(await pending).toBe("Processing ban list\nServer has no bans to list.");
    await until(() => events.includes("(Global) Bob: hello"), "the chat line as a message");
  });
});

describe("server messages", () => {
  test("every 0x02 is acknowledged, a resent one acknowledged again and delivered once", async () => {
    const p = await peer({ ignoreFirstAck: true, messageResendMs: 60 });
    const c = client(p);
    const events: string[] = [];
    c.on("message", (m) => events.push(m));
    const dropped: string[] = [];
    c.on("dropped", (r) => dropped.push(r));
    await c.connect();
    p.say("Player Bob connected");
    await until(() => p.record.acks.filter((a) => a.seq === 1).length >= 2, "two acknowledgements of message 1");
    expect(p.record.messages.filter((m) => m.seq === 1).map((m) => m.resend)).toEqual([false, true]);
    expect(events.filter((e) => e === "Player Bob connected")).toHaveLength(1);
    expect(dropped).toContain("server message 1 again (a resend): acknowledged, not delivered twice");
    expect(p.record.drops).toEqual([]);
  });

  test("a client that never acknowledges is dropped by the server after its resends (the spec's rule, in the peer)", async () => {
    const p = await peer({ messageResendMs: 30, messageResendTimes: 3, ignoreFirstAck: false });
    // a raw login from a socket that reads nothing: the peer's own behaviour, checked once
    const { createSocket } = await import("node:dgram");
    const { encodeLogin } = await import("./packets");
    const s = createSocket("udp4");
    await new Promise<void>((r) => s.bind(0, "127.0.0.1", () => r()));
    s.send(encodeLogin("secret"), p.port, "127.0.0.1");
    await until(() => p.record.drops.length === 1, "the silent client dropped");
    expect(p.record.drops[0]!.reason).toBe("message 0 not acknowledged after 3 sends");
    s.close();
  });
});

describe("only the server's packets", () => {
  test("packets with a bad checksum before each real one are ignored (and said so)", async () => {
    const p = await peer({ badCrc: "stray" });
    p.roster = roster(2);
    const c = client(p);
    const dropped: string[] = [];
    c.on("dropped", (r) => dropped.push(r));
    await c.connect();
    expect((await players(c)).map((x) => x.name)).toEqual(["Player 1; the slow one", "Player 2; the quick one"]);
    expect(dropped.some((d) => d.startsWith("a packet with a wrong checksum"))).toBe(true);
  });

  test("a forged 'login ok' from another port does not log in with a wrong password", async () => {
    const p = await peer({ fromOtherPort: "stray", password: "other" });
    const c = client(p);
    const dropped: string[] = [];
    c.on("dropped", (r) => dropped.push(r));
    await expect(c.connect()).rejects.toBeInstanceOf(RconLoginRefusedError);
    expect(dropped).toContain(`a packet from 127.0.0.1:${p.otherPort}, not the server`);
  });

  test("forged answers from another port are never taken", async () => {
    const p = await peer({ fromOtherPort: "stray", style: "battleye" });
    p.roster = roster(1);
    const c = client(p);
    await c.connect();
    expect(await c.command("#players")).not.toContain("FORGED");
  });

  test("a server answering only from another port, or only with bad checksums, is no answer", async () => {
    for (const opts of [{ fromOtherPort: "all" }, { badCrc: "all" }] as const) {
      const p = await peer(opts);
      const err = await client(p, { loginTimeoutMs: 250 }).connect().catch((e) => e);
      expect(err).toBeInstanceOf(RconTimeoutError);
    }
  });
});

describe("one command at a time, sequence numbers, resends", () => {
  test("commands queued: each sent after the previous one's answer, answers to the right caller", async () => {
    const p = await peer({ style: "reforger" });
    p.roster = roster(4);
    const c = client(p);
    await c.connect();
    const answers = await Promise.all([1, 2, 3, 4].map((id) => c.command(`#kick ${id}`)));
    expect(answers.map((a) => a.split("\n")[1])).toEqual([1, 2, 3, 4].map((i) => `Player 'Player ${i}; the ${i % 2 ? "slow" : "quick"} one' kicked!`));
    expect(p.record.commands.map((x) => [x.seq, x.text])).toEqual([1, 2, 3, 4].map((i) => [i - 1, `#kick ${i}`]));
  });

  test("sequence numbers wrap from 255 to 0", async () => {
    const p = await peer({ style: "battleye" });
    const c = client(p);
    await c.connect();
    for (let i = 0; i < 260; i++) await c.command("#players");
    const seqs = p.record.commands.map((x) => x.seq);
    expect(seqs.slice(254, 259)).toEqual([254, 255, 0, 1, 2]);
  });

  test("a lost command is resent with the same sequence and answered once", async () => {
    const p = await peer({ style: "battleye", loseCommands: 1 });
    p.roster = roster(1);
    const c = client(p);
    await c.connect();
    expect(await players(c)).toHaveLength(1);
    expect(p.record.commands.map((x) => x.seq)).toEqual([0]);
  });
});

describe("the keepalive and the server's 45 s rule (scaled down)", () => {
  test("an empty command every keepaliveMs keeps the client past the server's drop time", async () => {
    // Scaled down from 45 s, with a wide margin (a keepalive every 150 ms against a drop at 1 s), so
    // timers running late on a busy machine do not drop the client.
    const p = await peer({ dropAfterMs: 1000 });
    const c = client(p, { keepaliveMs: 150 });
    await c.connect();
    const start = Date.now();
    await until(() => p.record.commands.filter((x) => x.text === "").length >= 8 && Date.now() - start > 3100, "keepalives over three drop times", 8000);
    expect(p.record.drops).toEqual([]);
    expect(c.state).toBe("connected");
    expect(await c.command("#players")).toContain("Players on server:");
  });

  test("without it the server drops the client; the next command finds no answer and the client says it is disconnected", async () => {
    const p = await peer({ dropAfterMs: 150 });
    const c = client(p, { keepaliveMs: 60_000 });
    const reasons: string[] = [];
    c.on("disconnected", (r) => reasons.push(r));
    await c.connect();
    await until(() => p.record.drops.length === 1, "the server to drop the silent client");
    const err = await c.command("#players").catch((e) => e);
    expect(err).toBeInstanceOf(RconTimeoutError);
    expect(err.message).toBe(`no RCON answer from 127.0.0.1:${p.port} within 2 s`);
    expect(reasons).toEqual([err.message]);
    expect(c.state).toBe("closed");
  });
});

describe("sizes are bounded", () => {
  test("an answer in more parts than the limit fails that command; the connection stays", async () => {
    const p = await peer({ style: "battleye", partBytes: 100 });
    p.roster = roster(30);
    const c = client(p, { limits: { maxParts: 8 } });
    await c.connect();
    const err = await c.command("#players").catch((e) => e);
    expect(err).toBeInstanceOf(RconAnswerError);
    expect(err.message).toMatch(/^the answer to "#players" was refused: an answer in \d+ parts \(more than 8\)$/);
    p.roster = roster(2);
    expect(await players(c)).toHaveLength(2);
  });

  test("a Reforger answer of too many messages fails that command; the connection stays", async () => {
    const p = await peer({ style: "reforger", rowsPerMessage: 1 });
    p.roster = roster(12);
    const c = client(p, { limits: { maxAnswerMessages: 5 } });
    await c.connect();
    const err = await c.command("#players").catch((e) => e);
    expect(err).toBeInstanceOf(RconAnswerError);
    expect(err.message).toBe('the answer to "#players" was refused: an answer of more than 5 messages');
    p.roster = roster(2);
    expect(await players(c)).toHaveLength(2);
  });

  test("a datagram over the limit is dropped unread", async () => {
    const p = await peer();
    const c = client(p, { limits: { maxPacketBytes: 1024 } });
    const dropped: string[] = [];
    c.on("dropped", (r) => dropped.push(r));
    const events: string[] = [];
    c.on("message", (m) => events.push(m));
    await c.connect();
    p.say("x".repeat(2000));
    await until(() => dropped.some((d) => d === "a packet of 2009 bytes (more than 1024)"), "the big packet dropped");
    expect(events.some((e) => e.startsWith("xxx"))).toBe(false);
  });

  test("a command that cannot be one line in one packet is refused before it is sent", async () => {
    const p = await peer();
    const c = client(p);
    await c.connect();
    await expect(c.command("#kick 1\n#shutdown")).rejects.toThrow("one line");
    await expect(c.command("x".repeat(20_000))).rejects.toThrow("does not fit one packet");
    expect(p.record.commands).toEqual([]);
  });
});

describe("close", () => {
  test("close() sends @logout, so the server frees the slot at once; waiting commands reject", async () => {
    const p = await peer({ backendDelayMs: 200 });
    const c = client(p);
    const reasons: string[] = [];
    c.on("disconnected", (r) => reasons.push(r));
    await c.connect();
    expect(p.clients()).toBe(1);
    const waiting = c.command("#ban list");
    await until(() => p.record.commands.length === 1, "the command sent");
    c.close("done");
    await expect(waiting).rejects.toThrow("done");
    await until(() => p.clients() === 0, "the server to forget the client");
    expect(p.record.commands.map((x) => x.text)).toEqual(["#ban list", "@logout"]);
    expect(reasons).toEqual(["done"]);
  });
});

describe("RconSession", () => {
  function session(p: RconPeer, opts: Partial<RconSessionOptions> = {}): RconSession {
    const s = new RconSession({ host: "127.0.0.1", port: p.port, password: "secret", ...FAST, keepaliveMs: 60, backoffInitialMs: 40, backoffMaxMs: 160, ...opts });
    sessions.push(s);
    return s;
  }

  test("after #shutdown it reconnects with backoff once the server is back, and onConnected runs again", async () => {
    const p = await peer({ downMs: 1200 });
    const connections: number[] = [];
    const delays: number[] = [];
    // a short login wait, so that several attempts fail while the server is down
    const s = session(p, { onRetry: (ms) => delays.push(ms), replyTimeoutMs: 300, loginTimeoutMs: 150 });
    s.onConnected(async (c) => {
      connections.push(Date.now());
      // what a session's owner does there: read the server's bans
      await c.command("#ban list");
    });
    expect(s.status).toBe("connecting");
    s.start();
    await until(() => s.status === "connected" && connections.length === 1, "the first connection");
    const firstAt = s.connectedAt!;
    p.bans.push({ uid: uid(9), name: "Griefer", reason: "x", seconds: 0, created_at: Date.now() });
    await shutdown(s, { settleMs: 50 });
    await until(() => s.status !== "connected", "the loss noticed");
    // the keepalive unanswered, or the kernel's "port unreachable", whichever comes first
    expect(s.error).toMatch(/^(no RCON answer from 127\.0\.0\.1:\d+ within 0\.3 s|nothing answers RCON on 127\.0\.0\.1:\d+ \(the port is closed\))$/);
    await until(() => connections.length === 2 && s.status === "connected", "the reconnection", 6000);
    expect(p.restarts).toBe(1);
    expect(p.bans).toEqual([]); // the server came back without its bans
    expect(s.error).toBeNull();
    expect(s.connectedAt!).toBeGreaterThan(firstAt);
    expect(s.lastSeenAt!).toBeGreaterThanOrEqual(s.connectedAt!);
    // 40 after the loss, then doubling while the server is down, capped at 160
    expect(delays.slice(0, 3)).toEqual([40, 80, 160]);
    expect(delays.slice(3).every((d) => d === 160)).toBe(true);
    expect(await s.command("#players")).toContain("Players on server:");
  });

  test("a refused password: status failed with the reason, retried with backoff", async () => {
    const p = await peer({ password: "other" });
    const delays: number[] = [];
    const s = session(p, { onRetry: (ms) => delays.push(ms) });
    s.start();
    await until(() => delays.length >= 3, "three retries");
    expect(s.status).toBe("failed");
    expect(s.error).toBe("the server refused the RCON password");
    expect(delays.slice(0, 3)).toEqual([40, 80, 160]);
    await expect(s.command("#players")).rejects.toThrow("the server refused the RCON password");
    p.opts.password = "secret";
    await until(() => s.status === "connected", "the connection once the password is right");
  });

  test("stop() leaves no timer and no socket behind", async () => {
    const live = new Set<unknown>();
    const real = { setTimeout, setInterval, clearTimeout, clearInterval };
    const g = globalThis as unknown as Record<string, unknown>;
    g.setTimeout = (fn: () => void, ms?: number, ...a: unknown[]) => {
      const t = real.setTimeout(() => {
        live.delete(t);
        fn();
      }, ms, ...a);
      live.add(t);
      return t;
    };
    g.setInterval = (fn: () => void, ms?: number) => {
      const t = real.setInterval(fn, ms);
      live.add(t);
      return t;
    };
    g.clearTimeout = (t: ReturnType<typeof setTimeout>) => {
      live.delete(t);
      real.clearTimeout(t);
    };
    g.clearInterval = (t: ReturnType<typeof setInterval>) => {
      live.delete(t);
      real.clearInterval(t);
    };
    try {
      const p = await peer();
      const s = session(p);
      s.start();
      await until(() => s.status === "connected", "connected");
      await s.command("#players");
      await s.stop();
      expect(s.client).toBeNull();
      await until(() => p.clients() === 0, "the @logout");
      await p.close();
      peers.splice(peers.indexOf(p), 1);
      // the until() helper's own 5 ms sleeps fire and leave; anything else left is a leak
      await new Promise((r) => real.setTimeout(r, 20));
      expect(live.size).toBe(0);
    } finally {
      Object.assign(globalThis, real);
    }
  });
});
