// The stat series' answers from memory: GET /game-servers/:id/stats,
// /stats/global-players and /stats/community-players read up to ~2,920 bucket rows and build as
// many points per request, yet their data changes only when a scan, a roll-up or another write
// commits. An answer is kept as its UTF-8 JSON (what production sends, no serialising per request)
// with:
// - the database state it was read at: total_changes() of this connection (every INSERT, UPDATE or
//   DELETE through it, triggers included: a scan, a roll-up, a test's raw SQL) and
//   PRAGMA data_version (a commit by any other connection or process, seen from the next turn of the
//   event loop on: `dataVersion` in src/db/statements.ts). Another state drops every
//   answer at once (the catalog's small answer caches in src/features/catalog/list.ts key on
//   total_changes() alone);
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
import { BytesLru } from "../../shared/bytes-lru";
import { stmt } from "./repository";
import { dataVersion } from "../../db/statements";

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
 * Answers kept while the database stands where they were read (total_changes() of this
 * connection and PRAGMA data_version: any write drops them all) and while the clock stays in the
 * span each answer holds for (from ≤ now ≤ until): the series answers here, a community's metrics
 * text (metrics.ts).
 */
export class TimedAnswers<V> {
  readonly answers: BytesLru<{ from: number; until: number; value: V }>;
  hits = 0;
  misses = 0;
  private changes = -1;
  private version = -1;

  constructor(maxBytes: number, size: (key: string, value: V) => number) {
    this.answers = new BytesLru(maxBytes, (k, a) => size(k, a.value));
  }

  /** Drops every answer when the database moved since they were read (one statement and one pragma, kept for the turn). */
  sync(sqlite: Database): this {
    const changes = (stmt(sqlite, "SELECT total_changes()").values() as [number][])[0]![0];
    const version = dataVersion(sqlite); // kept for the turn of the event loop (src/db/statements.ts)
    if (changes !== this.changes || version !== this.version) {
      this.answers.clear();
      this.changes = changes;
      this.version = version;
    }
    return this;
  }

  /** The answer kept for `key` if it holds at `now`, counted as a hit or a miss. */
  get(key: string, now: number): V | undefined {
    const a = this.answers.get(key);
    if (a && (now < a.from || now > a.until)) this.answers.delete(key);
    else if (a) {
      this.hits++;
      return a.value;
    }
    this.misses++;
    return undefined;
  }

  /** Keeps an answer read at `now` for the span it holds (not kept if `now` is outside it). */
  keep(key: string, now: number, value: V, from: number, until: number) {
    if (from <= now && now <= until) this.answers.set(key, { from, until, value });
  }
}

const caches = new WeakMap<Database, TimedAnswers<Uint8Array>>();

/** The database's series cache, synced to its current state. */
function cacheOf(sqlite: Database): TimedAnswers<Uint8Array> {
  let c = caches.get(sqlite);
  if (!c) caches.set(sqlite, (c = new TimedAnswers<Uint8Array>(SERIES_CACHE_BYTES, (_, body) => body.byteLength)));
  return c.sync(sqlite);
}

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
  const c = caches.get(sqlite);
  return c ? { answers: c.answers.size, bytes: c.answers.bytes, hits: c.hits, misses: c.misses } : { answers: 0, bytes: 0, hits: 0, misses: 0 };
}
