// The catalog's full-text search in memory (docs/catalog.md "Speed at scale"). A search of two
// common words is costly in FTS5 (two long prefix doclists merged, then bm25() reading every
// match's size from its own records). This module holds FTS5's own index of mods_fts (every term,
// every row it occurs in, with the row's bm25 frequency already weighted by column);
// search-rank.ts ranks with the same formula as SQLite's bm25() (ext/fts5/fts5_aux.c,
// fts5Bm25Function/fts5Bm25GetData), so a search answers exactly what the SQL path answers: same
// matches, same order, same total.
//
// Exactness comes from reading FTS5's index through its public vocab rather than tokenizing
// again: the postings come from an fts5vocab 'instance' table over mods_fts (the terms the
// unicode61 tokenizer produced), each row's length from its number of instances, the row count
// from the catalog entries the index holds (repository.ts searchSource) — the inputs bm25() reads
// from FTS5's private records. A query word is folded by the same tokenizer: ASCII words by
// lower-casing (unicode61 on ASCII is exactly that), others by a private in-memory FTS5 table with
// the same tokenizer. Anything it cannot answer exactly (a word the tokenizer splits or drops)
// returns null and the SQL path answers.
//
// Staleness: triggers move catalog_state.fts_gen on every write that changes what mods_fts
// holds (src/db/custom/95_catalog_search_gen.sql); an index of another generation is never
// used (it is a read model: docs/architecture.md "Derived reads"). Building reads every instance
// of the index (docs/catalog.md gives the cost), so a stale index is rebuilt on a read at most
// once every REBUILD_MS; in between (a crawl writing) SQL answers.
import type { Database } from "bun:sqlite";
import { structureModel } from "../../db/read-models";
import { BM25_WEIGHTS, ensureSearchVocab, searchSource, tokenize } from "./repository";

export { BM25_ARGS, BM25_WEIGHTS, FTS_TOKENIZE, type SearchWord } from "./repository";

export interface SearchIndex {
  gen: number;
  builtAt: number;
  buildMs: number;
  /** Rows of mods_fts (catalog entries) and their average length in tokens, as bm25() sees them. */
  nRow: number;
  avgdl: number;
  /** Distinct terms, and the order that sorts them (JavaScript string order, for prefix ranges). */
  terms: string[];
  sorted: Int32Array;
  /** Postings of term t: rowids docs[start[t]..start[t+1]) ascending, with their weighted frequency. */
  start: Int32Array;
  docs: Int32Array;
  freq: Float64Array;
  /**
   * The name column's own postings (the autocomplete's `name : (…)` query, ranked by bm25() with
   * only the name's instances counted): term t's rows nameDocs[nameStart[t]..nameStart[t+1])
   * ascending, with how many times the term is in the row's name. Null when a count would not
   * fit (then FTS5 answers the autocomplete).
   */
  nameStart: Int32Array;
  nameDocs: Int32Array;
  nameCount: Uint16Array | null;
  /** rowid → tokens in the row (all columns). */
  size: Int32Array;
  /** rowid → bm25()'s length term of the row, k1 * (1 - b + b * D / avgdl), computed as it computes it. */
  norm: Float64Array;
  /** Phrases of prefixes that cover several terms (their merge is the costly part), recently used. */
  phrases: Map<string, Phrase>;
  /** What the ranking keeps with the index (search-rank.ts): one term's phrase, postings and bitmap bytes held. */
  held: { termPhrases: Map<number, Phrase>; postings: number; bits: number };
  /** Zeros, one per rowid: where a prefix of several terms sums its frequencies (left zeroed). */
  scratch: Float64Array;
  bytes: number;
}

/** The rows matching one word (ascending) with the word's weighted frequency in each. */
export interface Phrase {
  docs: Int32Array;
  freq: Float64Array;
  /** The rows as a bitmap, made on first use by a long intersection (bitsOf). */
  bits?: Bits;
}

/**
 * A phrase's rows as one bit per rowid, and per 32-bit word the rows before it: a row's position
 * in `docs` is `before[w]` plus the set bits below it in word w. ~10 KB at 42,000 mods, made only
 * for phrases met in an intersection whose shortest list is long (see intersect), at most
 * BITS_BYTES in all per index (then lists are walked).
 */
export interface Bits {
  words: Uint32Array;
  before: Int32Array;
}
/** bm25()'s constants (fts5_aux.c). */
export const K1 = 1.2;
export const B = 0.75;

/** Between two builds at least this long passes (stale reads in between use SQL). */
export const REBUILD_MS = 10_000;

export function buildSearchIndex(sqlite: Database, gen: number): SearchIndex {
  const t0 = performance.now();
  ensureSearchVocab(sqlite);
  return sqlite.transaction(() => {
    const { rows: nRow, instances: inst } = searchSource(sqlite);
    // Each row's length in tokens (all columns) is its number of instances, and their total the
    // index's: what FTS5 keeps in its own size records, counted here from the public vocab.
    let maxRow = 0;
    for (let i = 0; i < inst.length; i++) if (inst[i]![1] > maxRow) maxRow = inst[i]![1];
    const size = new Int32Array(maxRow + 1);
    for (let i = 0; i < inst.length; i++) size[inst[i]![1]]!++;
    const nToken = inst.length;
    const weight = BM25_WEIGHTS as Record<string, number>;
    const terms: string[] = [];
    const starts: number[] = [];
    const docs = new Int32Array(inst.length);
    const freq = new Float64Array(inst.length);
    // The name column's postings: instances come ordered by term, row, column.
    const nameStarts: number[] = [];
    const nameDocs: number[] = [];
    const nameCounts: number[] = [];
    let n = 0;
    let term: string | null = null;
    for (const [t, doc, col] of inst) {
      const w = weight[col] ?? 1;
      if (t !== term) nameStarts.push(nameDocs.length);
      if (col === "name") {
        const last = nameDocs.length - 1;
        if (t === term && last >= nameStarts[nameStarts.length - 1]! && nameDocs[last] === doc) nameCounts[last]!++;
        else {
          nameDocs.push(doc);
          nameCounts.push(1);
        }
      }
      if (t !== term) {
        term = t;
        terms.push(t);
        starts.push(n);
      } else if (docs[n - 1] === doc) {
        freq[n - 1]! += w;
        continue;
      }
      docs[n] = doc;
      freq[n] = w;
      n++;
    }
    starts.push(n);
    nameStarts.push(nameDocs.length);
    const nameCount = nameCounts.some((c) => c > 0xffff) ? null : Uint16Array.from(nameCounts);
    const avgdl = nRow > 0 ? nToken / nRow : 0;
    const norm = new Float64Array(maxRow + 1);
    for (let r = 0; r <= maxRow; r++) norm[r] = K1 * (1 - B + (B * size[r]!) / avgdl);
    const sorted = Int32Array.from(terms.keys()).sort((a, b) => (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0));
    const d = docs.slice(0, n);
    const f = freq.slice(0, n);
    return Object.freeze({
      gen,
      builtAt: Date.now(),
      buildMs: performance.now() - t0,
      nRow,
      avgdl,
      terms,
      sorted,
      start: Int32Array.from(starts),
      docs: d,
      freq: f,
      nameStart: Int32Array.from(nameStarts),
      nameDocs: Int32Array.from(nameDocs),
      nameCount,
      size,
      norm,
      phrases: new Map(),
      held: { termPhrases: new Map(), postings: 0, bits: 0 },
      scratch: new Float64Array(maxRow + 1),
      bytes:
        d.byteLength + f.byteLength + 5 * size.byteLength + 8 * starts.length + 6 * nameDocs.length + terms.reduce((s, t) => s + 40 + 2 * t.length, 0),
    });
  })();
}

/** The read model: the search index of one fts_gen, per connection. */
export const searchModel = structureModel({
  name: "catalog.search",
  tables: ["mods"],
  counter: { table: "catalog_state", key: "fts_gen" },
  rebuildMs: REBUILD_MS,
  bound: { bytes: 32 * 2 ** 20 },
  build: buildSearchIndex,
  size: (ix) => ({ bytes: ix.bytes, entries: ix.terms.length }),
});
const indexes = searchModel;

/**
 * The search index of the current generation, built now if allowed (first use, or the last
 * build was REBUILD_MS ago), or null: then the caller answers from SQL.
 */
export const searchIndex: (sqlite: Database, now?: number) => SearchIndex | null = indexes.current;

/** The index last built (for the metrics), whatever its generation. */
export const peekSearchIndex: (sqlite: Database) => SearchIndex | null = indexes.peek;

// -- query words, folded as mods_fts's tokenizer folds them ------------------------------------

const folded = new Map<string, string | null>();

/**
 * The term FTS5 makes of one word of a search, or null when its tokenizer does not make exactly
 * one term of it (then only FTS5 itself can say what the word matches).
 */
export function foldWord(word: string): string | null {
  if (/^[\x00-\x7f]*$/.test(word)) return /^[A-Za-z0-9]+$/.test(word) ? word.toLowerCase() : null;
  const hit = folded.get(word);
  if (hit !== undefined) return hit;
  const terms = tokenize(word);
  const term = terms.length === 1 ? terms[0]! : null;
  if (folded.size >= 10_000) folded.delete(folded.keys().next().value!);
  folded.set(word, term);
  return term;
}

