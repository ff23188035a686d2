// A server's stat series written as JSON from its day rows (issue 29, round 3; docs/live.md
// "Series and roll-ups"). GET /game-servers/:id/stats of a server nobody asked for at this database
// state reads up to 2,920 bucket rows; through bun:sqlite each row costs ~250 ns before any JSON,
// and objects + JSON.stringify ~200 ns more a point. The 3-hour and hourly buckets are therefore
// also kept one row per server and UTC day as compact text (src/db/custom/a5_series_days.sql,
// maintained by triggers on every write to the bucket tables), read with one statement as one
// string, and the points' JSON is written from it here: the same text JSON.stringify gives of the
// point objects (`serverStatsRead` in service.ts, the truth the tests compare with).
import type { Database } from "bun:sqlite";
import { toIso } from "../../shared/time";

const DAY_MS = 86_400_000;

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

// ---------------------------------------------------------------------------------------------
// Writing the points. A point is `{"time":…,"player_count":…,"queue_players_count":…,
// "wait_time_estimation":…,"player_count_max":…}`, averages rounded by avg() (which service.ts's point objects use too).
// Its pieces are joined as a string (JavaScriptCore ropes, flattened once when sent): a per-time
// prefix kept for every series (bucket times are the same for all servers), the numbers, and the
// usual tail with no queue and no wait as one piece.

const NUM: string[] = Array.from({ length: 1024 }, (_, i) => String(i));
const num = (v: number) => (v >= 0 && v < 1024 && Number.isInteger(v) ? NUM[v]! : String(v));
const QUIET_TAIL: string[] = NUM.map((m) => `,"queue_players_count":0,"wait_time_estimation":0,"player_count_max":${m}}`);
const Q = ',"queue_players_count":';
const W = ',"wait_time_estimation":';
const M = ',"player_count_max":';

/** `,{"time":"<ISO>","player_count":` per time; at most 20,000 kept (~1.6 MB), then cleared. */
const prefixes = new Map<number, string>();
function prefixOf(t: number): string {
  let p = prefixes.get(t);
  if (p === undefined) {
    if (prefixes.size >= 20_000) prefixes.clear();
    prefixes.set(t, (p = `,{"time":"${toIso(t)}","player_count":`));
  }
  return p;
}

/** A bucket's average as the series answer it: rounded, 0 for an empty bucket. */
export const avg = (sum: number, n: number) => (n > 0 ? Math.round(sum / n) : 0);

/** Builds one answer: points appended in time order, then `body()`. */
export class PointsWriter {
  private readonly parts: string[] = ["["];

  point(t: number, n: number, ps: number, qs: number, xs: number, pm: number): void {
    const q = avg(qs, n);
    const w = avg(xs, n);
    const parts = this.parts;
    parts.push(parts.length === 1 ? prefixOf(t).slice(1) : prefixOf(t), num(avg(ps, n)));
    if (q === 0 && w === 0 && pm >= 0 && pm < 1024 && Number.isInteger(pm)) parts.push(QUIET_TAIL[pm]!);
    else parts.push(Q, num(q), W, num(w), M, num(pm), "}");
  }

  /** Rows of (time, n, ps, pm, qs, xs), as the series SQL selects them (`.values()`). */
  rows(rows: number[][]): void {
    for (const r of rows) this.point(r[0]!, r[1]!, r[2]!, r[4]!, r[5]!, r[3]!);
  }

  /** Raw points as rows of (time, players, queue, wait): each a bucket of one sample. */
  rawRows(rows: number[][]): void {
    for (const r of rows) this.point(r[0]!, 1, r[1]!, r[2]!, r[3]!, r[1]!);
  }

  /**
   * Day rows joined as `<day><points>/<day><points>…` in ascending day order, of buckets `step`
   * apart: the points with from ≤ time < to. False (and nothing kept of them) when the text is not
   * of that form (a '?' bucket, days out of order): the caller answers from the bucket rows.
   */
  days(s: string, step: number, from: number, to: number): boolean {
    const len = s.length;
    const before = this.parts.length;
    let i = 0;
    let prevDay = -1;
    let dayStart = 0;
    // Five integers a bucket; each ends at the next character that is not a digit (a leading '-'
    // is its sign), and all but the last must end at a ','.
    const v = [0, 0, 0, 0, 0];
    while (i < len) {
      let c = s.charCodeAt(i);
      if (c === 47 || i === 0) {
        if (c === 47) c = s.charCodeAt(++i);
        let d = 0;
        const start = i;
        while (c >= 48 && c <= 57) {
          d = d * 10 + (c - 48);
          c = s.charCodeAt(++i);
        }
        if (i === start || d <= prevDay) return this.undo(before);
        prevDay = d;
        dayStart = d * DAY_MS;
      }
      if (c < 97 || c > 122) return this.undo(before);
      const t = dayStart + (c - 97) * step;
      for (let k = 0; k < 5; k++) {
        c = s.charCodeAt(++i);
        let neg = false;
        if (c === 45) {
          neg = true;
          c = s.charCodeAt(++i);
        }
        let x = 0;
        const start = i;
        while (c >= 48 && c <= 57) {
          x = x * 10 + (c - 48);
          c = s.charCodeAt(++i);
        }
        if (i === start || (k < 4 && c !== 44)) return this.undo(before);
        v[k] = neg ? -x : x;
      }
      if (t >= from && t < to) this.point(t, v[0]!, v[1]!, v[2]!, v[3]!, v[4]!);
    }
    return true;
  }

  private undo(length: number): false {
    this.parts.length = length;
    return false;
  }

  /** The JSON array. */
  body(): string {
    this.parts.push("]");
    return this.parts.join("");
  }
}
