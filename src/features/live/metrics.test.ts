// A community's metrics kept in memory (metrics.ts communityMetrics) are what the database says
// now, for every clock time (servers leaving the online window at their exact millisecond, the clock
// moving back) and after any write: through this connection at once, through another from the
// next turn of the event loop.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { loadBmFixture, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { BattleMetricsClient } from "./battlemetrics";
import { runScan } from "./scan";
import { communityMetricsCacheStats } from "./metrics";
import { ONLINE_WINDOW } from "./entry";

const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);
const MIN = 60_000;
let t: TestApp;
let fake: FakeBattleMetrics;
let clock: TestClock;
let cid: string;
let slug: string;
let sids: number[];

/** The gauges a client reads, from the text served. */
async function served() {
  const r = await t.req("GET", `/community/${slug}/metrics`);
  expect(r.status).toBe(200);
  const v = (name: string) => Number(new RegExp(`^${name}\\{community_id="${cid}"\\} (\\d+)$`, "m").exec(r.text)?.[1]);
  const name = /^loadout_community_info\{.*,name="([^"]*)"\} 1$/m.exec(r.text)?.[1];
  return {
    name,
    total: v("loadout_community_servers_total"),
    online: v("loadout_community_servers_online"),
    players: v("loadout_community_players_total"),
    queue: v("loadout_community_queue_total"),
    lists: v("loadout_community_public_lists_total"),
  };
}

/** The same from SQLite now, counted here. */
function truth() {
  const db = t.deps.sqlite;
  const rows = db.query("SELECT last_seen_at, player_count, queue_players_count FROM game_servers WHERE community_id = ?").all(cid) as {
    last_seen_at: number | null;
    player_count: number;
    queue_players_count: number;
  }[];
  const on = rows.filter((r) => r.last_seen_at !== null && r.last_seen_at >= clock.now() - ONLINE_WINDOW);
  return {
    name: (db.query("SELECT name FROM communities WHERE id = ?").get(cid) as { name: string }).name,
    total: rows.length,
    online: on.length,
    players: on.reduce((a, r) => a + r.player_count, 0),
    queue: on.reduce((a, r) => a + r.queue_players_count, 0),
    lists: (db.query("SELECT count(*) AS n FROM lists WHERE community_id = ? AND is_public = 1").get(cid) as { n: number }).n,
  };
}

beforeAll(async () => {
  fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
  clock = new TestClock(T0);
  t = await createTestApp({ clock });
  await runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} }) });
  const owner = await t.createUser();
  const c = await t.req("POST", "/api/v1/communities", { user: owner, body: { name: "Metrics Group" } });
  cid = c.body.id;
  slug = c.body.slug;
  const servers = t.deps.sqlite.query("SELECT id, sid FROM game_servers ORDER BY sid").all() as { id: string; sid: number }[];
  expect(servers.length).toBeGreaterThanOrEqual(3);
  for (const s of servers.slice(0, 3)) {
    expect((await t.req("POST", `/api/v1/game-servers/${s.id}/community`, { user: owner, body: { community_id: cid } })).status).toBe(204);
  }
  sids = servers.slice(0, 3).map((s) => s.sid);
});
afterAll(async () => {
  fake.stop();
  await t.close();
});

describe("a community's metrics kept in memory", () => {
  test("equal SQLite's at every clock time, each server leaving the online window at its exact millisecond, the clock moving back too", async () => {
    const db = t.deps.sqlite;
    // Seen 10, 35 and 50 minutes ago, with players and a queue.
    const seen = [T0 - 10 * MIN, T0 - 35 * MIN, T0 - 50 * MIN];
    sids.forEach((sid, i) => db.query("UPDATE game_servers SET last_seen_at = ?, player_count = ?, queue_players_count = ? WHERE sid = ?").run(seen[i]!, 10 + i, i, sid));
    clock.set(T0);
    expect(await served()).toEqual(truth());
    expect(truth().online).toBe(3);
    const before = communityMetricsCacheStats(db);
    expect(await served()).toEqual(truth()); // kept
    const after = communityMetricsCacheStats(db);
    expect({ hits: after.hits - before.hits, misses: after.misses - before.misses }).toEqual({ hits: 1, misses: 0 });
    // Each leaving moment, its millisecond before and after, minutes between, then back.
    const times: number[] = [];
    for (const s of seen) times.push(s + ONLINE_WINDOW - 1, s + ONLINE_WINDOW, s + ONLINE_WINDOW + 1);
    for (let m = 0; m <= 70; m += 7) times.push(T0 + m * MIN);
    times.sort((a, b) => a - b);
    const online: number[] = [];
    // Back across each leaving moment: from one past it to it (the server counts again).
    const back = seen.flatMap((s) => [s + ONLINE_WINDOW + 1, s + ONLINE_WINDOW]);
    for (const at of [...times, T0 + 20 * MIN, T0 - 5 * MIN, T0 + 49 * MIN + 59_999, T0 + 30 * MIN, ...back]) {
      clock.set(at);
      const want = truth();
      expect({ at, ...(await served()) }).toEqual({ at, ...want });
      online.push(want.online);
    }
    expect(new Set(online)).toEqual(new Set([0, 1, 2, 3])); // every count was crossed
    // Most of those lookups were answered from memory (the times inside one span).
    expect(communityMetricsCacheStats(db).hits - after.hits).toBeGreaterThan(5);
  });

  test("a write through this connection is seen by the next request, another connection's from the next turn", async () => {
    const db = t.deps.sqlite;
    clock.set(T0);
    sids.forEach((sid) => db.query("UPDATE game_servers SET last_seen_at = ? WHERE sid = ?").run(T0 - 5 * MIN, sid));
    const first = await served();
    expect(first).toEqual(truth());
    expect(await served()).toEqual(first);
    db.query("UPDATE game_servers SET player_count = player_count + 7 WHERE sid = ?").run(sids[0]!);
    const more = await served();
    expect(more.players).toBe(first.players + 7);
    expect(more).toEqual(truth());
    db.query("UPDATE communities SET name = 'Renamed Group' WHERE id = ?").run(cid);
    expect((await served()).name).toBe("Renamed Group");
    // A scan (this connection) moves what it saw.
    clock.advance(5 * MIN);
    await runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} }) });
    expect(await served()).toEqual(truth());
    // Another connection (the CLI while the service runs): its write moves the counters by trigger
    // (servers_gen here), read once a turn.
    db.query("UPDATE game_servers SET last_seen_at = ? WHERE sid = ?").run(clock.now(), sids[1]!); // online
    const kept = await served();
    const other = new Database(join(t.deps.config.LOADOUT_DATA_DIR, "loadout.db"));
    other.query("UPDATE game_servers SET queue_players_count = queue_players_count + 3 WHERE sid = ?").run(sids[1]!);
    other.close();
    await new Promise<void>((resolve) => setImmediate(resolve));
    const seen = await served();
    expect(seen).toEqual(truth());
    expect(seen.queue).toBe(kept.queue + 3);
  });

  test("an unknown slug is 404 and keeps nothing", async () => {
    const n = communityMetricsCacheStats(t.deps.sqlite).texts;
    expect((await t.req("GET", "/community/no-such-slug/metrics")).status).toBe(404);
    expect(communityMetricsCacheStats(t.deps.sqlite).texts).toBe(n);
  });
});
