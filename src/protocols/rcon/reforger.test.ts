// The game's commands and their answers: the parsers on the texts the sources give, then every
// command against the fake peer in both answer styles (kick, ban create by player number and by
// identity id, ban list over pages, ban remove, a monitor login refused, #shutdown wiping bans).
import { afterEach, describe, expect, test } from "bun:test";
import { startRconPeer, until, type RconPeer, type RconPeerOptions } from "../../../test/fakes/rcon-peer";
import { RconClient } from "./client";
import {
  banCreate,
  banList,
  banReason,
  banRemove,
  isIdentityId,
  kick,
  parseBanList,
  parsePlayers,
  players,
  rconPasswordProblem,
  ReforgerBanNotFoundError,
  ReforgerCommandError,
  ReforgerPermissionError,
  ReforgerPlayerNotFoundError,
  restartScenario,
  shutdown,
} from "./reforger";

const uid = (i: number) => `${i.toString(16).padStart(8, "0")}-aaaa-4bbb-8ccc-${i.toString(16).padStart(12, "0")}`;

describe("parsing", () => {
  const HEADER = "Players on server: [Player#] ; [Player UID] ; [Player Name]";

  test("an empty server is [] (the header alone, as berconpy#11 shows it); no header at all is null", () => {
    expect(parsePlayers(`Processing Command: players\n${HEADER}`)).toEqual([]);
    expect(parsePlayers("Processing Command: players")).toBeNull();
    expect(parsePlayers("")).toBeNull();
  });

  test("rows `N ; uid ; name`: the name is the rest of the line, spaces, semicolons and non-ASCII kept; CRLF and stray lines tolerated", () => {
    const text = [
      "Processing Command: players",
      HEADER,
      `1 ; ${uid(1)} ; Bob`,
      `12;${uid(12)};  Spaced   Name  `,
      "(Global) Alice: hello ; there", // a chat line gathered with the answer
      `7 ; ${uid(7)} ; a;b ; c`,
      `3 ; ${uid(3)} ; Jürgen [TAG] ✓\r`,
      `3 ; ${uid(3)} ; duplicate of 3`,
    ].join("\n");
    expect(parsePlayers(text)).toEqual([
      { player_id: 1, uid: uid(1), name: "Bob" },
      { player_id: 12, uid: uid(12), name: "Spaced   Name" },
      { player_id: 7, uid: uid(7), name: "a;b ; c" },
      { player_id: 3, uid: uid(3), name: "Jürgen [TAG] ✓" },
    ]);
  });

  test("a ban list page as BanCommands.c writes it; the empty list; not a list", () => {
    const page = ["Processing ban list", "Total bans: 27 | Page: 2/2", "- Identity Id | Banned name", `- ${uid(1)} | Bob`, `- ${uid(2)} | name | with bar`, ""].join("\n");
    expect(parseBanList(page)).toEqual({ total: 27, page: 2, pages: 2, bans: [{ uid: uid(1), name: "Bob" }, { uid: uid(2), name: "name | with bar" }] });
    expect(parseBanList("Processing ban list\nServer has no bans to list.")).toEqual({ total: 0, page: 1, pages: 0, bans: [] });
    expect(parseBanList("Page not found!")).toBeNull();
  });

  test("identity ids as the game tells them apart; the config's password rule; a reason on one line", () => {
    expect(isIdentityId(uid(5))).toBe(true);
    expect(isIdentityId("12345")).toBe(false);
    expect(isIdentityId("a".repeat(36))).toBe(false);
    expect(rconPasswordProblem("ab")).toBe("an RCON password has at least 3 characters");
    expect(rconPasswordProblem("a b c")).toBe("an RCON password has no spaces");
    expect(rconPasswordProblem("abc")).toBeNull();
    expect(banReason("  team\nkilling\t\u0000again  ")).toBe("team killing again");
  });
});

const peers: RconPeer[] = [];
const clients: RconClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const p of peers.splice(0)) await p.close();
});

async function connected(opts: Partial<RconPeerOptions> = {}): Promise<{ p: RconPeer; c: RconClient }> {
  const p = await startRconPeer({ messageResendMs: 100, ...opts });
  peers.push(p);
  const c = new RconClient({ host: "127.0.0.1", port: p.port, password: "secret", loginTimeoutMs: 600, resendMs: 100, replyTimeoutMs: 600, command: { quietMs: 40 } });
  clients.push(c);
  await c.connect();
  return { p, c };
}

const FAST = { settleMs: 300 };

for (const style of ["reforger", "battleye"] as const) {
  describe(`commands (${style} style)`, () => {
    test("#players, in one message or several", async () => {
      for (const rowsPerMessage of [null, 2]) {
        const { p, c } = await connected({ style, rowsPerMessage });
        p.join({ uid: uid(1), name: "Bob the Builder" });
        p.join({ uid: uid(2), name: "x;y" });
        p.join({ uid: uid(3), name: "Zoë" });
        expect(await players(c, FAST)).toEqual([
          { player_id: 1, uid: uid(1), name: "Bob the Builder" },
          { player_id: 2, uid: uid(2), name: "x;y" },
          { player_id: 3, uid: uid(3), name: "Zoë" },
        ]);
      }
    });

    test("#kick: the player leaves the roster; an unknown player number is ReforgerPlayerNotFoundError with the server's words", async () => {
      const { p, c } = await connected({ style });
      p.join({ uid: uid(1), name: "Griefer" });
      expect(await kick(c, 1, "not sent: the game's #kick has no reason")).toBe("Player 'Griefer' kicked!");
      expect(p.roster).toEqual([]);
      expect(p.record.commands.map((x) => x.text)).toEqual(["#kick 1"]);
      const err = await kick(c, 42).catch((e) => e);
      expect(err).toBeInstanceOf(ReforgerPlayerNotFoundError);
      expect(err.serverMessage).toBe("Player not found");
      expect(err.command).toBe("#kick 42");
      await expect(kick(c, 0)).rejects.toBeInstanceOf(RangeError);
    });

    test("#ban create by player number (online: banned and kicked), by identity id (offline), listed, removed", async () => {
      const { p, c } = await connected({ style, backendDelayMs: 30 });
      p.join({ uid: uid(1), name: "Online Griefer" });
      expect(await banCreate(c, 1, 3600, "team\nkilling")).toBe("Player 'Online Griefer' banned!");
      expect(p.record.commands.at(-1)!.text).toBe("#ban create 1 3600 team killing");
      expect(p.roster).toEqual([]);
      expect(await banCreate(c, uid(2), 0, "")).toBe(`Player '${uid(2)}' banned!`);
      expect(p.record.commands.at(-1)!.text).toBe(`#ban create ${uid(2)} 0`);
      expect(p.bans.map((b) => [b.uid, b.reason, b.seconds])).toEqual([
        [uid(1), "team killing", 3600],
        [uid(2), "No reason provided", 0],
      ]);
      expect(p.join({ uid: uid(1), name: "Online Griefer" })).toBe(false); // the ban holds
      expect(await banList(c)).toEqual([
        { uid: uid(1), name: "Online Griefer" },
        { uid: uid(2), name: uid(2) },
      ]);
      expect(await banRemove(c, uid(1))).toBe("Ban removed!");
      const err = await banRemove(c, uid(1)).catch((e) => e);
      expect(err).toBeInstanceOf(ReforgerBanNotFoundError);
      expect(err.serverMessage).toBe("User not found!");
      expect((await banList(c)).map((b) => b.uid)).toEqual([uid(2)]);
      await expect(banCreate(c, 99, 60, "gone")).rejects.toBeInstanceOf(ReforgerPlayerNotFoundError);
    });

    test("the arguments are checked before anything is sent (never a name: the game would look it up)", async () => {
      const { p, c } = await connected({ style });
      await expect(banCreate(c, "Bob", 60, "x")).rejects.toBeInstanceOf(RangeError);
      await expect(banCreate(c, 1, -1, "x")).rejects.toBeInstanceOf(RangeError);
      await expect(banCreate(c, 1, 1.5, "x")).rejects.toBeInstanceOf(RangeError);
      await expect(banCreate(c, 1, 60, "x".repeat(600))).rejects.toBeInstanceOf(RangeError);
      await expect(banRemove(c, "Bob")).rejects.toBeInstanceOf(RangeError);
      expect(p.record.commands).toEqual([]);
    });

    test("a monitor login may list players but not kick or ban: ReforgerPermissionError with the server's words", async () => {
      const { p, c } = await connected({ style, permission: "monitor" });
      p.join({ uid: uid(1), name: "Bob" });
      expect(await players(c, FAST)).toHaveLength(1);
      const err = await kick(c, 1).catch((e) => e);
      expect(err).toBeInstanceOf(ReforgerPermissionError);
      expect(err.serverMessage).toBe("Insufficient RCON permission for command 'kick'");
      await expect(banCreate(c, uid(1), 60, "x")).rejects.toBeInstanceOf(ReforgerPermissionError);
      await expect(banList(c)).rejects.toBeInstanceOf(ReforgerPermissionError);
      await expect(shutdown(c, FAST)).rejects.toBeInstanceOf(ReforgerPermissionError);
      expect(p.roster).toHaveLength(1);
    });
  });
}

describe("the ban list and the server's life", () => {
  test("a list longer than a page (25 over RCON) is read page by page", async () => {
    const { p, c } = await connected({ backendDelayMs: 5 });
    for (let i = 1; i <= 60; i++) p.bans.push({ uid: uid(i), name: `B${i}`, reason: "r", seconds: 0, created_at: Date.now() });
    const bans = await banList(c);
    expect(bans).toHaveLength(60);
    expect(bans[59]).toEqual({ uid: uid(60), name: "B60" });
    expect(p.record.commands.map((x) => x.text)).toEqual(["#ban list", "#ban list 2", "#ban list 3"]);
    await expect(banList(c, { maxPages: 2 })).rejects.toThrow("the server holds 60 bans, more than 2 pages");
  });

  test("#restart keeps the players; #shutdown takes the server down and it comes back with NO bans", async () => {
    const { p, c } = await connected({ downMs: 150 });
    p.join({ uid: uid(1), name: "Bob" });
    await banCreate(c, uid(2), 0, "cheating");
    await restartScenario(c, FAST);
    expect(p.roster).toHaveLength(1);
    await shutdown(c, FAST);
    await until(() => p.restarts === 1, "the server back up");
    const again = new RconClient({ host: "127.0.0.1", port: p.port, password: "secret", command: { quietMs: 40 } });
    clients.push(again);
    await again.connect();
    expect(await banList(again)).toEqual([]);
    expect(await players(again, FAST)).toEqual([]);
  });

  test("an answer the game does not give is an error, not an empty result", async () => {
    const fake = { command: async () => "Processing Command: players" };
    await expect(players(fake, FAST)).rejects.toThrow("the server's answer to #players was not understood: \"Processing Command: players\"");
    await expect(kick({ command: async () => "" }, 3)).rejects.toThrow("the server did not answer #kick 3");
    const unknown = await banList({ command: async () => "Unknown command 'ban'" }).catch((e) => e);
    expect(unknown).toBeInstanceOf(ReforgerCommandError);
    expect(unknown.serverMessage).toBe("Unknown command 'ban'");
  });
});
