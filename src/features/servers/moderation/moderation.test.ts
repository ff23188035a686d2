// Moderation on own servers (docs/rcon.md "Moderation"), through the real app against the UDP peer
// that answers as Reforger does: kick and ban of an online player, a ban of an offline uid, scope
// all over two servers, the peer restarted with its ban list wiped and the ban re-applied, a ban
// that runs out lifted, a banned uid showing up kicked and banned again, moderators' rights and a
// stranger's 404 on every route, the server answering with an error (recorded, not retried).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startRconPeer, until, type RconPeer } from "../../../../test/fakes/rcon-peer";
import { createTestApp, TestClock, type TestApp, type TestUser } from "../../../../test/helpers";
import { dispatchPending } from "../../events/dispatch";
import { rconManager } from "../rcon/manager";
import { enforceBans, enforceWith } from "./service";

let t: TestApp;
let clock: TestClock;
let owner: TestUser;
let moderator: TestUser;
let stranger: TestUser;
const peers: RconPeer[] = [];

const uid = (n: number) => `b0b0b0b0-0000-4000-8000-${n.toString().padStart(12, "0")}`;

beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ clock, env: { LOADOUT_ALLOW_PRIVATE_URLS: "true" } });
  owner = await t.createUser({ display_name: "Bob" });
  moderator = await t.createUser({ display_name: "Mod" });
  stranger = await t.createUser({ display_name: "Stranger" });
  const m = rconManager(t.deps, { replyTimeoutMs: 1500, loginTimeoutMs: 3000, backoffInitialMs: 100 });
  enforceWith(t.deps);
  m.start({ pollMs: 3_600_000 });
});

afterAll(async () => {
  await rconManager(t.deps).stop();
  await Promise.all(peers.map((p) => p.close()));
  await t?.close();
});

/** A server of `who` (each test its own owner: a ban of scope all covers every server of its owner). */
async function server(name: string, who = owner, backendDelayMs = 5) {
  const p = await startRconPeer({ password: "rcon-pass", backendDelayMs });
  peers.push(p);
  const s = await t.req("POST", "/api/v1/servers", { user: who, body: { name, connection_type: "panel", file_path: "/s.json" } });
  expect(s.status).toBe(200);
  expect((await t.req("PUT", `/api/v1/servers/${s.body.id}/rcon`, { user: who, body: { host: "127.0.0.1", port: p.port, password: "rcon-pass" } })).status).toBe(200);
  await rconManager(t.deps).whenReady(s.body.id);
  return { id: s.body.id as string, peer: p };
}

const log = async (id: string, who = owner) => (await t.req("GET", `/api/v1/servers/${id}/moderation-log`, { user: who })).body as any[];

describe("kick and ban", () => {
  test("kick an online player (#kick <number>); 404 for one not on the roster; the log and the event", async () => {
    const s = await server("EMS main");
    s.peer.join({ uid: uid(1), name: "PlayerX" });
    await rconManager(t.deps).poll(s.id);
    const pid = (await t.req("GET", `/api/v1/servers/${s.id}/players`, { user: owner })).body.players[0].player_id;
    const r = await t.req("POST", `/api/v1/servers/${s.id}/players/${pid}/kick`, { user: owner, body: { reason: "spawn camping" } });
    expect(r).toMatchObject({ status: 200, body: { ok: true } });
    expect(s.peer.roster).toEqual([]);
    expect((await t.req("POST", `/api/v1/servers/${s.id}/players/99/kick`, { user: owner, body: {} })).status).toBe(404);
    expect((await log(s.id))[0]).toMatchObject({ action: "kick", actor: { display_name: "Bob" }, name: "PlayerX", reason: "spawn camping", result: "ok" });
  });

  test("ban an online player for a day: banned by number (removed), the ban listed, the chat text says who, whom, where, how long, why", async () => {
    const s = await server("EMS ban");
    s.peer.join({ uid: uid(2), name: "Griefer" });
    await rconManager(t.deps).poll(s.id);
    const pid = (await t.req("GET", `/api/v1/servers/${s.id}/players`, { user: owner })).body.players[0].player_id;
    const r = await t.req("POST", `/api/v1/servers/${s.id}/bans`, { user: owner, body: { player_id: pid, duration_s: 86_400, reason: "team killing", scope: "server" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ uid: uid(2), name: "Griefer", reason: "team killing", duration_s: 86_400, scope: "server", server_ids: [s.id], lifted_at: null, active: true });
    expect(r.body).toMatchObject({ created_by: owner.id, created_by_name: "Bob" });
    expect(s.peer.roster).toEqual([]);
    expect(s.peer.bans.map((b) => [b.uid, b.seconds])).toEqual([[uid(2), 86_400]]);
    expect(s.peer.record.commands.some((c) => c.text === `#ban create ${pid} 86400 team killing`)).toBe(true);
    await dispatchPending(t.deps);
    const note = ((await t.req("GET", "/api/v1/notifications", { user: owner })).body as any[]).find((n) => n.event === "player.banned");
    expect(note.body).toBe("Bob banned Griefer on EMS ban for 1 day: team killing");
    expect((await t.req("GET", `/api/v1/servers/${s.id}/bans?active=true`, { user: owner })).body).toHaveLength(1);
    // Lifted: #ban remove, gone from the server's list, listed as lifted.
    expect((await t.req("DELETE", `/api/v1/bans/${r.body.id}`, { user: owner })).status).toBe(204);
    expect(s.peer.bans).toEqual([]);
    expect((await t.req("GET", `/api/v1/servers/${s.id}/bans?active=false`, { user: owner })).body[0].lifted_at).toBeString();
    expect((await log(s.id)).map((e) => e.action)).toEqual(["unban", "ban"]);
  });

  test("duration and reason are checked; an offline uid is banned by uid", async () => {
    const s = await server("EMS checks");
    const bad = async (body: Record<string, unknown>) => (await t.req("POST", `/api/v1/servers/${s.id}/bans`, { user: owner, body })).body.error as string;
    expect(await bad({ uid: uid(3), duration_s: -1, reason: "x" })).toContain("duration_s: must be 0 (permanent) or more seconds");
    expect(await bad({ uid: uid(3), duration_s: 1.5, reason: "x" })).toContain("duration_s: must be a whole number of seconds");
    expect(await bad({ uid: uid(3), duration_s: 60, reason: "   " })).toBe("reason: say why (1 to 500 characters)");
    expect(await bad({ uid: "PlayerName", duration_s: 60, reason: "x" })).toStartWith("uid: must be a player's identity id");
    expect(await bad({ duration_s: 60, reason: "x" })).toContain("uid or player_id");
    const r = await t.req("POST", `/api/v1/servers/${s.id}/bans`, { user: owner, body: { uid: uid(3), duration_s: 0, reason: "cheating" } });
    expect(r.status).toBe(201);
    expect(r.body.expires_at).toBeNull();
    expect(s.peer.bans.map((b) => [b.uid, b.seconds])).toEqual([[uid(3), 0]]);
  });
});

describe("bans that hold", () => {
  test("scope all covers both servers; a server restarted with its bans wiped gets them again; a banned uid showing up is kicked and banned again", async () => {
    const community = await t.createUser({ display_name: "Community" });
    const a = await server("Alpha", community);
    const b = await server("Bravo", community);
    const ban = await t.req("POST", `/api/v1/servers/${a.id}/bans`, { user: community, body: { uid: uid(4), duration_s: 3_600, reason: "hacking", scope: "all" } });
    expect(ban.status).toBe(201);
    expect(ban.body.server_ids.sort()).toEqual([a.id, b.id].sort());
    expect(a.peer.bans.map((x) => x.uid)).toEqual([uid(4)]);
    expect(b.peer.bans.map((x) => x.uid)).toEqual([uid(4)]);

    // Bravo restarts: the game forgets its bans; Loadout re-issues them on reconnecting.
    b.peer.shutdown(300);
    await until(() => b.peer.restarts > 0, "Bravo back up", 8000);
    // The next roster read finds the old connection gone; the session logs in again.
    await rconManager(t.deps).poll(b.id);
    await until(() => rconManager(t.deps).commander(b.id) !== null, "Bravo reconnected", 8000);
    await rconManager(t.deps).whenReady(b.id);
    await until(() => b.peer.bans.length === 1, "the ban re-applied on Bravo", 8000);
    expect(b.peer.bans[0]!.seconds).toBeLessThanOrEqual(3_600);
    expect((await log(b.id, community)).some((e) => e.action === "reapplied" && e.actor === "loadout" && e.result === "ok")).toBe(true);

    // The banned player gets on somehow (the ban list lost again): kicked and banned at the next roster.
    b.peer.bans = [];
    clock.advance(60_000); // a minute on: a roster asked now is later than any issue of the ban
    b.peer.join({ uid: uid(4), name: "Hacker" });
    await rconManager(t.deps).poll(b.id);
    expect(b.peer.roster).toEqual([]);
    expect(b.peer.bans.map((x) => x.uid)).toEqual([uid(4)]);
  }, 20_000);

  test("a roster asked before a ban was made, or while it is on its way, still lists the player: the ban is not issued twice", async () => {
    const s = await server("Race", owner, 400); // the game asks Bohemia's backend before the player goes
    const m = rconManager(t.deps);
    const bans = () => s.peer.record.commands.filter((c) => c.text.startsWith("#ban create")).length;
    s.peer.join({ uid: uid(9), name: "Racer" });
    await m.poll(s.id);
    const pid = (await t.req("GET", `/api/v1/servers/${s.id}/players`, { user: owner })).body.players[0].player_id;

    // Made after the roster was asked for: the roster's hook (run once it is answered) leaves it be.
    const askedBefore = clock.now();
    clock.advance(1000);
    expect((await t.req("POST", `/api/v1/servers/${s.id}/bans`, { user: owner, body: { player_id: pid, duration_s: 3_600, reason: "racing", scope: "server" } })).status).toBe(201);
    await enforceBans(t.deps, s.id, m.commander(s.id)!, askedBefore);
    expect(bans()).toBe(1);

    // On its way (the game still lists the player) when a later roster is answered.
    s.peer.join({ uid: uid(10), name: "Racer Two" });
    await m.poll(s.id);
    const pid2 = (await t.req("GET", `/api/v1/servers/${s.id}/players`, { user: owner })).body.players.find((p: any) => p.name === "Racer Two").player_id;
    const banning = t.req("POST", `/api/v1/servers/${s.id}/bans`, { user: owner, body: { player_id: pid2, duration_s: 3_600, reason: "racing", scope: "server" } });
    await until(() => bans() === 2, "the second ban sent", 5000);
    clock.advance(1000);
    await enforceBans(t.deps, s.id, m.commander(s.id)!, clock.now());
    expect((await banning).status).toBe(201);
    expect(bans()).toBe(2);
    expect(s.peer.roster).toEqual([]);
    expect((await log(s.id)).map((e) => [e.action, e.name, e.result])).toEqual([
      ["ban", "Racer Two", "ok"],
      ["ban", "Racer", "ok"],
    ]);
  }, 15_000);

  test("a ban whose time ran out is lifted where the server still holds it, and logged as expired", async () => {
    const s = await server("Expiry");
    const r = await t.req("POST", `/api/v1/servers/${s.id}/bans`, { user: owner, body: { uid: uid(5), duration_s: 60, reason: "warning" } });
    expect(r.status).toBe(201);
    // The game still lists it (permanently, as a server that re-read it might): Loadout's clock passes the end.
    s.peer.bans[0]!.seconds = 0;
    clock.advance(61_000);
    await rconManager(t.deps).poll(s.id);
    expect(s.peer.bans).toEqual([]);
    expect((await log(s.id))[0]).toMatchObject({ action: "expired", actor: "loadout", result: "ok" });
    expect((await t.req("GET", `/api/v1/servers/${s.id}/bans?active=false`, { user: owner })).body[0].active).toBe(false);
  });

  test("the server answering with an error: recorded with its words, not retried forever", async () => {
    const s = await server("Monitor only");
    s.peer.opts.permission = "monitor";
    const r = await t.req("POST", `/api/v1/servers/${s.id}/bans`, { user: owner, body: { uid: uid(6), duration_s: 60, reason: "x" } });
    expect(r.status).toBe(201); // Loadout's ban stands; the server's refusal is in the log
    const entry = (await log(s.id))[0];
    expect(entry.action).toBe("ban");
    expect(entry.result).toContain("permission");
    const before = s.peer.record.commands.length;
    await Bun.sleep(300);
    expect(s.peer.record.commands.filter((c) => c.text.startsWith("#ban")).length).toBe(s.peer.record.commands.slice(0, before).filter((c) => c.text.startsWith("#ban")).length);
  });
});

describe("moderators", () => {
  test("a moderator sees the roster, sessions and bans, kicks and bans, lifts only their own; nothing else of the server; a stranger gets 404 everywhere", async () => {
    const s = await server("Moderated");
    expect((await t.req("POST", `/api/v1/servers/${s.id}/moderators`, { user: owner, body: { email: moderator.email } })).body).toEqual([
      expect.objectContaining({ user_id: moderator.id, display_name: "Mod" }),
    ]);
    // The moderator finds the server among the ones they moderate (GET /servers/:id stays the owner's: below).
    expect((await t.req("GET", "/api/v1/servers/moderated", { user: moderator })).body).toEqual([{ id: s.id, name: "Moderated", role: "moderator" }]);
    expect((await t.req("GET", "/api/v1/servers/moderated", { user: stranger })).body).toEqual([]);
    expect((await t.req("GET", "/api/v1/servers/moderated", {})).status).toBe(401);
    s.peer.join({ uid: uid(7), name: "Noob" });
    await rconManager(t.deps).poll(s.id);
    for (const path of ["players", "sessions", `players/${uid(7)}`, "bans", "moderation-log"]) {
      expect([path, (await t.req("GET", `/api/v1/servers/${s.id}/${path}`, { user: moderator })).status]).toEqual([path, 200]);
      expect([path, (await t.req("GET", `/api/v1/servers/${s.id}/${path}`, { user: stranger })).status]).toEqual([path, 404]);
    }
    // Nothing else: the server itself, its deployments, settings, RCON, moderators.
    for (const [method, path] of [
      ["GET", ""],
      ["GET", "/deployments"],
      ["PUT", ""],
      ["POST", "/deploy"],
      ["POST", "/credentials"],
      ["PUT", "/rcon"],
      ["POST", "/rcon/test"],
      ["GET", "/moderators"],
    ] as const) {
      expect([method, path, (await t.req(method, `/api/v1/servers/${s.id}${path}`, { user: moderator, body: {} })).status]).toEqual([method, path, 404]);
    }
    const pid = (await t.req("GET", `/api/v1/servers/${s.id}/players`, { user: moderator })).body.players[0].player_id;
    const ownerBan = await t.req("POST", `/api/v1/servers/${s.id}/bans`, { user: owner, body: { uid: uid(8), duration_s: 60, reason: "owner's" } });
    const modBan = await t.req("POST", `/api/v1/servers/${s.id}/bans`, { user: moderator, body: { player_id: pid, duration_s: 3600, reason: "mod's" } });
    expect(modBan.status).toBe(201);
    expect(modBan.body.created_by_name).toBe("Mod");
    expect((await t.req("DELETE", `/api/v1/bans/${ownerBan.body.id}`, { user: moderator })).status).toBe(403);
    expect((await t.req("DELETE", `/api/v1/bans/${modBan.body.id}`, { user: moderator })).status).toBe(204);
    expect((await t.req("DELETE", `/api/v1/bans/${ownerBan.body.id}`, { user: stranger })).status).toBe(404);
    expect(((await t.req("GET", "/api/v1/bans", { user: moderator })).body as any[]).map((b) => b.reason).sort()).toEqual(["mod's", "owner's"]);
    expect((await t.req("GET", "/api/v1/bans", { user: stranger })).body).toEqual([]);
    // Only the owner manages moderators.
    expect((await t.req("POST", `/api/v1/servers/${s.id}/moderators`, { user: moderator, body: { user_id: stranger.id } })).status).toBe(404);
    expect((await t.req("DELETE", `/api/v1/servers/${s.id}/moderators/${moderator.id}`, { user: owner })).status).toBe(204);
    expect((await t.req("GET", `/api/v1/servers/${s.id}/players`, { user: moderator })).status).toBe(404);
    expect((await t.req("GET", "/api/v1/servers/moderated", { user: moderator })).body).toEqual([]);
  });
});
