// The two kinds of read model every derived read is built from (docs/architecture.md "Derived
// reads"; the registry itself is connection.ts):
// - a *structure* (an index, the live snapshot's sibling structures, a packed copy): built whole
//   from SQLite for one value of a generation counter and used while the counter stands; a read
//   that finds it moved builds anew, but at most once every `rebuildMs` (building costs, and while
//   a writer keeps writing, a crawl, the caller answers from SQL between builds, which is always
//   right);
// - *answers* (serialised responses, counts, ranked rowids): kept by key while the generation
//   counters they were read at stand, least recently used out past their bound, every one counted
//   into the answer caches' shared byte budget (shared/bytes-lru.ts); a *timed* answer also holds
//   only for the clock span its read says (a series read depends on the time through the start of
//   its range).
// Generation counters are read through statements.ts `generation` (once per turn of the event loop
// and after each write through the connection; never kept inside a transaction).
import type { Database } from "bun:sqlite";
import { BytesLru } from "../shared/bytes-lru";
import { defineReadModel, readModelsOf, type ReadModel, type ReadModelSize } from "./connection";
import { generation, generationKey, type GenerationTable } from "./statements";

export { defineReadModel, readModelsOf, type ReadModel, type ReadModelSize } from "./connection";

/** Generation counters of one table, as a model names them. */
export interface Counters {
  table: GenerationTable;
  keys: readonly string[];
}

/** The counters' current values as one comparable value (a number for one counter). */
export function countersAt(sqlite: Database, c: Counters): number | string {
  return c.keys.length === 1 ? generation(sqlite, c.table, c.keys[0]!) : generationKey(sqlite, c.table, c.keys);
}

const counterNames = (c: Counters) => c.keys.map((k) => `${c.table}.${k}`);

// ---- Structures -------------------------------------------------------------------------------------

interface StructureState<T> {
  value: T | null;
  lastBuild: number;
}

export interface Structure<T extends { gen: number }> extends ReadModel<StructureState<T>> {
  /** The structure of the current generation, built now if allowed, or null (answer from SQL). */
  current(sqlite: Database, now?: number): T | null;
  /** The structure last built (the metrics), whatever its generation. */
  peek(sqlite: Database): T | null;
}

/**
 * A structure kept while one generation counter stands, rebuilt on a read at most every
 * `rebuildMs`; `build` reads it as of generation `gen` (in its own read transaction).
 */
export function structureModel<T extends { gen: number }>(o: {
  name: string;
  tables: readonly string[];
  counter: { table: GenerationTable; key: string };
  rebuildMs: number;
  bound: ReadModel<unknown>["bound"];
  build: (sqlite: Database, gen: number) => T;
  size: (value: T) => ReadModelSize;
}): Structure<T> {
  const model: Structure<T> = defineReadModel<StructureState<T>, Structure<T>>({
    name: o.name,
    tables: o.tables,
    generations: [`${o.counter.table}.${o.counter.key}`],
    bound: o.bound,
    create: () => ({ value: null, lastBuild: -Infinity }),
    size: (s) => (s.value ? o.size(s.value) : { bytes: 0, entries: 0 }),
    current(sqlite, now = performance.now()) {
      const s = readModelsOf(sqlite).of(model);
      const gen = generation(sqlite, o.counter.table, o.counter.key);
      if (s.value?.gen === gen) return s.value;
      if (now - s.lastBuild < o.rebuildMs) return null;
      s.lastBuild = now;
      s.value = o.build(sqlite, gen);
      return s.value;
    },
    peek: (sqlite) => readModelsOf(sqlite).peek(model)?.value ?? null,
  });
  return model;
}

// ---- Answers --------------------------------------------------------------------------------------

/** Answers of one generation: a byte-bounded map (in the shared budget) and its lookups. */
export class Answers<V, K = string> {
  /** The counters' value the answers were read at. */
  at: number | string = -1;
  /** Lookups answered from memory, and read anew (loadout_catalog_cache_lookups_total). */
  hits = 0;
  misses = 0;
  readonly lru: BytesLru<V, K>;
  constructor(
    maxBytes: number,
    readonly sizeOf: (key: K, value: V) => number,
    private readonly maxEntries = Infinity,
  ) {
    this.lru = new BytesLru<V, K>(maxBytes, sizeOf);
  }

  /** The answer for `key`: from memory, or `compute()` (a throw keeps nothing). */
  get(key: K, compute: () => V): V {
    // get: a hit counts as a use, so an answer asked for again outlives others in the shared
    // budget (least recently used out first across every cache).
    const hit = this.lru.get(key);
    if (hit !== undefined) {
      this.hits++;
      return hit;
    }
    this.misses++;
    const v = compute();
    this.set(key, v);
    return v;
  }

  set(key: K, value: V): void {
    this.lru.set(key, value);
    if (this.lru.size > this.maxEntries) this.lru.evictOldest(key);
  }

  /**
   * The values of several keys, in their order; those not held are computed together
   * (`computeMissing` gives what exists of them; a key it leaves out is left out of the answer).
   * Parts of an answer, not answers: not counted as hits or misses.
   */
  many(keys: readonly K[], computeMissing: (missing: K[]) => Map<K, V>): V[] {
    const out = new Array<V | undefined>(keys.length);
    let missing: K[] | null = null;
    for (let i = 0; i < keys.length; i++) {
      const hit = this.lru.peek(keys[i]!);
      if (hit !== undefined) out[i] = hit;
      else (missing ??= []).push(keys[i]!);
    }
    if (missing === null) return out as V[];
    const got = computeMissing(missing);
    for (const [k, v] of got) this.set(k, v);
    const res: V[] = [];
    for (let i = 0; i < keys.length; i++) {
      const v = out[i] ?? got.get(keys[i]!);
      if (v !== undefined) res.push(v);
    }
    return res;
  }

  size(): ReadModelSize {
    return { bytes: this.lru.bytes, entries: this.lru.size };
  }
}

export interface AnswersModel<V, K = string> extends ReadModel<Answers<V, K>> {
  /** This connection's answers, emptied first when the counters moved since the last lookup. */
  current(sqlite: Database): Answers<V, K>;
  /** The answers without a lookup of the counters (the metrics). */
  peek(sqlite: Database): Answers<V, K> | undefined;
  readonly counters: Counters;
}

/** Answers kept by key while the generation counters `counters` stand. */
export function answersModel<V, K = string>(o: {
  name: string;
  tables: readonly string[];
  counters: Counters;
  maxBytes: number;
  maxEntries?: number;
  sizeOf: (key: K, value: V) => number;
}): AnswersModel<V, K> {
  const model: AnswersModel<V, K> = defineReadModel<Answers<V, K>, AnswersModel<V, K>>({
    name: o.name,
    tables: o.tables,
    generations: counterNames(o.counters),
    bound: o.maxEntries !== undefined && o.maxEntries < Infinity ? { entries: o.maxEntries } : { bytes: o.maxBytes },
    counters: o.counters,
    create: () => new Answers<V, K>(o.maxBytes, o.sizeOf, o.maxEntries),
    size: (s) => s.size(),
    drop: (s) => s.lru.clear(),
    current(sqlite) {
      const s = readModelsOf(sqlite).of(model);
      const at = countersAt(sqlite, o.counters);
      if (at !== s.at) {
        s.lru.clear();
        s.at = at;
      }
      return s;
    },
    peek: (sqlite) => readModelsOf(sqlite).peek(model),
  });
  return model;
}

/** An answer and the clock times (inclusive) at which the read that made it gives the same. */
interface Timed<V> {
  value: V;
  from: number;
  until: number;
}

/** Answers that also hold only while the clock stays in the span each read says. */
export class TimedAnswers<V> {
  hits = 0;
  misses = 0;
  at: number | string = -1;
  readonly lru: BytesLru<Timed<V>>;
  constructor(maxBytes: number, sizeOf: (key: string, value: V) => number) {
    this.lru = new BytesLru<Timed<V>>(maxBytes, (k, a) => sizeOf(k, a.value));
  }

  /** The answer kept for `key` if it holds at `now`, counted as a hit or a miss. */
  get(key: string, now: number): V | undefined {
    const a = this.lru.get(key);
    if (a && (now < a.from || now > a.until)) this.lru.delete(key);
    else if (a) {
      this.hits++;
      return a.value;
    }
    this.misses++;
    return undefined;
  }

  /** Keeps an answer read at `now` for the span it holds (not kept if `now` is outside it). */
  keep(key: string, now: number, value: V, from: number, until: number): void {
    if (from <= now && now <= until) this.lru.set(key, { value, from, until });
  }

  size(): ReadModelSize {
    return { bytes: this.lru.bytes, entries: this.lru.size };
  }
}

export interface TimedAnswersModel<V> extends ReadModel<TimedAnswers<V>> {
  /** This connection's answers, emptied first when a counter moved since the last lookup. */
  current(sqlite: Database): TimedAnswers<V>;
  peek(sqlite: Database): TimedAnswers<V> | undefined;
}

/**
 * Timed answers kept while every one of `counters` stands (the value of each table's counters
 * together). The key given to `current` adds to them (a series key by its server's generation).
 */
export function timedAnswersModel<V>(o: {
  name: string;
  tables: readonly string[];
  counters: readonly Counters[];
  maxBytes: number;
  sizeOf: (key: string, value: V) => number;
}): TimedAnswersModel<V> {
  const model: TimedAnswersModel<V> = defineReadModel<TimedAnswers<V>, TimedAnswersModel<V>>({
    name: o.name,
    tables: o.tables,
    generations: o.counters.flatMap(counterNames),
    bound: { bytes: o.maxBytes },
    create: () => new TimedAnswers<V>(o.maxBytes, o.sizeOf),
    size: (s) => s.size(),
    drop: (s) => s.lru.clear(),
    current(sqlite) {
      const s = readModelsOf(sqlite).of(model);
      const at = o.counters.length === 1 ? countersAt(sqlite, o.counters[0]!) : o.counters.map((c) => countersAt(sqlite, c)).join("/");
      if (at !== s.at) {
        s.lru.clear();
        s.at = at;
      }
      return s;
    },
    peek: (sqlite) => readModelsOf(sqlite).peek(model),
  });
  return model;
}
