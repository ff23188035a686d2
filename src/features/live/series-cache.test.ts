// The stat series' answers kept in memory (series-cache.ts) are exactly what SQLite answers, for
// every series, range and clock time, and any write (a scan, a roll-up, raw SQL through this or
// another connection) is seen by the next read.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { createApp } from "../../app";
import { loadBmFixture, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { mulberry32 } from "../../../test/fixtures/prng";
import { BattleMetricsClient } from "./battlemetrics";
import { runScan } from "./scan";
import { runRollups } from "./rollup";
import { DAY, HOUR, THREE_HOURS } from "./repository";
import { seriesCacheStats, SERIES_CACHE_BYTES } from "./series-cache";
import {
  communityPlayersBody,
  communityPlayersRead,
  globalPlayersBody,
  globalPlayersRead,
  serverStatsBody,
  serverStatsRead,
} from "./service";

const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);
const DAYS = [1, 7, 14, 30, 90, 180, 365];
let t: TestApp;
let fake: FakeBattleMetrics;
let clock: TestClock;
let servers: { id: string; sid: number }[];
let communityId: string;

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const scan = () => runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} }) });

/** The cached answer and the one read from SQLite now, as text. */
function both(kind: "server" | "global" | "community", key: string, days: number) {
  const now = clock.now();
  if (kind === "server") return { got: text(serverStatsBody(t.deps, key, days)), want: JSON.stringify(serverStatsRead(t.deps, key, days, now).points) };
  if (kind === "global") return { got: text(globalPlayersBody(t.deps, days)), want: JSON.stringify(globalPlayersRead(t.deps, days, now).points) };
  return { got: text(communityPlayersBody(t.deps, key, days)), want: JSON.stringify(communityPlayersRead(t.deps, key, days, now).points) };
}

beforeAll(async () => {
  fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
  clock = new TestClock(T0);
  t = await createTestApp({ clock });
  await scan();
  servers = t.deps.sqlite.query("SELECT id, sid FROM game_servers ORDER BY sid").all() as { id: string; sid: number }[];
  const owner = await t.createUser();
  communityId = (await t.req("POST", "/api/v1/communities", { user: owner, body: { name: "Series" } })).body.id;
  expect((await t.req("POST", `/api/v1/game-servers/${servers[0]!.id}/community`, { user: owner, body: { community_id: communityId } })).status).toBe(204);
  // A year of 3-hour buckets, two weeks of hourly buckets and a day of raw points for every series.
  const db = t.deps.sqlite;
  const rnd = mulberry32(7);
  const p = () => Math.floor(rnd() * 60);
  db.transaction(() => {
    for (let b = Math.floor((T0 - 366 * DAY) / THREE_HOURS) * THREE_HOURS; b < T0 - 14 * DAY; b += THREE_HOURS) {
      for (const s of servers) db.query("INSERT OR REPLACE INTO game_server_stats_3h VALUES (?, ?, 36, ?, ?, ?, ?, ?)").run(s.sid, b, p() * 36, p(), p(), p(), p() * 36);
      db.query("INSERT OR REPLACE INTO live_global_stats_3h VALUES (?, 36, ?, ?, ?, ?, ?)").run(b, p() * 36, p(), p(), 144, 4);
      db.query("INSERT OR REPLACE INTO live_community_stats_3h VALUES (?, ?, 36, ?, ?, ?, ?, ?)").run(communityId, b, p() * 36, p(), p(), 36, 1);
    }
    for (let h = T0 - 14 * DAY; h < T0 - 2 * HOUR; h += HOUR) {
      for (const s of servers) db.query("INSERT OR REPLACE INTO game_server_stats_hourly VALUES (?, ?, 12, ?, ?, ?, ?, ?)").run(s.sid, h, p() * 12, p(), p(), p(), p() * 12);
      db.query("INSERT OR REPLACE INTO live_global_stats_hourly VALUES (?, 12, ?, ?, ?, ?, ?)").run(h, p() * 12, p(), p(), 48, 4);
      db.query("INSERT OR REPLACE INTO live_community_stats_hourly VALUES (?, ?, 12, ?, ?, ?, ?, ?)").run(communityId, h, p() * 12, p(), p(), 12, 1);
    }
    for (let r = T0 - 26 * HOUR; r <= T0; r += 5 * 60_000) {
      for (const s of servers) db.query("INSERT OR REPLACE INTO game_server_stats_raw VALUES (?, ?, ?, ?, ?)").run(s.sid, r, p(), p(), p());
      db.query("INSERT OR REPLACE INTO live_global_stats_raw VALUES (?, ?, ?, 4)").run(r, p(), p());
      db.query("INSERT OR REPLACE INTO live_community_stats_raw VALUES (?, ?, ?, ?, 1)").run(communityId, r, p(), p());
    }
  })();
  // Watermarks as a roll-up two hours ago left them: the last two hours come from raw points.
  db.query("INSERT OR REPLACE INTO live_state (key, value) VALUES ('hourly_until', ?), ('3h_until', ?)").run(T0 - 2 * HOUR, Math.floor((T0 - 14 * DAY) / THREE_HOURS) * THREE_HOURS);
});
afterAll(async () => {
  fake.stop();
  await t.close();
});

describe("the series answers kept in memory", () => {
  test("equal SQLite's for random series, ranges and times, with writes, roll-ups and the clock moving between reads", () => {
    const rnd = mulberry32(42);
    const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
    const before = seriesCacheStats(t.deps.sqlite);
    let nonEmpty = 0;
    for (let i = 0; i < 1000; i++) {
      const x = rnd();
      if (x < 0.08) {
        // Time passes: within a 5-minute step, across raw points leaving the 24 h, across hours,
        // 3-hour blocks and days; now and then backwards; within two days of the data.
        clock.advance(pick([1, 1000, 60_000, 5 * 60_000, 17 * 60_000, HOUR, THREE_HOURS, DAY, -60_000, -HOUR]));
        if (clock.now() > T0 + 2 * DAY) clock.set(T0 + Math.floor(rnd() * DAY));
      } else if (x < 0.11) {
        // Raw SQL writes: a new raw point, a changed bucket, a deleted point.
        const s = pick(servers);
        const at = Math.floor(clock.now() / 60_000) * 60_000 - pick([0, 5, 60, 600, 1500]) * 60_000;
        const k = pick(["raw", "hourly", "3h", "global", "community", "delete"]);
        if (k === "raw") t.deps.sqlite.query("INSERT OR REPLACE INTO game_server_stats_raw VALUES (?, ?, ?, 0, 0)").run(s.sid, at, Math.floor(rnd() * 100));
        else if (k === "hourly") t.deps.sqlite.query("UPDATE game_server_stats_hourly SET players_max = players_max + 1 WHERE sid = ? AND time = (SELECT max(time) FROM game_server_stats_hourly WHERE sid = ?)").run(s.sid, s.sid);
        else if (k === "3h") t.deps.sqlite.query("UPDATE game_server_stats_3h SET players_sum = players_sum + 36 WHERE sid = ? AND time = (SELECT min(time) FROM game_server_stats_3h WHERE sid = ?)").run(s.sid, s.sid);
        else if (k === "global") t.deps.sqlite.query("INSERT OR REPLACE INTO live_global_stats_raw VALUES (?, ?, 0, 4)").run(at, Math.floor(rnd() * 100));
        else if (k === "community") t.deps.sqlite.query("INSERT OR REPLACE INTO live_community_stats_raw VALUES (?, ?, ?, 0, 1)").run(communityId, at, Math.floor(rnd() * 100));
        else t.deps.sqlite.query("DELETE FROM game_server_stats_raw WHERE sid = ? AND time = (SELECT max(time) FROM game_server_stats_raw WHERE sid = ?)").run(s.sid, s.sid);
      } else if (x < 0.12) {
        runRollups(t.deps);
      } else {
        const kind = pick(["server", "server", "global", "community"] as const);
        const key = kind === "server" ? pick(servers).id : communityId;
        const days = pick(DAYS);
        const { got, want } = both(kind, key, days);
        if (got !== want) expect({ i, kind, days, now: clock.now(), got: JSON.parse(got).length }).toEqual({ i, kind, days, now: clock.now(), got: JSON.parse(want).length });
        expect(got).toBe(want);
        if (want !== "[]") nonEmpty++;
      }
    }
    const after = seriesCacheStats(t.deps.sqlite);
    expect(nonEmpty).toBeGreaterThan(400);
    // The answers were kept and served (not read anew every time), within the byte budget.
    expect(after.hits - before.hits).toBeGreaterThan(150);
    expect(after.bytes).toBeGreaterThan(0);
    expect(after.bytes).toBeLessThanOrEqual(SERIES_CACHE_BYTES);
  }, 60_000);

  test("a scan, a roll-up and a write by another connection are seen by the next read", async () => {
    clock.set(T0 + 30 * 60_000);
    const s = servers[1]!;
    const day = () => serverStatsBody(t.deps, s.id, 1);
    const first = text(day());
    expect(text(day())).toBe(first); // kept
    // A scan five minutes later adds a raw point for every server it saw.
    clock.advance(5 * 60_000);
    await scan();
    const afterScan = text(day());
    expect(afterScan).toBe(JSON.stringify(serverStatsRead(t.deps, s.id, 1, clock.now()).points));
    expect(afterScan).not.toBe(first);
    // A roll-up moves the watermarks and buckets: the 14-day series is read again.
    const hourly = text(serverStatsBody(t.deps, s.id, 14));
    clock.advance(2 * HOUR);
    runRollups(t.deps);
    expect(text(serverStatsBody(t.deps, s.id, 14))).toBe(JSON.stringify(serverStatsRead(t.deps, s.id, 14, clock.now()).points));
    expect(text(serverStatsBody(t.deps, s.id, 14))).not.toBe(hourly);
    // Another connection (another process) writes a point: its triggers move series_gen.
    const global = text(globalPlayersBody(t.deps, 1));
    const other = new Database(join(t.deps.config.LOADOUT_DATA_DIR, "loadout.db"));
    other.query("INSERT OR REPLACE INTO live_global_stats_raw VALUES (?, 12345, 0, 4)").run(clock.now() - 60_000);
    other.close();
    // Seen from the next turn of the event loop on (the requests of one turn share one read of the
    // counters: src/db/statements.ts generation); this turn still answers what it read.
    expect(text(globalPlayersBody(t.deps, 1))).toBe(global);
    await new Promise<void>((resolve) => setImmediate(resolve));
    const seen = text(globalPlayersBody(t.deps, 1));
    expect(seen).not.toBe(global);
    expect(seen).toContain('"total_players_max":12345');
    expect(seen).toBe(JSON.stringify(globalPlayersRead(t.deps, 1, clock.now()).points));
    // Through the route as a client sees it.
    expect((await t.req("GET", "/api/v1/stats/global-players?days=1")).body).toEqual(JSON.parse(seen));
  });

  test("with the roll-ups a day late, raw points leaving the 24 h as time passes leave the kept answers too", () => {
    // Raw points every 5 minutes for the last 26 hours; the hourly watermark 25 hours back.
    const now = T0 + 5 * DAY;
    clock.set(now);
    const db = t.deps.sqlite;
    const s = servers[2]!;
    for (let r = now - 26 * HOUR; r <= now; r += 5 * 60_000) {
      db.query("INSERT OR REPLACE INTO game_server_stats_raw VALUES (?, ?, ?, 0, 0)").run(s.sid, r, Math.floor(r / 60_000) % 97);
      db.query("INSERT OR REPLACE INTO live_global_stats_raw VALUES (?, ?, 0, 4)").run(r, Math.floor(r / 60_000) % 89);
    }
    db.query("INSERT OR REPLACE INTO live_state (key, value) VALUES ('hourly_until', ?), ('3h_until', ?)").run(now - 25 * HOUR, now - 27 * HOUR);
    for (const days of DAYS) {
      const seen = new Set<string>();
      for (let step = 0; step < 14; step++) {
        const a = both("server", s.id, days);
        expect({ days, step, got: a.got }).toEqual({ days, step, got: a.want });
        const g = both("global", "", days);
        expect({ days, step, got: g.got }).toEqual({ days, step, got: g.want });
        seen.add(a.got);
        clock.advance(2 * 60_000 + 30_000);
      }
      expect(seen.size).toBeGreaterThan(1); // the answers did change as the cut moved
      clock.set(now);
    }
  }, 30_000);

  test("production (no response validation) sends the same bodies, as JSON or metrics text, as the test app", async () => {
    clock.set(T0 + 30 * 60_000);
    await scan();
    const prod = createApp({ ...t.deps, config: { ...t.deps.config, LOADOUT_RESPONSE_VALIDATION: "off" } });
    const slug = (t.deps.sqlite.query("SELECT slug FROM communities WHERE id = ?").get(communityId) as { slug: string }).slug;
    const s = servers[0]!.id;
    const paths = [
      "/api/v1/game-servers",
      "/api/v1/game-servers?search=conflict&sort_by=name_asc&limit=3",
      `/api/v1/game-servers/${s}`,
      `/api/v1/game-servers/${s}/stats?days=1`,
      `/api/v1/game-servers/${s}/stats?days=365`,
      "/api/v1/stats/global-players?days=14",
      `/api/v1/stats/community-players/${communityId}`,
      `/servers/${s}/metrics`,
      `/community/${slug}/metrics`,
      "/api/v1/game-servers/00000000-0000-7000-8000-000000000000/stats",
    ];
    for (const path of paths) {
      const want = await t.req("GET", path);
      const res = await prod.handle(new Request(`http://localhost${path}`));
      const got = { path, status: res.status, type: res.headers.get("content-type"), text: await res.text() };
      expect(got).toEqual({ path, status: want.status, type: want.headers.get("content-type"), text: want.text });
    }
  });

  test("production sends a miss and the hits after it as the same text, and the budget counts its bytes", async () => {
    clock.set(T0 + 45 * 60_000);
    await scan(); // a new database state: nothing kept
    const prod = createApp({ ...t.deps, config: { ...t.deps.config, LOADOUT_RESPONSE_VALIDATION: "off" } });
    const s = servers[3]!.id;
    let textBytes = 0;
    for (const path of [`/api/v1/game-servers/${s}/stats?days=365`, `/api/v1/game-servers/${s}/stats?days=1`, "/api/v1/stats/global-players?days=30", `/api/v1/stats/community-players/${communityId}?days=90`]) {
      const now = clock.now();
      const days = Number(new URL(path, "http://x").searchParams.get("days"));
      const want = path.includes("/game-servers/")
        ? JSON.stringify(serverStatsRead(t.deps, s, days, now).points)
        : path.includes("global")
          ? JSON.stringify(globalPlayersRead(t.deps, days, now).points)
          : JSON.stringify(communityPlayersRead(t.deps, communityId, days, now).points);
      textBytes += want.length; // ASCII
      const misses = seriesCacheStats(t.deps.sqlite).misses;
      for (let i = 0; i < 3; i++) {
        const res = await prod.handle(new Request(`http://localhost${path}`));
        const bytes = new Uint8Array(await res.arrayBuffer());
        expect({ path, i, type: res.headers.get("content-type"), text: text(bytes) }).toEqual({ path, i, type: "application/json;charset=utf-8", text: want });
        if (res.headers.has("content-length")) expect(Number(res.headers.get("content-length"))).toBe(bytes.byteLength);
      }
      expect(seriesCacheStats(t.deps.sqlite).misses).toBe(misses + 1); // one read, then two answers from memory
    }
    // The kept answers count their bytes (ASCII: as many as their text has characters).
    const kept = seriesCacheStats(t.deps.sqlite);
    expect({ answers: kept.answers, bytes: kept.bytes }).toEqual({ answers: 4, bytes: textBytes });
  });

  test("an unknown server or community is 404 and nothing is kept for it", async () => {
    const n = seriesCacheStats(t.deps.sqlite).answers;
    expect((await t.req("GET", "/api/v1/game-servers/00000000-0000-7000-8000-000000000000/stats?days=1")).status).toBe(404);
    expect((await t.req("GET", `/api/v1/stats/community-players/${crypto.randomUUID()}`)).status).toBe(404);
    expect(seriesCacheStats(t.deps.sqlite).answers).toBe(n);
  });
});
