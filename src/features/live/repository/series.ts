// The stat series' reads (docs/live.md "Series and roll-ups"): every series (server, global,
// community) has a raw table and hourly and 3-hour bucket tables; a reader combines buckets before
// the roll-up watermarks with an aggregate of the newer rows, so the latest hour shows before it is
// rolled, and raw points older than 24 h are never read. Columns are normalised to
// (time, n, ps, pm, qs, xs): x is wait time for servers and the online-server count for the global
// and community series. Also a server's day rows (series-days.ts) and the bench's bulk load.
import type { Database } from "bun:sqlite";
import { stmt } from "../../../db/statements";
import { HOUR, THREE_HOURS } from "../windows";

export interface SeriesDef {
  raw: string;
  hourly: string;
  threeHour: string;
  key: string | null;
  x: { raw: string; bucket: string };
  xMaxBucket: string;
}

export const SERVER_SERIES: SeriesDef = {
  raw: "game_server_stats_raw",
  hourly: "game_server_stats_hourly",
  threeHour: "game_server_stats_3h",
  key: "sid",
  x: { raw: "wait", bucket: "wait_sum" },
  xMaxBucket: "0",
};
export const GLOBAL_SERIES: SeriesDef = {
  raw: "live_global_stats_raw",
  hourly: "live_global_stats_hourly",
  threeHour: "live_global_stats_3h",
  key: null,
  x: { raw: "servers", bucket: "servers_sum" },
  xMaxBucket: "servers_max",
};
export const COMMUNITY_SERIES: SeriesDef = { ...GLOBAL_SERIES, raw: "live_community_stats_raw", hourly: "live_community_stats_hourly", threeHour: "live_community_stats_3h", key: "community_id" };

export interface SeriesRow {
  time: number;
  n: number;
  ps: number;
  pm: number;
  qs: number;
  xs: number;
}

export type Resolution = "raw" | "hourly" | "3h";

/**
 * Two statements per read: the bucket table before its watermark, straight from the primary
 * key in time order (no sort), and the small tail (newer hourly buckets and raw points)
 * aggregated into buckets of the resolution. Their times never overlap.
 */
function seriesSql(d: SeriesDef, res: Resolution): { head: string | null; tail: string } {
  const k = d.key ? `${d.key} = $key AND ` : "";
  const raw = `SELECT time, 1 AS n, players AS ps, players AS pm, queue AS qs, ${d.x.raw} AS xs FROM ${d.raw}`;
  if (res === "raw") return { head: null, tail: `${raw} WHERE ${k}time >= $rawFrom ORDER BY time` };
  const bucket = (t: string) => `SELECT time, n, players_sum AS ps, players_max AS pm, queue_sum AS qs, ${d.x.bucket} AS xs FROM ${t}`;
  const step = res === "hourly" ? HOUR : THREE_HOURS;
  const parts: string[] = [];
  let head: string;
  if (res === "3h") {
    head = `${bucket(d.threeHour)} WHERE ${k}time >= $since AND time < $w3 ORDER BY time`;
    parts.push(`${bucket(d.hourly)} WHERE ${k}time >= max($since, $w3) AND time < $w1`);
  } else {
    head = `${bucket(d.hourly)} WHERE ${k}time >= $since AND time < $w1 ORDER BY time`;
  }
  parts.push(`${raw} WHERE ${k}time >= max($since, $w1, $rawFrom)`);
  const tail = `SELECT (time / ${step}) * ${step} AS time, sum(n) AS n, sum(ps) AS ps, max(pm) AS pm, sum(qs) AS qs, sum(xs) AS xs
    FROM (${parts.join(" UNION ALL ")}) GROUP BY 1 ORDER BY 1`;
  return { head, tail };
}

/** What a read binds: the raw cut, the key, and for buckets the range start and the watermarks. */
export interface SeriesParams {
  rawFrom: number;
  key?: string | number;
  since?: number;
  w1?: number;
  w3?: number;
}

// bun:sqlite (strict) rejects bindings a statement does not use: pass each only its own.
function headParams(p: SeriesParams, res: Resolution) {
  const out: Record<string, string | number> = { since: p.since! };
  if (p.key !== undefined) out.key = p.key;
  if (res === "3h") out.w3 = p.w3!;
  else out.w1 = p.w1!;
  return out;
}
function tailParams(p: SeriesParams, res: Resolution) {
  if (res === "raw") return p.key !== undefined ? { key: p.key, rawFrom: p.rawFrom } : { rawFrom: p.rawFrom };
  const out: Record<string, string | number> = { since: p.since!, w1: p.w1!, rawFrom: p.rawFrom };
  if (p.key !== undefined) out.key = p.key;
  if (res === "3h") out.w3 = p.w3!;
  return out;
}

const RAW_POINTS_SQL = `SELECT time, players, queue, wait FROM ${SERVER_SERIES.raw} WHERE sid = $key AND time >= $rawFrom ORDER BY time`;

export const seriesRepo = {
  /** The buckets before the watermark (null for the raw resolution, which has none). */
  head(sqlite: Database, d: SeriesDef, res: Resolution, p: SeriesParams): SeriesRow[] | null {
    const { head } = seriesSql(d, res);
    return head ? (stmt(sqlite, head).all(headParams(p, res)) as SeriesRow[]) : null;
  },

  /** The newer rows aggregated into buckets of the resolution (the raw points for the raw one). */
  tail(sqlite: Database, d: SeriesDef, res: Resolution, p: SeriesParams): SeriesRow[] {
    return stmt(sqlite, seriesSql(d, res).tail).all(tailParams(p, res)) as SeriesRow[];
  },

  /** The same rows as (time, n, ps, pm, qs, xs) arrays (`.values()`). */
  tailValues(sqlite: Database, d: SeriesDef, res: Resolution, p: SeriesParams): number[][] {
    return stmt(sqlite, seriesSql(d, res).tail).values(tailParams(p, res)) as number[][];
  },

  /**
   * A server's raw points as (time, players, queue, wait): the four columns the points need, not
   * the six of the tail's shape (bun:sqlite's cost is per cell: ~90 µs against ~130 for 288 points).
   */
  rawPoints(sqlite: Database, sid: number, rawFrom: number): number[][] {
    return stmt(sqlite, RAW_POINTS_SQL).values({ key: sid, rawFrom }) as number[][];
  },

  /** A server's day rows of `res` from day d0 to d1, joined as `<day><points>/…` (series-days.ts), or null when none. */
  dayText(sqlite: Database, res: "hourly" | "3h", sid: number, d0: number, d1: number): string | null {
    const table = res === "3h" ? "game_server_stats_3h_days" : "game_server_stats_hourly_days";
    return (stmt(sqlite, `SELECT group_concat(day || points, '/') FROM ${table} WHERE sid = $sid AND day >= $d0 AND day <= $d1`).values({ sid, d0, d1 }) as [string | null][])[0]![0];
  },

  /** The oldest time the series holds in any of its tables (null: none). */
  oldest(sqlite: Database, d: SeriesDef, key: string | number | null): number | null {
    const k = d.key ? `WHERE ${d.key} = $key` : "";
    const r = stmt(
      sqlite,
      `SELECT min(t) AS t FROM (SELECT min(time) AS t FROM ${d.threeHour} ${k} UNION ALL SELECT min(time) FROM ${d.hourly} ${k}
        UNION ALL SELECT min(time) FROM ${d.raw} ${k})`,
    ).get(d.key ? { key: key! } : {}) as { t: number | null };
    return r.t;
  },
};

/** The day tables and the views that give their rows' points (the migration's definitions). */
const DAY_TABLES = [
  { days: "game_server_stats_3h_days", points: "game_server_stats_3h_points" },
  { days: "game_server_stats_hourly_days", points: "game_server_stats_hourly_points" },
] as const;

/** Every day row again from the bucket tables (as the migration filled them). */
export function rebuildSeriesDays(sqlite: Database): void {
  for (const t of DAY_TABLES) {
    sqlite.run(`DELETE FROM ${t.days}`);
    sqlite.run(`INSERT INTO ${t.days} (sid, day, points) SELECT sid, day, group_concat(point, '' ORDER BY time) FROM ${t.points} GROUP BY sid, day`);
  }
}

/**
 * Runs a bulk load of bucket rows (the bench's seeds: millions of rows) without the per-row day
 * triggers, then rebuilds the day rows in one pass and puts the triggers back as migrated, all in
 * one transaction (a failure rolls the dropped triggers back with the rest).
 */
export function bulkLoadSeries<T>(sqlite: Database, load: () => T): T {
  const triggers = sqlite
    .query(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (${["3h", "hourly"].flatMap((r) => ["ins", "del", "upd"].map((k) => `'game_server_stats_${r}_days_${k}'`)).join(", ")})`)
    .all() as { name: string; sql: string }[];
  return sqlite.transaction(() => {
    for (const t of triggers) sqlite.run(`DROP TRIGGER ${t.name}`);
    const out = load();
    rebuildSeriesDays(sqlite);
    for (const t of triggers) sqlite.run(t.sql);
    return out;
  })();
}
