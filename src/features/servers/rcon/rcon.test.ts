// RCON on a community's own servers (docs/rcon.md), through the real app against the UDP peer of
// test/fakes/rcon-peer.ts that answers as Reforger does: settings (sealed, never returned, the
// private-address rule, from the config's rcon block), the test in words, the roster and sessions
// across polls, a player's page, the deploy loop counting players over RCON and restarting by
// #shutdown, and the events of a connection lost and back.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startA2sResponder, type A2sResponder } from "../../../../test/fakes/a2s";
import { SAMPLE_SERVER_JSON } from "../../../../test/fakes/panel-server-json";
import { startFakePanel, type FakePanel } from "../../../../test/fakes/panel";
import { startRconPeer, until, type RconPeer } from "../../../../test/fakes/rcon-peer";
import { createTestApp, TestClock, type TestApp, type TestUser } from "../../../../test/helpers";
import { DEPLOY_JOB } from "../deploy/jobs";
import { rconManager } from "./manager";
import { dispatchPending } from "../../events/dispatch";
import { promtoolAccepts, promtoolCheck } from "../../../../test/peers/promtool";

let t: TestApp;
let clock: TestClock;
let owner: TestUser;
let stranger: TestUser;
let panel: FakePanel;
const peers: RconPeer[] = [];

beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ clock, env: { LOADOUT_ALLOW_PRIVATE_URLS: "true", LOADOUT_RCON_POLL_S: "5", LOADOUT_DEPLOY_POLL_MS: "20" } });
  owner = await t.createUser({ display_name: "Owner" });
  stranger = await t.createUser({ display_name: "Stranger" });
  panel = startFakePanel();
  // Polled by hand below; a lost connection is noticed within a second.
  rconManager(t.deps, { replyTimeoutMs: 1500, loginTimeoutMs: 3000, backoffInitialMs: 100 }).start({ pollMs: 3_600_000 });
});

afterAll(async () => {
  await rconManager(t.deps).stop();
  await Promise.all(peers.map((p) => p.close()));
  await panel?.stop();
  await t?.close();
});

async function peer(opts: Parameters<typeof startRconPeer>[0] = {}) {
  const p = await startRconPeer({ password: "rcon-pass", ...opts });
  peers.push(p);
  return p;
}

async function panelServer(config = SAMPLE_SERVER_JSON, extra: Record<string, unknown> = {}) {
  const file = `/srv-${Math.random().toString(36).slice(2)}.json`;
  panel.files.set(file, config);
  const s = await t.req("POST", "/api/v1/servers", { user: owner, body: { name: "EMS main", connection_type: "panel", file_path: file, query_address: "127.0.0.1:9", ...extra } });
  expect(s.status).toBe(200);
  await t.req("POST", `/api/v1/servers/${s.body.id}/credentials`, { user: owner, body: { panel_url: panel.url, api_key: panel.apiKey, server_uuid: panel.serverUuid } });
  return { id: s.body.id as string, file };
}

const connected = (id: string) => until(() => rconManager(t.deps).commander(id) !== null, "RCON connected", 5000);

describe("settings", () => {
  test("owner sets host, port, password: sealed, never returned; the view says how the connection is; a stranger gets 404", async () => {
    const p = await peer();
    const s = await panelServer();
    const put = await t.req("PUT", `/api/v1/servers/${s.id}/rcon`, { user: owner, body: { host: "127.0.0.1", port: p.port, password: "rcon-pass" } });
    expect(put.status).toBe(200);
    expect(put.text).not.toContain("rcon-pass");
    expect(put.body.rcon).toMatchObject({ host: "127.0.0.1", port: p.port });
    const row = t.deps.sqlite.query("SELECT rcon_password FROM servers WHERE id = ?").get(s.id) as { rcon_password: string };
    expect(row.rcon_password).toStartWith("v1.");
    expect(row.rcon_password).not.toContain("rcon-pass");
    await connected(s.id);
    const view = await t.req("GET", `/api/v1/servers/${s.id}`, { user: owner });
    expect(view.body.rcon).toMatchObject({ status: "connected", error: null });
    expect(view.body.rcon.connected_at).toBeString();
    for (const [method, path, body] of [
      ["PUT", "rcon", { password: "x1x" }],
      ["DELETE", "rcon", undefined],
      ["POST", "rcon/test", undefined],
      ["GET", "players", undefined],
      ["GET", "sessions", undefined],
      ["GET", "players/someone", undefined],
    ] as const) {
      const r = await t.req(method, `/api/v1/servers/${s.id}/${path}`, { user: stranger, ...(body ? { body } : {}) });
      expect([path, r.status]).toEqual([path, 404]);
    }
  });

  test("a bad password, a private address without LOADOUT_ALLOW_PRIVATE_URLS, no host to take: 400 in words", async () => {
    const s = await panelServer(SAMPLE_SERVER_JSON, { query_address: null });
    expect((await t.req("PUT", `/api/v1/servers/${s.id}/rcon`, { user: owner, body: { host: "127.0.0.1", password: "a b" } })).body.error).toStartWith("password: ");
    expect((await t.req("PUT", `/api/v1/servers/${s.id}/rcon`, { user: owner, body: { password: "longenough" } })).body.error).toStartWith("host: required");
    const strict = await createTestApp({ env: { LOADOUT_ALLOW_PRIVATE_URLS: "false" } });
    try {
      const u = await strict.createUser();
      const srv = await strict.req("POST", "/api/v1/servers", { user: u, body: { name: "x", connection_type: "panel", file_path: "/s.json" } });
      const r = await strict.req("PUT", `/api/v1/servers/${srv.body.id}/rcon`, { user: u, body: { host: "10.0.0.5", password: "rcon-pass" } });
      expect(r).toMatchObject({ status: 400, body: { error: "url not allowed" } });
    } finally {
      await strict.close();
    }
  });

  test("the config's rcon block is offered (rcon_suggested) and taken with from_config", async () => {
    const p = await peer();
    const config = SAMPLE_SERVER_JSON.replace('"port": 19999, "password": "rconpw"', `"port": ${p.port}, "password": "rcon-pass"`).replace('"address": "0.0.0.0", "port": ' + p.port, `"address": "127.0.0.1", "port": ${p.port}`);
    const s = await panelServer(config);
    const test = await t.req("POST", `/api/v1/servers/${s.id}/test`, { user: owner });
    await t.deps.jobs.drain({ types: [DEPLOY_JOB] });
    expect(test.status).toBe(200);
    expect((await t.req("GET", `/api/v1/servers/${s.id}`, { user: owner })).body.rcon_suggested).toEqual({ port: p.port });
    const put = await t.req("PUT", `/api/v1/servers/${s.id}/rcon`, { user: owner, body: { from_config: true } });
    expect(put.status).toBe(200);
    expect(put.body.rcon).toMatchObject({ host: "127.0.0.1", port: p.port });
    const ok = await t.req("POST", `/api/v1/servers/${s.id}/rcon/test`, { user: owner });
    expect(ok.body).toEqual({ ok: true, players: 0 });
  });

  test("the test says what went wrong: a refused password, no answer within 5 s", async () => {
    const p = await peer();
    const s = await panelServer();
    await t.req("PUT", `/api/v1/servers/${s.id}/rcon`, { user: owner, body: { host: "127.0.0.1", port: p.port, password: "wrong-pass" } });
    expect((await t.req("POST", `/api/v1/servers/${s.id}/rcon/test`, { user: owner })).body).toEqual({ ok: false, error: "the server refused the RCON password" });
    const silent = await peer({ silent: true });
    await t.req("PUT", `/api/v1/servers/${s.id}/rcon`, { user: owner, body: { host: "127.0.0.1", port: silent.port, password: "rcon-pass" } });
    expect((await t.req("POST", `/api/v1/servers/${s.id}/rcon/test`, { user: owner })).body).toEqual({ ok: false, error: `no RCON answer from 127.0.0.1:${silent.port} within 5 s` });
    expect((await t.req("DELETE", `/api/v1/servers/${s.id}/rcon`, { user: owner })).status).toBe(204);
    expect((await t.req("GET", `/api/v1/servers/${s.id}`, { user: owner })).body.rcon).toBeNull();
    expect((await t.req("GET", `/api/v1/servers/${s.id}/players`, { user: owner })).status).toBe(409);
  }, 20_000);
});

describe("who is on, who was on", () => {
  test("the roster is kept; sessions open and close across polls; a player's names, sessions and time", async () => {
    const p = await peer({ rowsPerMessage: 1 });
    const s = await panelServer();
    await t.req("PUT", `/api/v1/servers/${s.id}/rcon`, { user: owner, body: { host: "127.0.0.1", port: p.port, password: "rcon-pass" } });
    await connected(s.id);
    const m = rconManager(t.deps);
    p.join({ uid: "a1b2c3d4-0000-4000-8000-000000000001", name: "Alice" });
    p.join({ uid: "a1b2c3d4-0000-4000-8000-000000000002", name: "Bob ; the builder" });
    await m.poll(s.id);
    let now = (await t.req("GET", `/api/v1/servers/${s.id}/players`, { user: owner })).body;
    expect(now.count).toBe(2);
    expect(now.stale).toBe(false);
    expect(now.players.map((x: any) => x.name)).toEqual(["Alice", "Bob ; the builder"]);

    clock.advance(600_000);
    p.roster = p.roster.filter((x) => x.name === "Alice");
    await m.poll(s.id);
    clock.advance(600_000);
    p.roster[0]!.name = "Alice2";
    await m.poll(s.id);
    now = (await t.req("GET", `/api/v1/servers/${s.id}/players`, { user: owner })).body;
    expect(now.players.map((x: any) => x.name)).toEqual(["Alice2"]);
    // The server page's status: RCON's fresh roster counts the players and says the server is up (its query address does not answer).
    expect((await t.req("GET", `/api/v1/servers/${s.id}/status`, { user: owner })).body).toMatchObject({
      reachable: true,
      players: 1,
      players_from: "rcon",
      note: "RCON answers; A2S does not: no answer on 127.0.0.1:9 within 1.5 s",
    });

    const sessions = (await t.req("GET", `/api/v1/servers/${s.id}/sessions`, { user: owner })).body;
    expect(sessions.map((x: any) => [x.name, x.left_at === null, x.seconds])).toEqual([
      ["Bob ; the builder", false, 600],
      ["Alice2", true, 1200],
    ].sort((a, b) => 0));
    const one = (await t.req("GET", `/api/v1/servers/${s.id}/players/a1b2c3d4-0000-4000-8000-000000000001`, { user: owner })).body;
    expect(one.names.map((n: any) => n.name)).toEqual(["Alice2", "Alice"]);
    expect(one.total_seconds).toBe(1200);
    expect((await t.req("GET", `/api/v1/servers/${s.id}/players/nobody`, { user: owner })).status).toBe(404);
    // Filtered by uid and time; bad times are 400.
    expect((await t.req("GET", `/api/v1/servers/${s.id}/sessions?uid=a1b2c3d4-0000-4000-8000-000000000002`, { user: owner })).body).toHaveLength(1);
    expect((await t.req("GET", `/api/v1/servers/${s.id}/sessions?from=yesterday`, { user: owner })).status).toBe(400);
    // Down for longer than two polls: stale (and the status no longer counts on it).
    clock.advance(20_000);
    expect((await t.req("GET", `/api/v1/servers/${s.id}/players`, { user: owner })).body.stale).toBe(true);
    expect((await t.req("GET", `/api/v1/servers/${s.id}/status`, { user: owner })).body).toMatchObject({ reachable: false, players: null, players_from: null });
  });
});

describe("seen at a glance", () => {
  test("/metrics: loadout_server_players{server_id, server} for own servers with RCON, only while the roster is fresh; promtool accepts it", async () => {
    const m = rconManager(t.deps);
    const withPlayers = async (name: string, n: number) => {
      const p = await peer();
      const s = await panelServer(SAMPLE_SERVER_JSON, { name });
      for (let i = 1; i <= n; i++) p.join({ uid: `c0c0c0c0-0000-4000-8000-00000000000${i}`, name: `P${i}` });
      await t.req("PUT", `/api/v1/servers/${s.id}/rcon`, { user: owner, body: { host: "127.0.0.1", port: p.port, password: "rcon-pass" } });
      await connected(s.id);
      await m.whenReady(s.id);
      return s.id;
    };
    const old = await withPlayers("Old roster", 1);
    clock.advance(11_000); // past two polls (LOADOUT_RCON_POLL_S=5): its roster is stale now
    const fresh = await withPlayers('EMS "night" ops', 2);
    const body = await (await t.app.handle(new Request("http://localhost/metrics"))).text();
    expect(body).toContain("# TYPE loadout_server_players gauge");
    expect(body).toContain(`loadout_server_players{server_id="${fresh}",server="EMS \\"night\\" ops"} 2`);
    expect(body).not.toContain(`server_id="${old}"`);
    const r = await promtoolCheck(body);
    expect(r.problems).toEqual([]);
    expect(promtoolAccepts(r)).toBe(true);
  }, 20_000);
});

describe("the deploy loop", () => {
  test("when_empty waits on RCON's count and says so; restart_via rcon restarts by #shutdown and verifies over A2S", async () => {
    const p = await peer();
    const a2s: A2sResponder = await startA2sResponder({ name: "EMS", map: "Everon", players: 0, maxPlayers: 64, version: "1.2.1", gamePort: 2001 });
    try {
      const list = await t.req("POST", "/api/v1/lists", { user: owner, body: { name: "RCON list", description: "", is_public: false } });
      const s = await panelServer(SAMPLE_SERVER_JSON, { query_address: `127.0.0.1:${a2s.port}`, linked_list_id: list.body.id, restart: "when_empty", verify_timeout_s: 60 });
      await t.req("PUT", `/api/v1/servers/${s.id}/rcon`, { user: owner, body: { host: "127.0.0.1", port: p.port, password: "rcon-pass" } });
      expect((await t.req("PUT", `/api/v1/servers/${s.id}`, { user: owner, body: { restart_via: "rcon" } })).status).toBe(200);
      await connected(s.id);
      // A2S says 0 but RCON knows one player is on: the deploy waits.
      p.join({ uid: "a1b2c3d4-0000-4000-8000-0000000000aa", name: "Carol" });
      const d = await t.req("POST", `/api/v1/servers/${s.id}/deploy`, { user: owner, body: {} });
      expect(d.status).toBe(200);
      const get = async () => (await t.req("GET", `/api/v1/servers/${s.id}/deployments`, { user: owner })).body[0];
      await t.deps.jobs.drain({ types: [DEPLOY_JOB] });
      expect(await get()).toMatchObject({ phase: "waiting_for_empty", verify_note: "1 player on (RCON)" });
      expect(panel.signals).toEqual([]);
      // Carol leaves: restarted by #shutdown (not the panel), the peer comes back, A2S answers: done.
      p.roster = [];
      const before = p.restarts;
      for (let i = 0; i < 300 && (await get()).status === "running"; i++) {
        await Bun.sleep(20);
        clock.advance(100); // each snooze (LOADOUT_DEPLOY_POLL_MS) runs out
        await t.deps.jobs.drain({ types: [DEPLOY_JOB] });
      }
      const done = await get();
      expect(done).toMatchObject({ status: "success", wait_ended: "empty" });
      expect(p.record.commands.some((c) => /^#?shutdown$/.test(c.text))).toBe(true);
      expect(panel.signals).toEqual([]);
      await until(() => p.restarts > before, "the peer back up", 5000);
    } finally {
      a2s.close();
    }
  }, 30_000);

  test("restart_via rcon needs RCON settings", async () => {
    const s = await panelServer();
    const r = await t.req("PUT", `/api/v1/servers/${s.id}`, { user: owner, body: { restart_via: "rcon" } });
    expect(r.status).toBe(400);
    expect(r.body.error).toStartWith("restart_via: rcon restarts through RCON's #shutdown");
  });
});

describe("lost and back", () => {
  test("down for two polls: server.rcon_lost for the owner (once); back: server.rcon_restored", async () => {
    const p = await peer({ downMs: 400 });
    const s = await panelServer();
    await t.req("PUT", `/api/v1/servers/${s.id}/rcon`, { user: owner, body: { host: "127.0.0.1", port: p.port, password: "rcon-pass" } });
    await connected(s.id);
    const m = rconManager(t.deps);
    const events = (kind: string) =>
      (t.deps.sqlite.query("SELECT data FROM event_outbox WHERE kind = ?").all(kind) as { data: string }[]).map((r) => JSON.parse(r.data)).filter((d) => d.server_id === s.id);
    p.shutdown(60_000);
    await m.poll(s.id); // the roster's command goes unanswered: one poll down
    expect(events("server.rcon_lost")).toHaveLength(0); // one poll is not yet lost
    await m.poll(s.id);
    await m.poll(s.id);
    expect(events("server.rcon_lost")).toEqual([expect.objectContaining({ server_name: "EMS main", notify: [owner.id] })]);
    // The dispatcher tells the owner (the notification text in words).
    await dispatchPending(t.deps);
    const inbox = (await t.req("GET", "/api/v1/notifications", { user: owner })).body as any[];
    expect(inbox.find((n) => n.event === "server.rcon_lost")?.title).toBe("RCON lost: EMS main");
    // Back: the session logs in again (its backoff), the next poll records server.rcon_restored once.
    const back = await peer({ downMs: 400 });
    expect(back.port).not.toBe(p.port);
    await t.req("PUT", `/api/v1/servers/${s.id}/rcon`, { user: owner, body: { host: "127.0.0.1", port: back.port, password: "rcon-pass" } });
    await connected(s.id);
    await m.poll(s.id);
    // A new connection (new settings) starts counting afresh: nothing was lost on it, nothing to restore.
    expect(events("server.rcon_restored")).toHaveLength(0);
  }, 30_000);

  test("the same connection lost and back: restored once; a deploy's own restart is not a loss", async () => {
    const p = await peer({ downMs: 300 });
    const s = await panelServer();
    await t.req("PUT", `/api/v1/servers/${s.id}/rcon`, { user: owner, body: { host: "127.0.0.1", port: p.port, password: "rcon-pass" } });
    await connected(s.id);
    const m = rconManager(t.deps);
    const count = (kind: string) =>
      (t.deps.sqlite.query("SELECT data FROM event_outbox WHERE kind = ?").all(kind) as { data: string }[]).filter((r) => JSON.parse(r.data).server_id === s.id).length;
    p.shutdown(300);
    await m.poll(s.id);
    await m.poll(s.id);
    expect(count("server.rcon_lost")).toBe(1);
    await until(() => !p.isDown, "the peer back", 3000);
    await connected(s.id);
    await m.poll(s.id);
    await m.poll(s.id);
    expect(count("server.rcon_restored")).toBe(1);
    // While a deploy of this server restarts it, a loss is its own doing: nothing recorded.
    t.deps.sqlite
      .query("INSERT INTO deployments (id, server_id, kind, status, phase, created_at) VALUES ('dep-restarting', ?, 'deploy', 'running', 'restarting', 0)")
      .run(s.id);
    p.shutdown(300);
    await m.poll(s.id);
    await m.poll(s.id);
    await m.poll(s.id);
    expect(count("server.rcon_lost")).toBe(1);
  }, 30_000);
});
