// The stat series' answers from memory: GET /game-servers/:id/stats,
// /stats/global-players and /stats/community-players read up to ~2,920 bucket rows and build as
// many points per request, yet their data changes only when a scan, a roll-up or another write
// commits. An answer is kept as its UTF-8 JSON (what production sends, no serialising per request)
// with:
// - the generation counters it was read at (a read model: docs/architecture.md "Derived reads"):
//   live_state's series_gen, which triggers move on every write to a series table, their day rows
//   or the roll-up's watermarks, by any code path or process (a scan and a roll-up move it once
//   for all their rows), and servers_gen and community_gen (a server's or a community's own row);
//   read once per turn of the event loop and after each write through the connection, so another
//   process's commit is seen from the next turn on. Another value drops every answer at once;
//   writes elsewhere (the job queue, a list, an API key's last use) keep them;
// - the times it holds for: a read depends on the clock only through the start of its range (the
//   bucket `since`) and the 24 h raw cut, and readSeries says for which `now` both give the same
//   rows (series.from ≤ now ≤ series.until), so time passing never serves a stale answer.
// At most SERIES_CACHE_BYTES of answers (least recently used out first);
// loadout_live_series_cache_bytes / _answers report what it holds.
//
// An answer is kept and sent as UTF-8 bytes: under wrk at 32 clients a bare Bun.serve (Bun 1.4.5)
// sending a 333 KB JSON body used ~121 µs of CPU a request as a Uint8Array against ~140 as a flat
// string and ~181 encoding it each time (an older Bun had sent the string cheaper), so a miss
// encodes its text once (a server's series is written as bytes already, series-days.ts).
// docs/performance.md, "Designs that hold".
import type { Database } from "bun:sqlite";
import { timedAnswersModel } from "../../db/read-models";

const encoder = new TextEncoder();

/** At most this many bytes of series answers (their UTF-8 JSON) are kept per database. */
export const SERIES_CACHE_BYTES = 16 * 2 ** 20;

/** What a read that writes its own JSON text returns (a server's series, series-days.ts). */
export interface SeriesText {
  /** The JSON, as text or already as its UTF-8 bytes (series-days.ts's writer). */
  body: string | Uint8Array;
  from: number;
  until: number;
}

/**
 * The read model: series answers by key, per connection, kept while live_state's series_gen (every
 * write to a series table, their day rows or the roll-up's watermarks), servers_gen (a server's id
 * and sid) and community_gen (a community's existence) stand: src/db/schema-objects.sql.
 */
export const seriesModel = timedAnswersModel<Uint8Array>({
  name: "live.series",
  tables: [
    "game_server_stats_raw", "game_server_stats_hourly", "game_server_stats_3h", "game_server_stats_hourly_days", "game_server_stats_3h_days",
    "live_global_stats_raw", "live_global_stats_hourly", "live_global_stats_3h",
    "live_community_stats_raw", "live_community_stats_hourly", "live_community_stats_3h",
    "game_servers", "communities",
  ],
  counters: [{ table: "live_state", keys: ["series_gen", "servers_gen", "community_gen"] }],
  maxBytes: SERIES_CACHE_BYTES,
  sizeOf: (_, body) => body.byteLength,
});

/** The database's series cache, emptied first when the database moved. */
const cacheOf = (sqlite: Database) => seriesModel.current(sqlite);

/** What a series read returns: the points, and the clock times for which the same read answers the same. */
export interface SeriesAnswer {
  points: unknown[];
  from: number;
  until: number;
}

/**
 * A series answer as UTF-8 JSON: from memory when an answer of the same key was read at the
 * current database state and holds for `now`, else `read()` (which throws for an unknown server
 * or community before anything is kept).
 */
export function cachedSeriesJson(sqlite: Database, key: string, now: number, read: () => SeriesAnswer): Uint8Array {
  return cachedSeriesText(sqlite, key, now, () => {
    const a = read();
    return { body: JSON.stringify(a.points), from: a.from, until: a.until };
  });
}

/** The same for a read that writes its JSON text itself. */
export function cachedSeriesText(sqlite: Database, key: string, now: number, read: () => SeriesText): Uint8Array {
  const c = cacheOf(sqlite);
  const hit = c.get(key, now);
  if (hit) return hit;
  const a = read();
  const body = typeof a.body === "string" ? encoder.encode(a.body) : a.body;
  c.keep(key, now, body, a.from, a.until);
  return body;
}

/** What the series cache holds (for the metrics): answers and bytes, and lookups by result. */
export function seriesCacheStats(sqlite: Database): { answers: number; bytes: number; hits: number; misses: number } {
  const c = seriesModel.peek(sqlite);
  return c ? { answers: c.lru.size, bytes: c.lru.bytes, hits: c.hits, misses: c.misses } : { answers: 0, bytes: 0, hits: 0, misses: 0 };
}
