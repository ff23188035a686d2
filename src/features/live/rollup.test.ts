import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { loadBmFixture, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { BattleMetricsClient } from "./battlemetrics";
import { runScan } from "./scan";
import { runRollups } from "./rollup";
import { DAY, HOUR, THREE_HOURS } from "./repository";

const T0 = Date.UTC(2026, 10, 22, 10, 0, 0); // 10:00 UTC, a 3-hour boundary is 09:00
let t: TestApp;
let fake: FakeBattleMetrics;
let clock: TestClock;
let sid: number;
let serverId: string;

const one = (sql: string, ...args: any[]) => t.deps.sqlite.query(sql).get(...args) as any;
const all = (sql: string, ...args: any[]) => t.deps.sqlite.query(sql).all(...args) as any[];
const rawPoint = (time: number, players: number) =>
  t.deps.sqlite.query(`INSERT OR REPLACE INTO game_server_stats_raw (sid, time, players, queue, wait) VALUES (?, ?, ?, 0, 0)`).run(sid, time, players);

beforeEach(async () => {
  fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
  clock = new TestClock(T0);
  t = await createTestApp({ clock });
  await runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} }) });
  const alpha = one(`SELECT id, sid FROM game_servers WHERE host_address = '203.0.113.10:2001'`);
  sid = alpha.sid;
  serverId = alpha.id;
  // Twelve 5-minute points in the 10:00 hour (players 0, 10, ..., 110) replace the scan's point.
  for (let i = 0; i < 12; i++) rawPoint(T0 + i * 5 * 60_000, i * 10);
  rawPoint(T0 + HOUR - 1, 200); // last millisecond of the 10:00 hour
  rawPoint(T0 + HOUR, 7); // first millisecond of the 11:00 hour
});
afterEach(async () => {
  fake.stop();
  await t.close();
});

describe("roll-ups", () => {
  test("hour boundaries: a complete hour is rolled, the current one is not", () => {
    clock.set(T0 + HOUR + 10 * 60_000); // 11:10
    const r = runRollups(t.deps);
    expect(r.hours_rolled).toBeGreaterThanOrEqual(1);
    const hours = all(`SELECT time, n, players_sum, players_max FROM game_server_stats_hourly WHERE sid = ? ORDER BY time`, sid);
    expect(hours).toEqual([{ time: T0, n: 13, players_sum: 660 + 200, players_max: 200 }]);
    // The global series was rolled too (one scan point at 10:00).
    expect(one(`SELECT n, players_sum, servers_sum FROM live_global_stats_hourly WHERE time = ?`, T0)).toEqual({
      n: 1,
      players_sum: 119,
      servers_sum: 4,
    });
    // Idempotent: a second run gives the same bucket.
    runRollups(t.deps);
    expect(all(`SELECT time, n, players_sum FROM game_server_stats_hourly WHERE sid = ?`, sid)).toEqual([
      { time: T0, n: 13, players_sum: 860 },
    ]);
  });

  test("3-hour blocks are rolled from hourly buckets once complete, with exact averages", () => {
    // Another hour of data at 11:00 (players 7 from setup + 11 more of 20).
    for (let i = 1; i < 12; i++) rawPoint(T0 + HOUR + i * 5 * 60_000, 20);
    clock.set(T0 + HOUR + 10 * 60_000); // 11:10: hour 10 complete; block 09:00-12:00 not yet
    runRollups(t.deps);
    expect(all(`SELECT time FROM game_server_stats_3h WHERE sid = ?`, sid)).toEqual([]);
    clock.set(T0 + 2 * HOUR + 60_000); // 12:01: block 09:00-12:00 is complete
    runRollups(t.deps);
    const blocks = all(`SELECT time, n, players_sum, players_max FROM game_server_stats_3h WHERE sid = ?`, sid);
    expect(blocks).toEqual([{ time: T0 - HOUR, n: 25, players_sum: 860 + 7 + 220, players_max: 200 }]);
    expect(T0 - HOUR).toBe(Math.floor(T0 / THREE_HOURS) * THREE_HOURS);
  });

  test("retention: raw 24 h, hourly 14 days, 3-hour 365 days, boundary rows kept", () => {
    clock.set(T0 + HOUR + 60_000);
    runRollups(t.deps);
    const put = (table: string, time: number) =>
      t.deps.sqlite
        .query(`INSERT OR REPLACE INTO ${table} (sid, time, n, players_sum, players_max, queue_sum, queue_max, wait_sum) VALUES (?, ?, 1, 5, 5, 0, 0, 0)`)
        .run(sid, time);
    const now = T0 + DAY; // the 10:00 point is exactly 24 h old
    put("game_server_stats_hourly", now - 14 * DAY);
    put("game_server_stats_hourly", now - 14 * DAY - 1);
    put("game_server_stats_3h", now - 365 * DAY);
    put("game_server_stats_3h", now - 365 * DAY - 1);
    clock.set(now);
    runRollups(t.deps);
    const raw = all(`SELECT time FROM game_server_stats_raw WHERE sid = ? ORDER BY time`, sid).map((r) => r.time);
    expect(raw[0]).toBe(T0); // exactly 24 h old: kept
    expect(all(`SELECT time FROM game_server_stats_hourly WHERE sid = ? AND time < ?`, sid, T0 - DAY).map((r) => r.time)).toEqual([
      now - 14 * DAY,
    ]);
    expect(all(`SELECT time FROM game_server_stats_3h WHERE sid = ? AND time < ?`, sid, T0 - 300 * DAY).map((r) => r.time)).toEqual([
      now - 365 * DAY,
    ]);
    clock.set(now + 1);
    runRollups(t.deps);
    expect(one(`SELECT min(time) AS t FROM game_server_stats_raw WHERE sid = ?`, sid).t).toBe(T0 + 5 * 60_000);
    // The hourly bucket of 10:00 survives the raw points it came from.
    expect(one(`SELECT n FROM game_server_stats_hourly WHERE sid = ? AND time = ?`, sid, T0).n).toBe(13);
  });

  test("the 7-day average behind popularity and top-servers is recomputed exactly", async () => {
    clock.set(T0 + HOUR + 60_000);
    runRollups(t.deps);
    const r = one(`SELECT players_sum_7d, samples_7d, avg_players_7d FROM game_servers WHERE id = ?`, serverId);
    // hourly 10:00 (13 points, 860) + raw after the watermark (the 11:00 point, 7).
    expect(r).toEqual({ players_sum_7d: 867, samples_7d: 14, avg_players_7d: 867 / 14 });
    const top = await t.req("GET", "/api/v1/stats/top-servers");
    expect(top.status).toBe(200);
    expect(top.body[0]).toEqual({ id: serverId, name: "Alpha Company | Conflict Everon", avg_players: Math.round((867 / 14) * 100) / 100 });
    expect(top.body.length).toBe(4);
  });
});

test("moving the 7-day window subtracts the hours that left it, matching an exact recompute", () => {
  const old = T0 - 7 * DAY + 2 * HOUR; // 12:00 seven days ago
  t.deps.sqlite
    .query(`INSERT INTO game_server_stats_hourly (sid, time, n, players_sum, players_max, queue_sum, queue_max, wait_sum) VALUES (?, ?, 10, 1000, 100, 0, 0, 0)`)
    .run(sid, old);
  clock.set(T0 + HOUR + 60_000); // 11:01: window [11:00 seven days ago, 11:00) + raw from 11:00
  expect(runRollups(t.deps).averages).toBe("recomputed");
  expect(one(`SELECT players_sum_7d AS s, samples_7d AS n FROM game_servers WHERE id = ?`, serverId)).toEqual({ s: 1867, n: 24 });
  clock.set(T0 + 5 * HOUR + 60_000); // 15:01 the same day: the 12:00 bucket of seven days ago left
  expect(runRollups(t.deps).averages).toBe("advanced");
  const r = one(`SELECT players_sum_7d AS s, samples_7d AS n, avg_players_7d AS a FROM game_servers WHERE id = ?`, serverId);
  expect(r).toEqual({ s: 867, n: 14, a: 867 / 14 });
});

describe("stats resolution", () => {
  const stats = (days?: number) => t.req("GET", `/api/v1/game-servers/${serverId}/stats${days ? `?days=${days}` : ""}`);

  test("days=1 gives raw points, 7 and 14 hourly buckets, 30 and more 3-hour buckets", async () => {
    clock.set(T0 + HOUR + 10 * 60_000); // 11:10
    runRollups(t.deps);
    const d1 = await stats(1);
    expect(d1.status).toBe(200);
    expect(d1.body.length).toBe(14);
    expect(d1.body[0]).toEqual({ time: new Date(T0).toISOString(), player_count: 0, queue_players_count: 0, wait_time_estimation: 0, player_count_max: 0 });

    for (const days of [7, 14]) {
      const r = await stats(days);
      // 10:00 from the hourly table, 11:00 aggregated on the fly from raw points.
      expect(r.body).toEqual([
        { time: new Date(T0).toISOString(), player_count: Math.round(860 / 13), queue_players_count: 0, wait_time_estimation: 0, player_count_max: 200 },
        { time: new Date(T0 + HOUR).toISOString(), player_count: 7, queue_players_count: 0, wait_time_estimation: 0, player_count_max: 7 },
      ]);
    }
    const def = await stats();
    expect(def.body.length).toBe(2);

    for (const days of [30, 90, 180, 365]) {
      const r = await stats(days);
      // Block 09:00 combines the hourly bucket (10:00) and the raw 11:00 point.
      expect(r.body).toEqual([
        { time: new Date(T0 - HOUR).toISOString(), player_count: Math.round(867 / 14), queue_players_count: 0, wait_time_estimation: 0, player_count_max: 200 },
      ]);
    }
  });

  test("raw points older than 24 h are never read, even before retention ran", async () => {
    rawPoint(T0 - 25 * HOUR, 999);
    const r7 = await stats(7);
    expect(r7.body.some((p: any) => p.player_count_max === 999)).toBe(false);
    const r1 = await stats(1);
    expect(r1.body.some((p: any) => p.player_count_max === 999)).toBe(false);
  });

  test("old history comes from 3-hour buckets", async () => {
    const old = Math.floor((T0 - 200 * DAY) / THREE_HOURS) * THREE_HOURS;
    t.deps.sqlite
      .query(`INSERT INTO game_server_stats_3h (sid, time, n, players_sum, players_max, queue_sum, queue_max, wait_sum) VALUES (?, ?, 36, 360, 30, 0, 0, 0)`)
      .run(sid, old);
    clock.set(T0 + HOUR + 60_000);
    runRollups(t.deps);
    const r365 = await stats(365);
    expect(r365.body[0]).toMatchObject({ time: new Date(old).toISOString(), player_count: 10, player_count_max: 30 });
    const r180 = await stats(180);
    expect(r180.body.some((p: any) => p.time === new Date(old).toISOString())).toBe(false);
    const range = await t.req("GET", `/api/v1/game-servers/${serverId}/stats/range`);
    expect(range.body).toEqual({ oldest: new Date(old).toISOString() });
  });

  test("days outside the allowed set is 400; unknown server is 404", async () => {
    const bad = await stats(5);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("days");
    expect((await t.req("GET", `/api/v1/game-servers/${serverId}/stats?days=abc`)).status).toBe(400);
    expect((await t.req("GET", `/api/v1/game-servers/00000000-0000-7000-8000-000000000000/stats`)).status).toBe(404);
    expect((await t.req("GET", `/api/v1/game-servers/00000000-0000-7000-8000-000000000000/stats/range`)).status).toBe(404);
  });

  test("global players: series and range", async () => {
    const empty = await t.req("GET", "/api/v1/stats/global-players/range");
    expect(empty.body).toEqual({ oldest: new Date(T0).toISOString() });
    const d1 = await t.req("GET", "/api/v1/stats/global-players?days=1");
    expect(d1.body).toEqual([{ time: new Date(T0).toISOString(), total_players: 119, total_servers_online: 4, total_players_max: 119 }]);
    clock.set(T0 + HOUR + 60_000);
    runRollups(t.deps);
    const d7 = await t.req("GET", "/api/v1/stats/global-players");
    expect(d7.body).toEqual([{ time: new Date(T0).toISOString(), total_players: 119, total_servers_online: 4, total_players_max: 119 }]);
    const d30 = await t.req("GET", "/api/v1/stats/global-players?days=30");
    expect(d30.body).toEqual([{ time: new Date(T0 - HOUR).toISOString(), total_players: 119, total_servers_online: 4, total_players_max: 119 }]);
  });
});
