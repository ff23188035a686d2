// The roll-ups' reads and writes (rollup.ts): raw points into hourly buckets, hourly into 3-hour
// buckets, retention, the 7-day averages and the servers' mod-size sums.
import type { Database } from "bun:sqlite";
import { stmt } from "../../../db/statements";
import { HOUR, THREE_HOURS } from "../windows";

export const rollupRepo = {
  /** One hour of raw points into hourly buckets (servers, global, communities). */
  rollHour(sqlite: Database, h: number) {
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
  },

  /** One 3-hour block of hourly buckets into 3-hour buckets. */
  rollBlock(sqlite: Database, b: number) {
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
  },

  /** The oldest time in a series table (null: empty). */
  oldest(sqlite: Database, table: string): number | null {
    const r = stmt(sqlite, `SELECT min(time) AS t FROM ${table}`).get() as { t: number | null };
    return r.t;
  },

  /** Exact 7-day sums: hourly buckets in [from, hw) plus raw points from hw on. */
  recomputeAverages(sqlite: Database, from: number, hw: number) {
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
  },

  /**
   * Deletes what the retentions let go (rows exactly at a boundary are kept); returns how many raw
   * points, hourly and 3-hour buckets, and changelog changes went.
   */
  deleteExpired(sqlite: Database, cuts: { raw: number; hourly: number; block: number; changelog: number }): { raw: number; hourly: number; three_hour: number; changelog: number } {
    const raw =
      stmt(sqlite, `DELETE FROM game_server_stats_raw WHERE time < ?`).run(cuts.raw).changes +
      stmt(sqlite, `DELETE FROM live_global_stats_raw WHERE time < ?`).run(cuts.raw).changes +
      stmt(sqlite, `DELETE FROM live_community_stats_raw WHERE time < ?`).run(cuts.raw).changes;
    const hourly =
      stmt(sqlite, `DELETE FROM game_server_stats_hourly WHERE time < ?`).run(cuts.hourly).changes +
      stmt(sqlite, `DELETE FROM live_global_stats_hourly WHERE time < ?`).run(cuts.hourly).changes +
      stmt(sqlite, `DELETE FROM live_community_stats_hourly WHERE time < ?`).run(cuts.hourly).changes;
    // The 3-hour table has no time index (it would cost ~200 MB at a year's scale): delete by
    // primary-key range per server instead.
    const three_hour =
      stmt(sqlite, `DELETE FROM game_server_stats_3h WHERE sid IN (SELECT sid FROM game_servers) AND time < $cut`).run({ cut: cuts.block }).changes +
      stmt(sqlite, `DELETE FROM live_global_stats_3h WHERE time < ?`).run(cuts.block).changes +
      stmt(sqlite, `DELETE FROM live_community_stats_3h WHERE time < ?`).run(cuts.block).changes;
    // Ids grow with time: the expired rows are a rowid prefix, found by scanning only them
    // (one row per server and scan, a3_changelog_events.sql; the count is of changes).
    const expired = `id < coalesce((SELECT id FROM game_server_mod_events WHERE time >= $cut ORDER BY id LIMIT 1),
         (SELECT max(id) + 1 FROM game_server_mod_events))`;
    const cut = { cut: cuts.changelog };
    const changelog = (stmt(sqlite, `SELECT coalesce(sum(n), 0) AS n FROM game_server_mod_events WHERE ${expired}`).get(cut) as { n: number }).n;
    stmt(sqlite, `DELETE FROM game_server_mod_events WHERE ${expired}`).run(cut);
    return { raw, hourly, three_hour, changelog };
  },

  /** Moves the 7-day sums from `from` to `to`: the hourly buckets in between leave them. */
  advanceAverages(sqlite: Database, from: number, to: number) {
    stmt(
      sqlite,
      `WITH gone AS (
         SELECT sid, sum(players_sum) AS s, sum(n) AS n FROM game_server_stats_hourly
         WHERE time >= $from AND time < $to GROUP BY sid
       )
       UPDATE game_servers SET players_sum_7d = max(0, players_sum_7d - gone.s), samples_7d = max(0, samples_7d - gone.n),
         avg_players_7d = CASE WHEN samples_7d - gone.n > 0 THEN CAST(players_sum_7d - gone.s AS REAL) / (samples_7d - gone.n) ELSE 0 END
       FROM gone WHERE game_servers.sid = gone.sid`,
    ).run({ from, to });
  },

  /** The mod-size sums of the servers seen since `since`, from the catalog's sizes (sizes arrive after a mod is first seen). */
  refreshSizes(sqlite: Database, since: number) {
    stmt(
      sqlite,
      `UPDATE game_servers SET mods_size_bytes = coalesce((
         SELECT sum(m.size_bytes) FROM game_server_mods_by_sid gm JOIN mods m ON m.workshop_id = gm.workshop_id
         WHERE gm.server_sid = game_servers.sid), 0)
       WHERE last_seen_at >= ?`,
    ).run(since);
  },
};
