// Roll-ups (hourly job): raw 5-minute points → hourly buckets → 3-hour buckets, for servers,
// the global total and communities; retention deletes; the exact 7-day player average behind
// `popularity` and top-servers; and mod-size sums refreshed from the catalog.
//
// Watermarks in live_state: `hourly_until` (every complete hour before it is rolled) and
// `3h_until`. Each run re-rolls the last rolled bucket too (INSERT OR REPLACE), so points that
// arrived late are counted; a run is idempotent. Readers combine buckets before the watermark
// with an on-the-fly aggregate of the newer data (never raw points older than 24 h).
import type { Database } from "bun:sqlite";
import type { Deps } from "../../deps";
import { DAY, HOUR, THREE_HOURS, liveRepo, stmt } from "./repository";
import { rebuildLiveSnapshot } from "./snapshot";

export const RAW_RETENTION = DAY;
export const HOURLY_RETENTION = 14 * DAY;
export const THREE_HOUR_RETENTION = 365 * DAY;
export const CHANGELOG_RETENTION = 365 * DAY;

const floorTo = (t: number, step: number) => Math.floor(t / step) * step;

export interface RollupResult {
  hours_rolled: number;
  blocks_rolled: number;
  averages?: "recomputed" | "advanced";
  deleted: { raw: number; hourly: number; three_hour: number; changelog: number };
}

function rollHour(sqlite: Database, h: number) {
  const p = { from: h, to: h + HOUR };
  stmt(
    sqlite,
    `INSERT OR REPLACE INTO game_server_stats_hourly (sid, time, n, players_sum, players_max, queue_sum, queue_max, wait_sum)
     SELECT sid, $from, count(*), sum(players), max(players), sum(queue), max(queue), sum(wait)
     FROM game_server_stats_raw WHERE time >= $from AND time < $to GROUP BY sid`,
  ).run(p);
  stmt(
    sqlite,
    `INSERT OR REPLACE INTO live_global_stats_hourly (time, n, players_sum, players_max, queue_sum, servers_sum, servers_max)
     SELECT $from, count(*), sum(players), max(players), sum(queue), sum(servers), max(servers)
     FROM live_global_stats_raw WHERE time >= $from AND time < $to HAVING count(*) > 0`,
  ).run(p);
  stmt(
    sqlite,
    `INSERT OR REPLACE INTO live_community_stats_hourly (community_id, time, n, players_sum, players_max, queue_sum, servers_sum, servers_max)
     SELECT community_id, $from, count(*), sum(players), max(players), sum(queue), sum(servers), max(servers)
     FROM live_community_stats_raw WHERE time >= $from AND time < $to GROUP BY community_id`,
  ).run(p);
}

function rollBlock(sqlite: Database, b: number) {
  const p = { from: b, to: b + THREE_HOURS };
  stmt(
    sqlite,
    `INSERT OR REPLACE INTO game_server_stats_3h (sid, time, n, players_sum, players_max, queue_sum, queue_max, wait_sum)
     SELECT sid, $from, sum(n), sum(players_sum), max(players_max), sum(queue_sum), max(queue_max), sum(wait_sum)
     FROM game_server_stats_hourly WHERE time >= $from AND time < $to GROUP BY sid`,
  ).run(p);
  stmt(
    sqlite,
    `INSERT OR REPLACE INTO live_global_stats_3h (time, n, players_sum, players_max, queue_sum, servers_sum, servers_max)
     SELECT $from, sum(n), sum(players_sum), max(players_max), sum(queue_sum), sum(servers_sum), max(servers_max)
     FROM live_global_stats_hourly WHERE time >= $from AND time < $to HAVING count(*) > 0`,
  ).run(p);
  stmt(
    sqlite,
    `INSERT OR REPLACE INTO live_community_stats_3h (community_id, time, n, players_sum, players_max, queue_sum, servers_sum, servers_max)
     SELECT community_id, $from, sum(n), sum(players_sum), max(players_max), sum(queue_sum), sum(servers_sum), max(servers_max)
     FROM live_community_stats_hourly WHERE time >= $from AND time < $to GROUP BY community_id`,
  ).run(p);
}

function oldest(sqlite: Database, table: string): number | null {
  const r = stmt(sqlite, `SELECT min(time) AS t FROM ${table}`).get() as { t: number | null };
  return r.t;
}

/** Exact 7-day sums: hourly buckets in [from, hw) plus raw points from hw on. */
function recomputeAverages(sqlite: Database, from: number, hw: number) {
  stmt(
    sqlite,
    `WITH tot AS (
       SELECT sid, sum(s) AS s, sum(n) AS n FROM (
         SELECT h.sid AS sid, h.players_sum AS s, h.n AS n FROM game_servers g
           JOIN game_server_stats_hourly h ON h.sid = g.sid AND h.time >= $from AND h.time < $hw
           WHERE g.last_seen_at >= $from
         UNION ALL
         SELECT r.sid, r.players, 1 FROM game_server_stats_raw r WHERE r.time >= $hw
       ) GROUP BY sid
     )
     UPDATE game_servers SET players_sum_7d = tot.s, samples_7d = tot.n,
       avg_players_7d = CASE WHEN tot.n > 0 THEN CAST(tot.s AS REAL) / tot.n ELSE 0 END
     FROM tot WHERE game_servers.sid = tot.sid`,
  ).run({ from, hw });
  stmt(
    sqlite,
    `UPDATE game_servers SET players_sum_7d = 0, samples_7d = 0, avg_players_7d = 0
     WHERE samples_7d > 0 AND last_seen_at < ?`,
  ).run(from);
}

/** Runs every roll-up step for `now`. Idempotent. */
export function runRollups(deps: Pick<Deps, "sqlite" | "clock">, now = deps.clock.now()): RollupResult {
  const { sqlite } = deps;
  const result: RollupResult = { hours_rolled: 0, blocks_rolled: 0, deleted: { raw: 0, hourly: 0, three_hour: 0, changelog: 0 } };
  const hourNow = floorTo(now, HOUR);
  const blockNow = floorTo(now, THREE_HOURS);

  // 1. Raw → hourly, one transaction per hour (bounded by raw retention: at most 25 hours).
  const hw = liveRepo.getState(sqlite, "hourly_until");
  const rawOldest = Math.min(oldest(sqlite, "game_server_stats_raw") ?? Infinity, oldest(sqlite, "live_global_stats_raw") ?? Infinity);
  let h = hw != null ? hw - HOUR : Number.isFinite(rawOldest) ? floorTo(rawOldest, HOUR) : hourNow;
  // Never re-roll an hour whose raw points retention may already have cut.
  h = Math.max(h, floorTo(now - RAW_RETENTION, HOUR) + HOUR);
  for (; h < hourNow; h += HOUR) {
    const hour = h;
    sqlite.transaction(() => rollHour(sqlite, hour)).immediate();
    result.hours_rolled++;
  }
  liveRepo.setState(sqlite, "hourly_until", hourNow);

  // 2. Hourly → 3-hour, one transaction per block (bounded by hourly retention).
  const bw = liveRepo.getState(sqlite, "3h_until");
  const hourlyOldest = Math.min(
    oldest(sqlite, "game_server_stats_hourly") ?? Infinity,
    oldest(sqlite, "live_global_stats_hourly") ?? Infinity,
  );
  let b = bw != null ? bw - THREE_HOURS : Number.isFinite(hourlyOldest) ? floorTo(hourlyOldest, THREE_HOURS) : blockNow;
  b = Math.max(b, floorTo(now - HOURLY_RETENTION, THREE_HOURS) + THREE_HOURS);
  for (; b < blockNow; b += THREE_HOURS) {
    const block = b;
    sqlite.transaction(() => rollBlock(sqlite, block)).immediate();
    result.blocks_rolled++;
  }
  liveRepo.setState(sqlite, "3h_until", blockNow);

  // 3. Retention. Rows exactly at the boundary are kept.
  sqlite
    .transaction(() => {
      const rawCut = now - RAW_RETENTION;
      const hourlyCut = now - HOURLY_RETENTION;
      const blockCut = now - THREE_HOUR_RETENTION;
      result.deleted.raw =
        stmt(sqlite, `DELETE FROM game_server_stats_raw WHERE time < ?`).run(rawCut).changes +
        stmt(sqlite, `DELETE FROM live_global_stats_raw WHERE time < ?`).run(rawCut).changes +
        stmt(sqlite, `DELETE FROM live_community_stats_raw WHERE time < ?`).run(rawCut).changes;
      result.deleted.hourly =
        stmt(sqlite, `DELETE FROM game_server_stats_hourly WHERE time < ?`).run(hourlyCut).changes +
        stmt(sqlite, `DELETE FROM live_global_stats_hourly WHERE time < ?`).run(hourlyCut).changes +
        stmt(sqlite, `DELETE FROM live_community_stats_hourly WHERE time < ?`).run(hourlyCut).changes;
      // The 3-hour table has no time index (it would cost ~200 MB at a year's scale): delete by
      // primary-key range per server instead.
      result.deleted.three_hour =
        stmt(
          sqlite,
          `DELETE FROM game_server_stats_3h WHERE sid IN (SELECT sid FROM game_servers) AND time < $cut`,
        ).run({ cut: blockCut }).changes +
        stmt(sqlite, `DELETE FROM live_global_stats_3h WHERE time < ?`).run(blockCut).changes +
        stmt(sqlite, `DELETE FROM live_community_stats_3h WHERE time < ?`).run(blockCut).changes;
      // Ids grow with time: the expired rows are a rowid prefix, found by scanning only them
      // (one row per server and scan, a3_changelog_events.sql; the count is of changes).
      const expired = `id < coalesce((SELECT id FROM game_server_mod_events WHERE time >= $cut ORDER BY id LIMIT 1),
           (SELECT max(id) + 1 FROM game_server_mod_events))`;
      const cut = { cut: now - CHANGELOG_RETENTION };
      result.deleted.changelog = (stmt(sqlite, `SELECT coalesce(sum(n), 0) AS n FROM game_server_mod_events WHERE ${expired}`).get(cut) as { n: number }).n;
      stmt(sqlite, `DELETE FROM game_server_mod_events WHERE ${expired}`).run(cut);
    })
    .immediate();

  // 4. 7-day averages: the window is the hourly buckets in [hourNow - 7 d, hourNow) plus the raw
  //    points after hourNow (scans add those as they come). Moving the window by an hour only
  //    subtracts the buckets that fell out of it (~5,000 rows); once a day, and on the first
  //    run, everything is recomputed exactly from the buckets (~1 s at 5,000 servers).
  //    Then mod-size sums from the catalog (sizes arrive after a mod is first seen).
  sqlite
    .transaction(() => {
      const windowStart = hourNow - 7 * DAY;
      const prev = liveRepo.getState(sqlite, "avg7_from");
      if (prev == null || Math.floor(prev / DAY) !== Math.floor(windowStart / DAY) || windowStart < prev) {
        recomputeAverages(sqlite, windowStart, hourNow);
        result.averages = "recomputed";
      } else if (windowStart > prev) {
        stmt(
          sqlite,
          `WITH gone AS (
             SELECT sid, sum(players_sum) AS s, sum(n) AS n FROM game_server_stats_hourly
             WHERE time >= $from AND time < $to GROUP BY sid
           )
           UPDATE game_servers SET players_sum_7d = max(0, players_sum_7d - gone.s), samples_7d = max(0, samples_7d - gone.n),
             avg_players_7d = CASE WHEN samples_7d - gone.n > 0 THEN CAST(players_sum_7d - gone.s AS REAL) / (samples_7d - gone.n) ELSE 0 END
           FROM gone WHERE game_servers.sid = gone.sid`,
        ).run({ from: prev, to: windowStart });
        result.averages = "advanced";
      }
      liveRepo.setState(sqlite, "avg7_from", windowStart);
      stmt(
        sqlite,
        `UPDATE game_servers SET mods_size_bytes = coalesce((
           SELECT sum(m.size_bytes) FROM game_server_mods_by_sid gm JOIN mods m ON m.workshop_id = gm.workshop_id
           WHERE gm.server_sid = game_servers.sid), 0)
         WHERE last_seen_at >= ?`,
      ).run(now - HOUR);
      liveRepo.refreshModUsage(sqlite, now);
    })
    .immediate();
  // Averages and download sizes moved: readers switch to a snapshot of them after the commit.
  rebuildLiveSnapshot(sqlite, deps.clock.now());
  return result;
}
