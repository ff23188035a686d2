// The last outcome of each outside source (the workshop crawl, `live` = BattleMetrics discovery, A2S polling),
// shown by GET /api/v1/health so an operator sees at a glance that a source stopped working
// and why, without reading job errors.
import type { Database } from "bun:sqlite";

export type SourceName = "workshop" | "live" | "a2s";
export const SOURCES: SourceName[] = ["workshop", "live", "a2s"];

export interface SourceStatus {
  /** ISO time of the last success, or null. */
  last_ok_at: string | null;
  /** The last failure's message, cleared by the next success. */
  last_error: string | null;
  last_error_at: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function recordSourceOk(sqlite: Database, source: SourceName, at: number): void {
  sqlite
    .query(
      `INSERT INTO source_status (source, last_ok_at, last_error, last_error_at) VALUES (?1, ?2, NULL, NULL)
       ON CONFLICT (source) DO UPDATE SET last_ok_at = ?2, last_error = NULL, last_error_at = NULL`,
    )
    .run(source, at);
}

export function recordSourceError(sqlite: Database, source: SourceName, at: number, error: string): void {
  sqlite
    .query(
      `INSERT INTO source_status (source, last_ok_at, last_error, last_error_at) VALUES (?1, NULL, ?2, ?3)
       ON CONFLICT (source) DO UPDATE SET last_error = ?2, last_error_at = ?3`,
    )
    .run(source, error.slice(0, 1000), at);
}

export function sourceStatuses(sqlite: Database): Record<SourceName, SourceStatus> {
  const rows = sqlite.query("SELECT source, last_ok_at, last_error, last_error_at FROM source_status").all() as {
    source: SourceName;
    last_ok_at: number | null;
    last_error: string | null;
    last_error_at: number | null;
  }[];
  const out = {} as Record<SourceName, SourceStatus>;
  for (const s of SOURCES) {
    const r = rows.find((x) => x.source === s);
    out[s] = { last_ok_at: iso(r?.last_ok_at ?? null), last_error: r?.last_error ?? null, last_error_at: iso(r?.last_error_at ?? null) };
  }
  return out;
}
