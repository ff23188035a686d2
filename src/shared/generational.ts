// A structure built from SQLite and kept in memory while a generation counter in SQLite stays
// put (triggers move the counter on every write that could change what the structure holds, so no
// writer can leave it stale). A read that finds another generation builds anew, but at most once
// every `rebuildMs`: building costs, and while a writer keeps writing (a crawl) the caller answers
// from SQL between builds, which is always right. One per database handle.
import type { Database } from "bun:sqlite";
import { generation } from "../db/statements";

export interface Generational<T extends { gen: number }> {
  /** The structure of the current generation, built now if allowed, or null (answer from SQL). */
  current(sqlite: Database, now?: number): T | null;
  /** The structure last built (for the metrics), whatever its generation. */
  peek(sqlite: Database): T | null;
}

/**
 * @param table, key the generation counter: the row `key` of catalog_state or live_state (read
 *   through `generation` in src/db/statements.ts: once per turn of the event loop and per write)
 * @param build builds the structure as of generation `gen` (in its own read transaction)
 */
export function generational<T extends { gen: number }>(
  table: "catalog_state" | "live_state",
  key: string,
  rebuildMs: number,
  build: (sqlite: Database, gen: number) => T,
): Generational<T> {
  const states = new WeakMap<Database, { value: T | null; lastBuild: number }>();
  return {
    current(sqlite, now = performance.now()) {
      let s = states.get(sqlite);
      if (!s) {
        s = { value: null, lastBuild: -Infinity };
        states.set(sqlite, s);
      }
      const gen = generation(sqlite, table, key);
      if (s.value?.gen === gen) return s.value;
      if (now - s.lastBuild < rebuildMs) return null;
      s.lastBuild = now;
      s.value = build(sqlite, gen);
      return s.value;
    },
    peek: (sqlite) => states.get(sqlite)?.value ?? null,
  };
}
