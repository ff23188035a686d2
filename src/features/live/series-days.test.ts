// A server's day rows (src/db/custom/a5_series_days.sql, series-days.ts) always equal what the
// bucket tables give after any write, and the JSON written from them is the text JSON.stringify
// gives of the points read from the bucket rows (serverStatsRead), at every range, clock time
// and edge: partial first and last days, days without buckets, buckets past the watermarks,
// midnight UTC, values the compact form cannot hold.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { mulberry32 } from "../../../test/fixtures/prng";
import { runRollups } from "./rollup";
import { DAY, HOUR, THREE_HOURS } from "./repository";
import { avg, bulkLoadSeries, PointsWriter, rebuildSeriesDays } from "./series-days";
import { serverStatsBody as bodyBytes, serverStatsRead, serverStatsText } from "./service";

const serverStatsBody = (...a: Parameters<typeof bodyBytes>) => new TextDecoder().decode(bodyBytes(...a));

const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);
const DAYS = [1, 7, 14, 30, 90, 180, 365];
let t: TestApp;
let clock: TestClock;
const servers: { id: string; sid: number }[] = [];

const dayRows = () => ({
  h3: t.deps.sqlite.query("SELECT sid, day, points FROM game_server_stats_3h_days ORDER BY sid, day").all(),
  h1: t.deps.sqlite.query("SELECT sid, day, points FROM game_server_stats_hourly_days ORDER BY sid, day").all(),
});

/** The day rows as the triggers left them, and as a rebuild from the buckets gives them. */
function triggersAndRebuild() {
  const kept = dayRows();
  t.deps.sqlite.transaction(() => rebuildSeriesDays(t.deps.sqlite))();
  return { kept, rebuilt: dayRows() };
}

function expectSame(id: string, sid: number, days: number, fast = true) {
  const now = clock.now();
  const want = JSON.stringify(serverStatsRead(t.deps, id, days, now).points);
  if (fast) expect(new TextDecoder().decode(serverStatsText(t.deps.sqlite, now, sid, days)?.body as Uint8Array)).toBe(want);
  expect(serverStatsBody(t.deps, id, days)).toBe(want);
  return want;
}

beforeAll(async () => {
  clock = new TestClock(T0);
  t = await createTestApp({ clock });
  const db = t.deps.sqlite;
  const ins = db.query(
    `INSERT INTO game_servers (id, sid, host_address, name, ip, port, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, '10.0.0.1', ?, ?, ?)`,
  );
  for (let i = 0; i < 4; i++) {
    const id = `00000000-0000-7000-8000-00000000000${i}`;
    ins.run(id, 100 + i, `10.0.0.1:${2000 + i}`, `Server ${i}`, 2000 + i, T0 - 400 * DAY, T0);
    servers.push({ id, sid: 100 + i });
  }
  // A year of 3-hour buckets with gaps (whole days and single buckets missing), two weeks of
  // hourly buckets, a day of raw points; queue and wait sometimes set, values past 1,023.
  const rnd = mulberry32(11);
  const v = (max: number) => Math.floor(rnd() * max);
  bulkLoadSeries(db, () => {
    for (const s of servers) {
      for (let b = Math.floor((T0 - 370 * DAY) / THREE_HOURS) * THREE_HOURS; b < T0 - 14 * DAY; b += THREE_HOURS) {
        if (rnd() < 0.05 || Math.floor(b / DAY) % 17 === s.sid % 17) continue;
        const n = 1 + v(36);
        const q = rnd() < 0.2 ? v(20) : 0;
        db.query("INSERT INTO game_server_stats_3h VALUES (?, ?, ?, ?, ?, ?, ?, ?)").run(s.sid, b, n, v(2000) * n, v(2100), q * n + v(n), q, rnd() < 0.1 ? v(900) * n : 0);
      }
      for (let h = T0 - 14 * DAY; h < T0 - 2 * HOUR; h += HOUR) {
        if (rnd() < 0.05) continue;
        const n = 1 + v(12);
        db.query("INSERT INTO game_server_stats_hourly VALUES (?, ?, ?, ?, ?, ?, ?, ?)").run(s.sid, h, n, v(90) * n + v(n), v(95), rnd() < 0.2 ? v(5) * n : 0, 0, rnd() < 0.1 ? v(300) * n : 0);
      }
      for (let r = T0 - 26 * HOUR; r <= T0; r += 5 * 60_000) db.query("INSERT INTO game_server_stats_raw VALUES (?, ?, ?, ?, ?)").run(s.sid, r, v(80), v(3), v(100));
    }
  });
  db.query("INSERT OR REPLACE INTO live_state (key, value) VALUES ('hourly_until', ?), ('3h_until', ?)").run(T0 - 2 * HOUR, Math.floor((T0 - 14 * DAY) / THREE_HOURS) * THREE_HOURS);
});
afterAll(() => t.close());

describe("a server's series day rows", () => {
  test("a bulk load builds what the triggers keep", () => {
    const { kept, rebuilt } = triggersAndRebuild();
    expect(kept.h3.length).toBeGreaterThan(4 * 330);
    expect(kept.h1.length).toBeGreaterThan(4 * 14);
    expect(kept).toEqual(rebuilt);
    // The triggers are back as migrated: a write after the load moves its day's row.
    const s = servers[0]!;
    const b = Math.floor((T0 - 100 * DAY) / DAY) * DAY + 6 * THREE_HOURS;
    t.deps.sqlite.query("INSERT OR REPLACE INTO game_server_stats_3h VALUES (?, ?, 1, 4242, 4300, 0, 0, 0)").run(s.sid, b);
    const row = t.deps.sqlite.query("SELECT points FROM game_server_stats_3h_days WHERE sid = ? AND day = ?").get(s.sid, Math.floor(b / DAY)) as { points: string };
    expect(row.points).toContain("g1,4242,0,0,4300");
  });

  test("stay equal to the buckets after inserts, replaces, updates (moving a bucket to another day or server), deletes and roll-ups", () => {
    const rnd = mulberry32(5);
    const db = t.deps.sqlite;
    const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
    for (let i = 0; i < 300; i++) {
      const s = pick(servers);
      const table = pick(["game_server_stats_3h", "game_server_stats_hourly"]);
      const step = table === "game_server_stats_3h" ? THREE_HOURS : HOUR;
      const at = Math.floor((T0 - rnd() * 360 * DAY) / step) * step;
      const k = rnd();
      if (k < 0.3) db.query(`INSERT OR REPLACE INTO ${table} VALUES (?, ?, 12, ?, 40, 0, 3, 0)`).run(s.sid, at, Math.floor(rnd() * 500));
      else if (k < 0.5) db.query(`UPDATE ${table} SET players_sum = players_sum + 7 WHERE sid = ? AND time = (SELECT max(time) FROM ${table} WHERE sid = ? AND time <= ?)`).run(s.sid, s.sid, at);
      else if (k < 0.6) {
        // Moved to another day (and maybe server), when that place is free.
        db.query(`UPDATE OR IGNORE ${table} SET time = time + ?, sid = ? WHERE sid = ? AND time = (SELECT min(time) FROM ${table} WHERE sid = ? AND time >= ?)`).run(
          pick([step, DAY, 3 * DAY]),
          pick(servers).sid,
          s.sid,
          s.sid,
          at,
        );
      } else if (k < 0.9) db.query(`DELETE FROM ${table} WHERE sid = ? AND time >= ? AND time < ?`).run(s.sid, at, at + pick([step, DAY, 2 * DAY]));
      else {
        clock.advance(pick([HOUR, THREE_HOURS, DAY]));
        runRollups(t.deps);
      }
    }
    const { kept, rebuilt } = triggersAndRebuild();
    expect(kept).toEqual(rebuilt);
  }, 30_000);

  test("the JSON written from them is the points' JSON for every range at midnight, around it and across the day", () => {
    clock.set(Math.floor(T0 / DAY) * DAY + 2 * DAY);
    runRollups(t.deps);
    let nonEmpty = 0;
    const midnight = Math.floor(clock.now() / DAY) * DAY;
    // Raw points for the 1-day range at every time below.
    for (const s of servers) for (let r = midnight - 26 * HOUR; r < midnight + DAY; r += 5 * 60_000) t.deps.sqlite.query("INSERT OR REPLACE INTO game_server_stats_raw VALUES (?, ?, ?, 1, 2)").run(s.sid, r, (r / 60_000) % 70);
    for (const at of [midnight, midnight - 1, midnight + 1, midnight + HOUR, midnight + THREE_HOURS - 1, midnight + THREE_HOURS, midnight + 13 * HOUR + 17 * 60_000, midnight + DAY - 1]) {
      clock.set(at);
      for (const s of servers) for (const days of DAYS) if (expectSame(s.id, s.sid, days) !== "[]") nonEmpty++;
    }
    expect(nonEmpty).toBe(8 * 4 * DAYS.length);
  }, 30_000);

  test("with the watermarks mid-day, buckets past them, and a day the 3-hour roll-up has not reached", () => {
    const db = t.deps.sqlite;
    const s = servers[2]!;
    const now = clock.now();
    // 3-hour watermark at 09:00 of a day 20 days back: that day is read up to it, the rest of the
    // range from hourly buckets and raw points.
    const w3 = Math.floor((now - 20 * DAY) / DAY) * DAY + 3 * THREE_HOURS;
    db.query("INSERT OR REPLACE INTO live_state (key, value) VALUES ('3h_until', ?)").run(w3);
    // Buckets after the watermark (a roll-up that ran and was rolled back, raw SQL) are not read.
    db.query("INSERT OR REPLACE INTO game_server_stats_3h VALUES (?, ?, 36, 3600, 120, 0, 0, 0)").run(s.sid, w3 + THREE_HOURS);
    for (const days of DAYS) expectSame(s.id, s.sid, days);
    // An hourly watermark mid-day too.
    db.query("INSERT OR REPLACE INTO live_state (key, value) VALUES ('hourly_until', ?)").run(Math.floor(now / HOUR) * HOUR - 5 * HOUR);
    for (const days of DAYS) expectSame(s.id, s.sid, days);
    runRollups(t.deps);
    for (const days of DAYS) expectSame(s.id, s.sid, days);
  });

  test("a bucket the compact form cannot hold (not an integer, off the step) is answered from the bucket rows, the same text", () => {
    const db = t.deps.sqlite;
    const [a, b] = [servers[1]!, servers[3]!];
    const now = clock.now();
    const day = Math.floor((now - 40 * DAY) / DAY) * DAY;
    db.query("INSERT OR REPLACE INTO game_server_stats_3h VALUES (?, ?, 36, 1000.5, 77.25, 0, 0, 0)").run(a.sid, day + THREE_HOURS);
    db.query("INSERT OR REPLACE INTO game_server_stats_3h VALUES (?, ?, 36, 900, 30, 0, 0, 0)").run(b.sid, day + THREE_HOURS + 60_000);
    for (const s of [a, b]) {
      expect(serverStatsText(db, now, s.sid, 90)).toBeNull();
      expect(serverStatsText(db, now, s.sid, 7)).not.toBeNull();
      for (const days of DAYS) expectSame(s.id, s.sid, days, false);
    }
    expect(serverStatsBody(t.deps, a.id, 90)).toContain('"player_count_max":77.25');
    // Put right, the day is written compactly again.
    db.query("DELETE FROM game_server_stats_3h WHERE sid IN (?, ?) AND time IN (?, ?)").run(a.sid, b.sid, day + THREE_HOURS, day + THREE_HOURS + 60_000);
    for (const s of [a, b]) {
      expect(serverStatsText(db, now, s.sid, 90)).not.toBeNull();
      for (const days of DAYS) expectSame(s.id, s.sid, days);
    }
  });

  test("a roll-up's new buckets are in the next read's answer", () => {
    const s = servers[0]!;
    clock.advance(3 * HOUR);
    const before = serverStatsBody(t.deps, s.id, 30);
    // New raw points for the last hours, then the roll-up makes hourly and 3-hour buckets of them.
    const db = t.deps.sqlite;
    for (let r = clock.now() - 4 * HOUR; r < clock.now(); r += 5 * 60_000) db.query("INSERT OR REPLACE INTO game_server_stats_raw VALUES (?, ?, 33, 0, 0)").run(s.sid, r);
    const afterWrite = serverStatsBody(t.deps, s.id, 30);
    expect(afterWrite).not.toBe(before);
    clock.advance(HOUR);
    runRollups(t.deps);
    const rolled = db.query("SELECT max(day) AS d FROM game_server_stats_3h_days WHERE sid = ?").get(s.sid) as { d: number };
    expect(rolled.d).toBe(Math.floor((clock.now() - THREE_HOURS) / DAY));
    expectSame(s.id, s.sid, 30);
    expect(serverStatsBody(t.deps, s.id, 30)).toContain('"player_count":33');
  });
});

describe("the points writer", () => {
  const pointOf = (t: number, n: number, ps: number, qs: number, xs: number, pm: number) => ({
    time: new Date(t).toISOString(),
    player_count: avg(ps, n),
    queue_players_count: avg(qs, n),
    wait_time_estimation: avg(xs, n),
    player_count_max: pm,
  });

  test("writes the bytes JSON.stringify gives of the points, for every kind of number, past its buffer, writers interleaved", () => {
    const rnd = mulberry32(29);
    const edge = [0, 1, 9, 10, 99, 1023, 1024, 65_535, -1, -10, -1024, 2 ** 31, 2 ** 53 - 1, -(2 ** 53) + 1, 2 ** 53, 1e21, 0.5, 77.25, -0.5, 1e-7, -0];
    const pick = () => (rnd() < 0.5 ? edge[Math.floor(rnd() * edge.length)]! : Math.floor(rnd() * 5000) - 100);
    for (const count of [0, 1, 2, 50, 4000]) {
      const rows: [number, number, number, number, number, number][] = [];
      for (let i = 0; i < count; i++) rows.push([T0 + i * HOUR, rnd() < 0.1 ? 0 : 1 + Math.floor(rnd() * 40), pick(), rnd() < 0.3 ? pick() : 0, rnd() < 0.3 ? pick() : 0, pick()]);
      const a = new PointsWriter();
      const b = new PointsWriter(); // constructed while `a` holds the shared buffer
      for (const r of rows) a.point(...r);
      for (const r of rows.slice().reverse()) b.point(...r);
      const want = (rs: typeof rows) => JSON.stringify(rs.map((r) => pointOf(...r)));
      expect(new TextDecoder().decode(a.body())).toBe(want(rows));
      expect(new TextDecoder().decode(b.body())).toBe(want(rows.slice().reverse()));
    }
  });

  test("a day text it cannot read leaves nothing of itself", () => {
    const w = new PointsWriter();
    w.point(T0, 1, 5, 0, 0, 5);
    const day = Math.floor(T0 / DAY);
    expect(w.days(`${day}a1,2,3,4,5b1,2,3,4,?`, THREE_HOURS, 0, Infinity)).toBe(false);
    expect(new TextDecoder().decode(w.body())).toBe(JSON.stringify([pointOf(T0, 1, 5, 0, 0, 5)]));
  });
});
