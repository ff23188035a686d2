// Per-mod answers kept in memory while the generation they were read at stands (see
// docs/catalog.md "Per-mod answers"). GET /mods/:id, /mods/:id/deps, the dependency counts of
// /mods/:id/stats and /mod/:id/metrics, and /mods/:id/stats/growth read the same rows for every
// request of the same mod; here each is read (and serialised) once per generation.
//
// Generations (src/db/custom/98_catalog_answers_gen.sql): triggers move catalog_state.detail_gen
// on every write to mods (but the crawl's listed_at mark) and mod_dependencies, growth_gen on every
// write to mod_growth and mod_growth_buckets, by any code path or process. A lookup reads the
// generation (`generation` in src/db/statements.ts: one read of catalog_state per turn of the
// event loop and per write through the connection) and drops every answer of another one, so no answer
// outlives a write it depends on. Bounded in bytes (2 a character, the least recently used answer
// out first; `many`'s parts of pages are read with peek, oldest first out), each store by its own
// cap and all answer caches together by their shared budget (src/shared/bytes-lru.ts).
import type { Database } from "bun:sqlite";
import { BytesLru } from "../../shared/bytes-lru";
import { generation } from "../../db/statements";

type GenKey = "detail_gen" | "growth_gen";

interface State<V, K> {
  gen: number;
  answers: BytesLru<V, K>;
  /** Lookups answered from memory, and read anew (the metrics count them). */
  hits: number;
  misses: number;
}

/** A store the metrics report (a GenerationalAnswers, or another keeper of answers: summaries.ts). */
export interface AnswerStore {
  readonly name: string;
  counts(sqlite: Database): { hits: number; misses: number; entries: number; bytes: number };
}

/** Every store (the metrics report their sizes and hit counts). */
const stores: AnswerStore[] = [];

/** Adds a store to those the metrics report. */
export function registerAnswerStore(s: AnswerStore): void {
  stores.push(s);
}

export class GenerationalAnswers<V, K = string> implements AnswerStore {
  private readonly states = new WeakMap<Database, State<V, K>>();

  constructor(
    readonly name: string,
    private readonly genKey: GenKey,
    private readonly maxBytes: number,
    private readonly sizeOf: (v: V) => number,
  ) {
    registerAnswerStore(this);
  }

  /** This database's answers, emptied first when the generation moved since the last lookup. */
  private current(sqlite: Database): State<V, K> {
    let s = this.states.get(sqlite);
    if (!s) {
      s = { gen: -1, answers: new BytesLru<V, K>(this.maxBytes, (_, v) => this.sizeOf(v)), hits: 0, misses: 0 };
      this.states.set(sqlite, s);
    }
    const gen = generation(sqlite, "catalog_state", this.genKey);
    if (gen !== s.gen) {
      s.answers.clear();
      s.gen = gen;
    }
    return s;
  }

  /** The answer for `key` at the current generation: from memory, or `compute()` (a throw caches nothing). */
  get(sqlite: Database, key: K, compute: () => V): V {
    const s = this.current(sqlite);
    // get: a hit counts as a use, so an answer asked for again outlives others in the answer
    // caches' shared budget (least recently used out first across every cache).
    const hit = s.answers.get(key);
    if (hit !== undefined) {
      s.hits++;
      return hit;
    }
    s.misses++;
    const v = compute();
    s.answers.set(key, v);
    return v;
  }

  /**
   * The values of several keys at the current generation, in their order; those not held are
   * computed together (`computeMissing` gives what exists of them; a key it leaves out is left
   * out of the answer). Parts of an answer, not answers: not counted as hits or misses.
   */
  many(sqlite: Database, keys: readonly K[], computeMissing: (missing: K[]) => Map<K, V>): V[] {
    const s = this.current(sqlite);
    const out = new Array<V | undefined>(keys.length);
    let missing: K[] | null = null;
    for (let i = 0; i < keys.length; i++) {
      const hit = s.answers.peek(keys[i]!);
      if (hit !== undefined) out[i] = hit;
      else (missing ??= []).push(keys[i]!);
    }
    if (missing === null) return out as V[];
    const got = computeMissing(missing);
    for (const [k, v] of got) s.answers.set(k, v);
    const res: V[] = [];
    for (let i = 0; i < keys.length; i++) {
      const v = out[i] ?? got.get(keys[i]!);
      if (v !== undefined) res.push(v);
    }
    return res;
  }

  /**
   * Keeps many values read together at generation `gen` (as many as fit in the bound, none when
   * the generation moved since they were read); returns how many it kept.
   */
  fill(sqlite: Database, gen: number, entries: Iterable<readonly [K, V]>): number {
    const s = this.current(sqlite);
    if (s.gen !== gen) return 0;
    let n = 0;
    for (const [k, v] of entries) {
      if (s.answers.peek(k) !== undefined) continue;
      if (s.answers.bytes + this.sizeOf(v) > this.maxBytes) break;
      s.answers.set(k, v);
      n++;
    }
    return n;
  }

  /** Lookups, answers and bytes held for this database (approximate: 2 a character of text). */
  counts(sqlite: Database): { hits: number; misses: number; entries: number; bytes: number } {
    const s = this.states.get(sqlite);
    return { hits: s?.hits ?? 0, misses: s?.misses ?? 0, entries: s?.answers.size ?? 0, bytes: s?.answers.bytes ?? 0 };
  }
}

/** Each store's hits, misses, answers and bytes held (loadout_catalog_cache_lookups_total, loadout_catalog_answers_bytes). */
export function answerStoreCounts(sqlite: Database): { cache: string; hits: number; misses: number; entries: number; bytes: number }[] {
  return stores.map((s) => ({ cache: s.name, ...s.counts(sqlite) }));
}

/** Bytes of a JSON text held in memory (2 a character, as the live detail cache counts). */
export const textBytes = (s: string) => s.length * 2 + 64;
