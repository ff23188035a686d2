import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../../test/helpers";
import { loadBmFixture, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { BattleMetricsClient } from "./battlemetrics";
import { runScan } from "./scan";

let t: TestApp;
let fake: FakeBattleMetrics;

beforeEach(async () => {
  fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
  t = await createTestApp({ env: { LOADOUT_BATTLEMETRICS_URL: fake.url } });
});
afterEach(async () => {
  fake.stop();
  await t.close();
});

const client = () =>
  new BattleMetricsClient({ baseUrl: fake.url, pageSize: 2, minIntervalMs: 0, sleep: async () => {} });

const q = (sql: string, ...args: any[]) => t.deps.sqlite.query(sql).all(...args) as any[];
const one = (sql: string, ...args: any[]) => t.deps.sqlite.query(sql).get(...args) as any;

function serverByAddress(addr: string) {
  return one(`SELECT * FROM game_servers WHERE host_address = ?`, addr);
}
function modsOf(id: string) {
  return q(`SELECT workshop_id, name, version, position FROM game_server_mods WHERE server_id = ? ORDER BY position`, id);
}
function changesOf(sid: number) {
  return q(
    `SELECT action, workshop_id, mod_name, old_version, new_version FROM game_server_mod_changes WHERE server_sid = ? ORDER BY id`,
    sid,
  );
}

describe("live scan", () => {
  test("first scan: pages, new servers, mods, changelog, raw and global points, unknown mods queued", async () => {
    const res = await runScan(t.deps, { client: client() });
    expect(res).toMatchObject({ pages: 3, servers: 4, new_servers: 4, vanished: 0, skipped: 1 });

    const alpha = serverByAddress("203.0.113.10:2001");
    expect(alpha).toMatchObject({
      name: "Alpha Company | Conflict Everon",
      player_count: 64,
      player_count_limit: 128,
      online: 1,
      mods_count: 3,
      tags: ",battleye,crossplay,modded,pc,xbox,",
      first_seen_at: t.clock.now(),
      last_seen_at: t.clock.now(),
    });
    expect(alpha.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(modsOf(alpha.id).map((m) => [m.workshop_id, m.version, m.position])).toEqual([
      ["5965550F24A0C152", "1.2.0", 0],
      ["591AF5BDA9F7CE8B", "1.0.4", 1],
      ["5AAAC70D754245DD", "1.0.78", 2],
    ]);
    expect(changesOf(alpha.sid).map((c) => [c.action, c.workshop_id, c.new_version])).toEqual([
      ["added", "5965550F24A0C152", "1.2.0"],
      ["added", "591AF5BDA9F7CE8B", "1.0.4"],
      ["added", "5AAAC70D754245DD", "1.0.78"],
    ]);

    // Bare id strings: stored without a version.
    const bravo = serverByAddress("198.51.100.20:2302");
    expect(modsOf(bravo.id)).toEqual([
      { workshop_id: "5965550F24A0C152", name: "", version: null, position: 0 },
      { workshop_id: "60ED7C6D9A8C4B21", name: "", version: null, position: 1 },
    ]);

    expect(one(`SELECT count(*) AS n FROM game_server_stats_raw`).n).toBe(4);
    expect(one(`SELECT * FROM live_global_stats_raw`)).toEqual({ time: t.clock.now(), players: 64 + 12 + 3 + 40, queue: 0, servers: 4 });

    // Every distinct unknown mod is queued once for a detail scrape.
    const jobs = q(`SELECT payload FROM jobs WHERE type = 'scrape.detail'`).map((j) => JSON.parse(j.payload).workshop_id).sort();
    expect(jobs).toEqual(["591AF5BDA9F7CE8B", "5965550F24A0C152", "5AAAC70D754245DD", "60ED7C6D9A8C4B21"]);

    // The per-mod usage's top (top-mods): here every mod used, fewer than ten.
    expect(one(`SELECT server_count, player_count FROM live_mod_usage WHERE workshop_id = '5965550F24A0C152'`)).toEqual({
      server_count: 2,
      player_count: 76,
    });
  });

  test("a 429 and a 503 during paging are retried and the scan completes", async () => {
    fake.failNext({ status: 429, retryAfter: "0" }, { status: 503 });
    const res = await runScan(t.deps, { client: client() });
    expect(res.servers).toBe(4);
    expect(fake.requests.map((r) => r.status)).toEqual([429, 503, 200, 200, 200]);
  });

  test("a scan whose source fails for good records nothing", async () => {
    // Page 1 answers; page 2 fails on all six attempts.
    fake.failAfter(1, ...Array.from({ length: 6 }, () => ({ status: 503 })));
    const err = await runScan(t.deps, { client: client() }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String(err.message)).toContain("HTTP 503");
    expect(fake.requests.map((r) => r.status)).toEqual([200, 503, 503, 503, 503, 503, 503]);
    expect(one(`SELECT count(*) AS n FROM game_servers`).n).toBe(0);
    expect(one(`SELECT count(*) AS n FROM live_global_stats_raw`).n).toBe(0);
  });

  test("a links.next off the configured source ends the scan with a clear error; the token never leaves it", async () => {
    const owned = startFakeBattleMetrics({ servers: loadBmFixture("scan-1"), maxPageSize: 2, token: "bm-secret" });
    const elsewhere = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
    const app = await createTestApp({ env: { LOADOUT_BATTLEMETRICS_URL: owned.url, LOADOUT_BATTLEMETRICS_TOKEN: "bm-secret" } });
    try {
      owned.setNextOrigin(elsewhere.url);
      const admin = await app.createUser({ role: "admin" });
      const r = await app.req("POST", "/api/v1/jobs/game-servers", { user: admin });
      await app.deps.jobs.drain({ types: ["live.scan"] });
      const job = app.deps.jobs.get(r.body.job_id)!;
      const reason = `links.next leads to ${elsewhere.url}, off the configured source ${owned.url}; not followed (only ${owned.url} is asked, and its credentials go nowhere else)`;
      expect(job.error).toBe(`BattleMetrics scan failed: ${reason}`);
      expect(elsewhere.requests).toEqual([]);
      expect(owned.requests.map((x) => x.authorization)).toEqual(["Bearer bm-secret"]);
      // Half a scan records nothing; health names the reason.
      expect((app.deps.sqlite.query(`SELECT count(*) AS n FROM game_servers`).get() as { n: number }).n).toBe(0);
      const health = await app.req("GET", "/api/v1/health");
      expect(JSON.stringify(health.body)).toContain(reason);
    } finally {
      owned.stop();
      elsewhere.stop();
      await app.close();
    }
  });

  test("second scan: updated, vanished and new servers; mod changelog entries", async () => {
    await runScan(t.deps, { client: client() });
    const alpha = serverByAddress("203.0.113.10:2001");
    t.clock.advance(5 * 60_000);
    fake.setServers(loadBmFixture("scan-2"));
    const res = await runScan(t.deps, { client: client() });
    expect(res).toMatchObject({ servers: 4, new_servers: 1, vanished: 1 });

    // Same id (upsert by address), new state.
    const alpha2 = serverByAddress("203.0.113.10:2001");
    expect(alpha2.id).toBe(alpha.id);
    expect(alpha2.player_count).toBe(70);
    expect(alpha2.last_seen_at).toBe(t.clock.now());
    expect(alpha2.first_seen_at).toBe(t.clock.now() - 5 * 60_000);
    expect(modsOf(alpha.id).map((m) => [m.workshop_id, m.version, m.position])).toEqual([
      ["5AAAC70D754245DD", "1.0.80", 0],
      ["5965550F24A0C152", "1.2.0", 1],
      ["6198EC5F9B6D3E7A", "0.11.2", 2],
    ]);
    expect(changesOf(alpha.sid).slice(3)).toEqual([
      { action: "updated", workshop_id: "5AAAC70D754245DD", mod_name: "Server Admin Tools", old_version: "1.0.78", new_version: "1.0.80" },
      { action: "added", workshop_id: "6198EC5F9B6D3E7A", mod_name: "RHS - Status Quo", old_version: null, new_version: "0.11.2" },
      { action: "removed", workshop_id: "591AF5BDA9F7CE8B", mod_name: "Capture & Hold", old_version: "1.0.4", new_version: null },
    ]);

    // Bravo vanished: offline, no players, no new point, mods kept as last seen.
    const bravo = serverByAddress("198.51.100.20:2302");
    expect(bravo).toMatchObject({ online: 0, player_count: 0, last_seen_at: t.clock.now() - 5 * 60_000 });
    expect(one(`SELECT count(*) AS n FROM game_server_stats_raw WHERE sid = ?`, bravo.sid).n).toBe(1);
    expect(modsOf(bravo.id).length).toBe(2);

    const echo = serverByAddress("203.0.113.50:2005");
    expect(echo).toMatchObject({ online: 1, player_count: 22 });
    expect(one(`SELECT players, servers FROM live_global_stats_raw WHERE time = ?`, t.clock.now())).toEqual({
      players: 70 + 5 + 40 + 22,
      servers: 4,
    });
    // The 7-day average advances with every scan.
    expect(alpha2.samples_7d).toBe(2);
    expect(alpha2.avg_players_7d).toBe(67);

    // A third identical scan writes no changelog entry.
    t.clock.advance(5 * 60_000);
    const again = await runScan(t.deps, { client: client() });
    expect(again.mod_changes).toBe(0);
    expect(again.new_servers).toBe(0);
  });

  test("a list reported in another form (an id to normalise, a repeat) or in normal form is diffed only when it changed", async () => {
    const servers = loadBmFixture("scan-1");
    const mods = (s: (typeof servers)[number]) => ((s.attributes.details as any).reforger as { mods: unknown[] });
    const alpha = servers.find((s) => s.id === "1001")!;
    // Alpha reports its first mod in lower case and again at the end: normalised, the same list as before.
    const plain = mods(alpha).mods as { modId: string; name: string; version: string }[];
    mods(alpha).mods = [{ ...plain[0]!, modId: ` ${plain[0]!.modId.toLowerCase()}` }, ...plain.slice(1), plain[0]];
    fake.setServers(servers);
    await runScan(t.deps, { client: client() });
    const a = serverByAddress("203.0.113.10:2001");
    expect(modsOf(a.id).map((m) => m.workshop_id)).toEqual(plain.map((m) => m.modId));
    const changes = changesOf(a.sid).length;

    // The same reports again: nothing changed, whichever way each list was hashed.
    t.clock.advance(5 * 60_000);
    const again = await runScan(t.deps, { client: client() });
    expect(again.mod_changes).toBe(0);
    expect(changesOf(a.sid).length).toBe(changes);
    expect(serverByAddress("203.0.113.10:2001").mods_hash).toBe(a.mods_hash);

    // Alpha now reports its list in normal form, one version moved: one update, and the stored
    // hash is the normalised list's (the next identical scan skips it).
    t.clock.advance(5 * 60_000);
    mods(alpha).mods = plain.map((m, k) => (k === 1 ? { ...m, version: "9.9.9" } : m));
    fake.setServers(servers);
    const moved = await runScan(t.deps, { client: client() });
    expect(moved.mod_changes).toBe(1);
    expect(changesOf(a.sid).slice(changes)).toEqual([
      { action: "updated", workshop_id: plain[1]!.modId, mod_name: plain[1]!.name, old_version: plain[1]!.version, new_version: "9.9.9" },
    ]);
    t.clock.advance(5 * 60_000);
    expect((await runScan(t.deps, { client: client() })).mod_changes).toBe(0);
  });

  test("mod names and sizes come from the catalog when known", async () => {
    t.deps.sqlite
      .query(`INSERT INTO mods (workshop_id, name, version, size_bytes, state) VALUES ('60ED7C6D9A8C4B21', 'Catalog Name', '2.0.0', 5000, 'active')`)
      .run();
    await runScan(t.deps, { client: client() });
    const bravo = serverByAddress("198.51.100.20:2302");
    expect(bravo.mods_size_bytes).toBe(5000);
    expect(modsOf(bravo.id)[1].name).toBe("Catalog Name");
    const change = q(`SELECT size_bytes, mod_name FROM game_server_mod_changes WHERE server_sid = ? AND workshop_id = '60ED7C6D9A8C4B21'`, bravo.sid);
    expect(change).toEqual([{ size_bytes: 5000, mod_name: "Catalog Name" }]);
    const queued = q(`SELECT payload FROM jobs WHERE type = 'scrape.detail'`).map((j) => JSON.parse(j.payload).workshop_id);
    expect(queued).not.toContain("60ED7C6D9A8C4B21");
  });

  test("the admin trigger queues a scan job that the worker runs against the configured source", async () => {
    const admin = await t.createUser({ role: "admin" });
    const user = await t.createUser();
    expect((await t.req("POST", "/api/v1/jobs/game-servers", { user })).status).toBe(403);
    expect((await t.req("POST", "/api/v1/jobs/game-servers")).status).toBe(401);
    const r = await t.req("POST", "/api/v1/jobs/game-servers", { user: admin });
    expect(r.status).toBe(202);
    expect(typeof r.body.job_id).toBe("string");
    // Deduplicated while queued.
    const again = await t.req("POST", "/api/v1/jobs/game-servers", { user: admin });
    expect(again.body.job_id).toBe(r.body.job_id);
    await t.deps.jobs.drain({ types: ["live.scan"] });
    const job = t.deps.jobs.get(r.body.job_id)!;
    expect(job.status).toBe("succeeded");
    expect(one(`SELECT count(*) AS n FROM game_servers`).n).toBe(4);

    const roll = await t.req("POST", "/api/v1/jobs/rollups", { user: admin });
    expect(roll.status).toBe(202);
    await t.deps.jobs.drain({ types: ["live.rollup", "catalog.growth"] });
    expect(t.deps.jobs.get(roll.body.job_id)!.status).toBe("succeeded");
    const growth = t.deps.jobs.list({ type: "catalog.growth", limit: 5 });
    expect(growth.map((j) => j.status)).toEqual(["succeeded"]);
  });
});
