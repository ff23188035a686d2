// The live sources as they really are (docs/live.md): BattleMetrics refusing without a paid
// subscription, registered servers polled over A2S (a local UDP responder), the sources'
// outcome in /health, and the first run of a new install.
import { afterEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";
import { until } from "../../../test/until";
import { loadBmFixture, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { startA2sResponder, type A2sResponder } from "../../../test/fakes/a2s";
import { startFakeWorkshop, type FakeWorkshop } from "../../../test/fakes/workshop";
import { generateCatalog, smallCatalog } from "../../../test/fixtures/workshop/dataset";
import { A2sTimeoutError, queryInfo } from "../../protocols/a2s/a2s";
import { enqueueScan, SCAN_JOB } from "./jobs";
import { NO_TOKEN_MESSAGE } from "./scan";
import { queueDiscovery, queueFirstRun } from "../scraper/jobs";

let t: TestApp | undefined;
let bm: FakeBattleMetrics | undefined;
let workshop: FakeWorkshop | undefined;
const responders: A2sResponder[] = [];

afterEach(async () => {
  for (const r of responders.splice(0)) r.close();
  bm?.stop();
  bm = undefined;
  workshop?.stop();
  workshop = undefined;
  await t?.close();
  t = undefined;
});

const info = (name: string, players: number, gamePort: number | null = 2001) => ({ name, map: "Everon", players, maxPlayers: 64, version: "1.3.0.140", gamePort, keywords: "modded" });

async function responder(name: string, players: number, mode: "direct" | "challenge" | "silent" = "direct", gamePort: number | null = 2001) {
  const r = await startA2sResponder(info(name, players, gamePort), mode);
  responders.push(r);
  return r;
}

async function register(app: TestApp, owner: TestUser, name: string, port: number) {
  const r = await app.req("POST", "/api/v1/servers", {
    user: owner,
    body: { name, connection_type: "panel", file_path: "/server.json", query_address: `127.0.0.1:${port}` },
  });
  expect(r.status).toBe(200);
  expect(r.body.query_address).toBe(`127.0.0.1:${port}`);
  return r.body.id as string;
}

async function scan(app: TestApp) {
  const id = enqueueScan(app.deps);
  await app.deps.jobs.drain({ types: [SCAN_JOB] });
  return app.deps.jobs.get(id)!;
}

const liveRow = (app: TestApp, address: string) => app.deps.sqlite.query("SELECT * FROM game_servers WHERE host_address = ?").get(address) as any;
const health = async (app: TestApp) => (await app.req("GET", "/api/v1/health")).body;

describe("A2S_INFO client", () => {
  test("answers directly, answers after the challenge step, or times out", async () => {
    const direct = await responder("Direct Server", 12);
    const challenged = await responder("Challenged Server", 40, "challenge", null);
    const silent = await responder("Silent Server", 0, "silent");
    const a = await queryInfo("127.0.0.1", direct.port);
    expect(a).toMatchObject({ address: "127.0.0.1", name: "Direct Server", map: "Everon", players: 12, max_players: 64, version: "1.3.0.140", game_port: 2001, keywords: "modded" });
    const b = await queryInfo("127.0.0.1", challenged.port);
    expect(b).toMatchObject({ name: "Challenged Server", players: 40, game_port: null });
    expect(challenged.requests).toEqual([{ challenged: false }, { challenged: true }]);
    await expect(queryInfo("127.0.0.1", silent.port, { timeoutMs: 300 })).rejects.toBeInstanceOf(A2sTimeoutError);
  });
});

describe("registered servers polled over A2S every scan", () => {
  test("answers get history, stats and metrics like discovered servers; a silent one is offline; nothing else waits for it", async () => {
    bm = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
    t = await createTestApp({ env: { LOADOUT_BATTLEMETRICS_URL: bm.url, LOADOUT_ALLOW_PRIVATE_URLS: "true" } });
    const owner = await t.createUser();
    const one = await responder("Our Server One", 17, "direct", 2101);
    const two = await responder("Our Server Two", 33, "challenge", 2102);
    const three = await responder("Our Server Three", 5, "direct", 2103);
    await register(t, owner, "One", one.port);
    await register(t, owner, "Two", two.port);
    const threeId = await register(t, owner, "Three", three.port);

    const first = await scan(t);
    expect(first.status).toBe("succeeded");
    expect(first.result).toMatchObject({ servers: 7, a2s_answered: 3, a2s_failed: 0 });
    const row = liveRow(t, "127.0.0.1:2101");
    expect(row).toMatchObject({ source: "a2s", name: "Our Server One", player_count: 17, player_count_limit: 64, online: 1, scenario_name: "Everon" });
    expect(liveRow(t, "127.0.0.1:2102")).toMatchObject({ player_count: 33, online: 1 });
    // the same endpoints as discovered servers
    const detail = await t.req("GET", `/api/v1/game-servers/${row.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.server ?? detail.body).toMatchObject({ name: "Our Server One" });
    const metrics = await t.req("GET", `/servers/${row.id}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain("Our Server One");

    // Server three goes silent: the next scan marks it offline, the others are recorded.
    three.mode = "silent";
    one.info.players = 20;
    t.clock.advance(5 * 60_000);
    const second = await scan(t);
    expect(second.status).toBe("succeeded");
    expect(second.result).toMatchObject({ a2s_answered: 2, a2s_failed: 1 });
    expect(liveRow(t, "127.0.0.1:2103")).toMatchObject({ online: 0, player_count: 0, registered_server_id: threeId });
    expect(liveRow(t, "127.0.0.1:2101")).toMatchObject({ online: 1, player_count: 20 });
    const points = t.deps.sqlite.query("SELECT players FROM game_server_stats_raw WHERE sid = ? ORDER BY time").all(row.sid) as { players: number }[];
    expect(points.map((p) => p.players)).toEqual([17, 20]);
    const h = await health(t);
    expect(h.sources.a2s.last_ok_at).toBe(new Date(t.clock.now()).toISOString());
    expect(h.sources.a2s.last_error).toContain("Three: no A2S answer from 127.0.0.1");
  }, 20_000);

  test("a registered server that BattleMetrics also lists is one entry: linked by address, its mods kept", async () => {
    bm = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
    t = await createTestApp({ env: { LOADOUT_BATTLEMETRICS_URL: bm.url, LOADOUT_ALLOW_PRIVATE_URLS: "true" } });
    const owner = await t.createUser();
    await scan(t);
    const known = t.deps.sqlite.query("SELECT * FROM game_servers WHERE mods_count > 0 LIMIT 1").get() as any;
    // Our server answers A2S from the address BattleMetrics lists (the A2S reply names its game port).
    const r = await responder(known.name, known.player_count, "direct", known.port);
    t.deps.sqlite.query("UPDATE game_servers SET ip = '127.0.0.1', host_address = ? WHERE id = ?").run(`127.0.0.1:${known.port}`, known.id);
    const regId = await register(t, owner, "Ours", r.port);
    bm.requireSubscription(true); // BattleMetrics refuses: only A2S speaks this time
    t.clock.advance(5 * 60_000);
    await scan(t);
    const after = t.deps.sqlite.query("SELECT * FROM game_servers WHERE id = ?").get(known.id) as any;
    expect(after).toMatchObject({ registered_server_id: regId, online: 1, mods_count: known.mods_count, tags: known.tags, last_seen_at: t.clock.now() });
    expect((t.deps.sqlite.query("SELECT count(*) AS n FROM game_servers WHERE host_address = ?").get(`127.0.0.1:${known.port}`) as any).n).toBe(1);
  });
});

describe("BattleMetrics without a paid subscription", () => {
  test("403: one job error naming the status and LOADOUT_BATTLEMETRICS_TOKEN, no retries, nothing lost, health shows it", async () => {
    bm = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
    t = await createTestApp({ env: { LOADOUT_BATTLEMETRICS_URL: bm.url, LOADOUT_ALLOW_PRIVATE_URLS: "true" } });
    const owner = await t.createUser();
    const ours = await responder("Ours", 9, "direct", 2201);
    await register(t, owner, "Ours", ours.port);
    expect((await scan(t)).status).toBe("succeeded");
    const before = t.deps.sqlite.query("SELECT id, online, player_count FROM game_servers WHERE source = 'battlemetrics' ORDER BY id").all();
    const pointsBefore = (t.deps.sqlite.query("SELECT count(*) AS n FROM game_server_stats_raw").get() as any).n;
    expect((await health(t)).sources.live.last_ok_at).toBeString();

    bm.requireSubscription(true);
    t.clock.advance(5 * 60_000);
    const requestsBefore = bm.requests.length;
    const job = await scan(t);
    expect(job.status).toBe("failed");
    expect(job.attempts).toBe(1);
    expect(job.error).toBe(
      "BattleMetrics answered HTTP 403 (Access denied. A subscription is required to use the API.): global server discovery needs LOADOUT_BATTLEMETRICS_TOKEN set to a token with a paid subscription; servers and history already stored are kept, registered servers are still polled over A2S",
    );
    expect(bm.requests.length - requestsBefore).toBe(1); // a refusal is not retried
    // every discovered server and its history kept, still as the last complete scan saw them
    expect(t.deps.sqlite.query("SELECT id, online, player_count FROM game_servers WHERE source = 'battlemetrics' ORDER BY id").all()).toEqual(before);
    // the registered server's answer was still recorded
    expect((t.deps.sqlite.query("SELECT count(*) AS n FROM game_server_stats_raw").get() as any).n).toBe(pointsBefore + 1);
    expect(liveRow(t, "127.0.0.1:2201").last_seen_at).toBe(t.clock.now());
    const h = await health(t);
    expect(h.sources.live).toMatchObject({ last_error: job.error, last_error_at: new Date(t.clock.now()).toISOString() });
    expect(h.sources.live.last_ok_at).toBeString();
  });

  test("without a token the public API is not asked at all; health says why", async () => {
    const calls: string[] = [];
    const recording = (async (input: any, init?: any) => {
      calls.push(String(input));
      return fetch(input, init);
    }) as typeof fetch;
    t = await createTestApp({ fetch: recording });
    const job = await scan(t);
    expect(job.status).toBe("succeeded");
    expect(calls.filter((u) => u.includes("battlemetrics"))).toEqual([]);
    expect((await health(t)).sources.live.last_error).toBe(NO_TOKEN_MESSAGE);
  });
});

describe("the workshop's line in /health", () => {
  test("a crawl's success and a 403 are shown", async () => {
    workshop = startFakeWorkshop({ mods: smallCatalog() });
    t = await createTestApp({ env: { LOADOUT_WORKSHOP_URL: workshop.url, LOADOUT_WORKSHOP_RPS: "1000" } });
    expect((await health(t)).sources.workshop).toEqual({ last_ok_at: null, last_error: null, last_error_at: null, crawl: null });
    queueDiscovery(t.deps, "full");
    expect((await health(t)).sources.workshop.crawl).toEqual({ mode: "full", status: "queued", pages_done: null, pages_total: null, started_at: null });
    await t.deps.jobs.drain();
    expect((await health(t)).sources.workshop.crawl).toBeNull();
    expect((await health(t)).sources.workshop).toMatchObject({ last_ok_at: new Date(t.clock.now()).toISOString(), last_error: null });
    workshop.forbidden = true;
    t.clock.advance(60_000);
    queueDiscovery(t.deps, "incremental");
    await t.deps.jobs.drain();
    const w = (await health(t)).sources.workshop;
    expect(w.last_error).toContain("the workshop refused the request with HTTP 403");
    expect(w.last_ok_at).toBeString();
  });

  test("a crawl under way shows the pages read of about how many", async () => {
    workshop = startFakeWorkshop({ mods: generateCatalog({ count: 40, seed: 7 }) });
    const app = (t = await createTestApp({ env: { LOADOUT_WORKSHOP_URL: workshop.url, LOADOUT_WORKSHOP_RPS: "1000" } }));
    const release = workshop.holdListingPage(2);
    queueDiscovery(app.deps, "full");
    const running = app.deps.jobs.drain({ types: ["scrape.full"] });
    // The crawl holds at page 2: health shows page 1 read once the job has got that far.
    const crawl = await until("page 1 read", async () => {
      const c = (await health(app)).sources.workshop.crawl;
      return c?.pages_done === 1 && c;
    });
    expect(crawl).toMatchObject({ mode: "full", status: "running", pages_done: 1, pages_total: 3 });
    expect(crawl.started_at).toBeString();
    release();
    await running;
    expect((await health(t)).sources.workshop.crawl).toBeNull();
  });
});

describe("first run", () => {
  test("an empty catalog queues a full crawl and a live scan, logged once; a catalog with mods queues nothing", async () => {
    workshop = startFakeWorkshop({ mods: smallCatalog() });
    t = await createTestApp({ env: { LOADOUT_WORKSHOP_URL: workshop.url, LOADOUT_WORKSHOP_RPS: "1000" } });
    const app = t;
    const queued = queueFirstRun(app.deps, () => enqueueScan(app.deps));
    expect(queued).not.toBeNull();
    const jobs = (await app.req("GET", "/api/v1/jobs?status=queued", { user: await app.createUser({ role: "admin" }) })).body as any[];
    const list = Array.isArray(jobs) ? jobs : (jobs as any).jobs;
    expect(list.map((j: any) => j.type).sort()).toEqual(["live.scan", "scrape.full"]);
    const lines = app.log.lines.map((l) => JSON.parse(l)).filter((l) => l.msg.startsWith("first run"));
    expect(lines).toHaveLength(1);
    await app.deps.jobs.drain({ types: ["scrape.full", "scrape.detail_batch", "scrape.detail"] });
    expect(queueFirstRun(app.deps, () => enqueueScan(app.deps))).toBeNull();
  });
});
