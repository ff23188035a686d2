// Per-mod answers kept in memory while the generation they were read at stands (see
// docs/catalog.md "Per-mod answers"). GET /mods/:id, /mods/:id/deps, the dependency counts of
// /mods/:id/stats and /mod/:id/metrics, and /mods/:id/stats/growth read the same rows for every
// request of the same mod; here each is read (and serialised) once per generation.
//
// Each store is a read model (src/db/read-models.ts `answersModel`, docs/architecture.md "Derived
// reads"): triggers move catalog_state.detail_gen on every write to mods (but the crawl's
// listed_at mark) and mod_dependencies, growth_gen on every write to mod_growth and
// mod_growth_buckets, by any code path or process; a lookup reads the generation and drops every
// answer of another one, so no answer outlives a write it depends on. Bounded in bytes (2 a
// character, the least recently used answer out first), each store by its own cap and all answer
// caches together by their shared budget (src/shared/bytes-lru.ts).
import type { Database } from "bun:sqlite";
import { answersModel, type AnswersModel } from "../../db/read-models";

/** Which generation a store follows, and the tables that move it. */
const SOURCES = {
  detail_gen: ["mods", "mod_dependencies"],
  growth_gen: ["mod_growth", "mod_growth_buckets"],
} as const;

/** A store the metrics report (an answers model, or another keeper of answers: summaries.ts). */
export interface AnswerStore {
  /** The `cache` label of loadout_catalog_cache_lookups_total and loadout_catalog_answers_bytes. */
  readonly cache: string;
  counts(sqlite: Database): { hits: number; misses: number; entries: number; bytes: number };
}

/** Every store (the metrics report their sizes and hit counts), in definition order. */
const stores: AnswerStore[] = [];

/** Adds a store to those the metrics report. */
export function registerAnswerStore(s: AnswerStore): void {
  stores.push(s);
}

/** Answers of one catalog generation counter, by mod (or another key). */
export interface CatalogAnswers<V> extends AnswersModel<V> {
  /** The answer for `key` at the current generation: from memory, or `compute()` (a throw keeps nothing). */
  get(sqlite: Database, key: string, compute: () => V): V;
}

/** Defines the store `catalog.<cache>`: answers kept while catalog_state.`genKey` stands, at most `maxBytes`. */
export function catalogAnswers<V>(cache: string, genKey: keyof typeof SOURCES, maxBytes: number, sizeOf: (v: V) => number): CatalogAnswers<V> {
  const model = answersModel<V>({
    name: `catalog.${cache}`,
    tables: SOURCES[genKey],
    counters: { table: "catalog_state", keys: [genKey] },
    maxBytes,
    sizeOf: (_k, v) => sizeOf(v),
  });
  const out: CatalogAnswers<V> = Object.assign(model, {
    get: (sqlite: Database, key: string, compute: () => V) => model.current(sqlite).get(key, compute),
  });
  registerAnswerStore({
    cache,
    counts(sqlite) {
      const s = model.peek(sqlite);
      return { hits: s?.hits ?? 0, misses: s?.misses ?? 0, entries: s?.lru.size ?? 0, bytes: s?.lru.bytes ?? 0 };
    },
  });
  return out;
}

/** Each store's hits, misses, answers and bytes held (loadout_catalog_cache_lookups_total, loadout_catalog_answers_bytes). */
export function answerStoreCounts(sqlite: Database): { cache: string; hits: number; misses: number; entries: number; bytes: number }[] {
  return stores.map((s) => ({ cache: s.cache, ...s.counts(sqlite) }));
}

/** Bytes of a JSON text held in memory (2 a character, as the live detail cache counts). */
export const textBytes = (s: string) => s.length * 2 + 64;
