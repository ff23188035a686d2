// The catalog's full-text search in memory. A search of two common words is costly in FTS5
// (two long prefix doclists merged, then bm25() reading every match's size from the docsize
// table; figures in docs/performance.md and docs/catalog.md "Speed at scale"). This module answers
// the same question from arrays: it holds FTS5's own index of mods_fts (every term, every row
// it occurs in, with the row's bm25 frequency already weighted by column) and ranks with the
// same formula as SQLite's bm25() (ext/fts5/fts5_aux.c, fts5Bm25Function/fts5Bm25GetData),
// so a search answers exactly what the SQL path answers: same matches, same order, same total.
//
// Exactness comes from reading FTS5's own data rather than tokenizing again: the postings come
// from an fts5vocab 'instance' table over mods_fts (the terms the unicode61 tokenizer produced),
// each row's length from mods_fts_docsize, the row count and total length from the averages
// record (mods_fts_data id 1) — the inputs bm25() reads. A query word is folded by the same
// tokenizer: ASCII words by lower-casing (unicode61 on ASCII is exactly that), others by a
// private in-memory FTS5 table with the same tokenizer. Anything it cannot answer exactly (a
// word the tokenizer splits or drops) returns null and the SQL path answers.
//
// Staleness: triggers move catalog_state.fts_gen on every write that changes what mods_fts
// holds (src/db/custom/95_catalog_search_gen.sql); an index of another generation is never
// used. Building reads every instance of the index (docs/catalog.md gives the cost), so a stale
// index is rebuilt on a read at most once every REBUILD_MS; in between (a crawl writing) SQL
// answers.
import { Database, type Statement } from "bun:sqlite";
import { structureModel } from "../../db/read-models";

/** bm25() column weights of the catalog search: name, author_name, summary, tags_json. */
export const BM25_WEIGHTS = { name: 10, author_name: 3, summary: 1, tags_json: 2 } as const;
/** The same weights as the arguments of SQL's bm25(mods_fts, …) (column order of mods_fts). */
export const BM25_ARGS = Object.values(BM25_WEIGHTS).map((w) => w.toFixed(1)).join(", ");
/** mods_fts's tokenizer (src/db/custom/30_catalog.sql). */
export const FTS_TOKENIZE = "unicode61 remove_diacritics 2";

/** A word of a search: matched as a prefix of a term, or (one-letter words) as a whole term. */
export interface SearchWord {
  text: string;
  prefix: boolean;
}

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
  /** Zeros, one per rowid: where a prefix of several terms sums its frequencies (left zeroed). */
  scratch: Float64Array;
  bytes: number;
}

/** bm25()'s constants (fts5_aux.c). */
const K1 = 1.2;
const B = 0.75;
/** Cached prefix phrases hold at most this many postings in all. */
const PHRASE_CACHE_POSTINGS = 1_000_000;

/** Between two builds at least this long passes (stale reads in between use SQL). */
export const REBUILD_MS = 10_000;

/** SQLite's varint (record format): up to 9 bytes, big-endian groups of 7 bits. */
function varints(b: Uint8Array): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < b.length) {
    let v = 0;
    let n = 0;
    for (;;) {
      const c = b[i++]!;
      if (n === 8) {
        v = v * 256 + c;
        break;
      }
      v = v * 128 + (c & 0x7f);
      n++;
      if (!(c & 0x80)) break;
    }
    out.push(v);
  }
  return out;
}

export function buildSearchIndex(sqlite: Database, gen: number): SearchIndex {
  const t0 = performance.now();
  sqlite.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.mods_fts_instances USING fts5vocab(main, 'mods_fts', 'instance')");
  return sqlite.transaction(() => {
    const avg = sqlite.query("SELECT block FROM mods_fts_data WHERE id = 1").get() as { block: Uint8Array } | null;
    const totals = avg ? varints(avg.block) : [0];
    const nRow = totals[0]!;
    let nToken = 0;
    for (let i = 1; i < totals.length; i++) nToken += totals[i]!;
    const maxRow = (sqlite.query("SELECT coalesce(max(id), 0) AS m FROM mods_fts_docsize").get() as { m: number }).m;
    const size = new Int32Array(maxRow + 1);
    for (const [id, sz] of sqlite.query("SELECT id, sz FROM mods_fts_docsize").values() as [number, Uint8Array][]) {
      let d = 0;
      for (const v of varints(sz)) d += v;
      size[id] = d;
    }
    const weight = BM25_WEIGHTS as Record<string, number>;
    const inst = sqlite.query("SELECT term, doc, col FROM temp.mods_fts_instances").values() as [string, number, string][];
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

let folder: { put: Statement; read: Statement; clear: Statement } | null = null;
const folded = new Map<string, string | null>();

/**
 * The term FTS5 makes of one word of a search, or null when its tokenizer does not make exactly
 * one term of it (then only FTS5 itself can say what the word matches).
 */
export function foldWord(word: string): string | null {
  if (/^[\x00-\x7f]*$/.test(word)) return /^[A-Za-z0-9]+$/.test(word) ? word.toLowerCase() : null;
  const hit = folded.get(word);
  if (hit !== undefined) return hit;
  if (!folder) {
    const db = new Database(":memory:");
    db.exec(`CREATE VIRTUAL TABLE f USING fts5(x, tokenize='${FTS_TOKENIZE}')`);
    db.exec("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'instance')");
    folder = { put: db.prepare("INSERT INTO f(rowid, x) VALUES (1, ?)"), read: db.prepare("SELECT term FROM v"), clear: db.prepare("DELETE FROM f") };
  }
  folder.put.run(word);
  const terms = folder.read.values() as [string][];
  folder.clear.run();
  const term = terms.length === 1 ? terms[0]![0] : null;
  if (folded.size >= 10_000) folded.delete(folded.keys().next().value!);
  folded.set(word, term);
  return term;
}

// -- matching and ranking --------------------------------------------------------------------

/** The rows matching one word (ascending) with the word's weighted frequency in each. */
interface Phrase {
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
interface Bits {
  words: Uint32Array;
  before: Int32Array;
}
const BITS_BYTES = 4 * 2 ** 20;
const bitsHeld = new WeakMap<SearchIndex, number>();

/** First position in the sorted terms whose term is ≥ t. */
function lowerBound(ix: SearchIndex, t: string): number {
  let lo = 0;
  let hi = ix.sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ix.terms[ix.sorted[mid]!]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The terms a word matches: the term itself, or (a prefix) every term starting with it. */
function termIds(ix: SearchIndex, term: string, prefix: boolean): number[] {
  const ids: number[] = [];
  for (let i = lowerBound(ix, term); i < ix.sorted.length; i++) {
    const t = ix.terms[ix.sorted[i]!]!;
    if (prefix ? !t.startsWith(term) : t !== term) break;
    ids.push(ix.sorted[i]!);
  }
  return ids;
}

/** A phrase kept in the index's phrase cache, counted as a use. */
function cachedPhrase(ix: SearchIndex, key: string): Phrase | undefined {
  const hit = ix.phrases.get(key);
  if (hit) {
    ix.phrases.delete(key);
    ix.phrases.set(key, hit);
  }
  return hit;
}

function phraseOf(ix: SearchIndex, term: string, prefix: boolean): Phrase {
  const key = (prefix ? "*" : "=") + term;
  const hit = cachedPhrase(ix, key);
  if (hit) return hit;
  const ids = termIds(ix, term, prefix);
  if (ids.length === 1) {
    // One term: its postings as they are (kept per index, so a bitmap made for it is kept too).
    let held = termPhrases.get(ix);
    if (!held) termPhrases.set(ix, (held = new Map()));
    let p = held.get(ids[0]!);
    if (!p) {
      const [a, b] = [ix.start[ids[0]!]!, ix.start[ids[0]! + 1]!];
      held.set(ids[0]!, (p = { docs: ix.docs.subarray(a, b), freq: ix.freq.subarray(a, b) }));
    }
    return p;
  }
  // A prefix of several terms: the row's frequency is the sum over them (each instance counts).
  const acc = ix.scratch;
  const touched: number[] = [];
  for (const id of ids) {
    for (let j = ix.start[id]!; j < ix.start[id + 1]!; j++) {
      const d = ix.docs[j]!;
      if (acc[d] === 0) touched.push(d);
      acc[d]! += ix.freq[j]!;
    }
  }
  return keepSummed(ix, key, touched);
}

/**
 * A word's phrase restricted to the name column (`name : "word"*`): the rows whose name holds a
 * matching term, each with bm25()'s frequency of it there (the name's weight once per instance,
 * summed as fts5_aux.c sums them). Made from the name postings and kept in the phrase cache.
 */
function namePhraseOf(ix: SearchIndex, term: string, prefix: boolean): Phrase {
  const key = (prefix ? "n*" : "n=") + term;
  const hit = cachedPhrase(ix, key);
  if (hit) return hit;
  const w = BM25_WEIGHTS.name;
  const count = ix.nameCount!;
  const acc = ix.scratch;
  const touched: number[] = [];
  for (const id of termIds(ix, term, prefix)) {
    for (let j = ix.nameStart[id]!; j < ix.nameStart[id + 1]!; j++) {
      const d = ix.nameDocs[j]!;
      if (acc[d] === 0) touched.push(d);
      acc[d]! += w * count[j]!; // per instance, as bm25() sums: whole numbers, so exactly the same
    }
  }
  return keepSummed(ix, key, touched);
}

/** The rows a phrase's terms summed into the index's scratch, as a phrase (the scratch left zeroed), kept in the cache. */
function keepSummed(ix: SearchIndex, key: string, touched: number[]): Phrase {
  const acc = ix.scratch;
  const docs = Int32Array.from(touched).sort();
  const freq = new Float64Array(docs.length);
  for (let i = 0; i < docs.length; i++) {
    freq[i] = acc[docs[i]!]!;
    acc[docs[i]!] = 0;
  }
  const phrase = { docs, freq };
  cachePhrase(ix, key, phrase);
  return phrase;
}

const termPhrases = new WeakMap<SearchIndex, Map<number, Phrase>>();
const cachedPostings = new WeakMap<SearchIndex, number>();
function cachePhrase(ix: SearchIndex, key: string, p: Phrase): void {
  let held = (cachedPostings.get(ix) ?? 0) + p.docs.length;
  ix.phrases.set(key, p);
  for (const [k, old] of ix.phrases) {
    if (held <= PHRASE_CACHE_POSTINGS || k === key) break;
    ix.phrases.delete(k);
    held -= old.docs.length;
  }
  cachedPostings.set(ix, held);
}

/**
 * The phrases of a search (of the name column alone with `nameOnly`), or null when a word cannot
 * be folded exactly (SQL answers).
 */
function phrasesOf(ix: SearchIndex, words: readonly SearchWord[], nameOnly = false): Phrase[] | null {
  const out: Phrase[] = [];
  for (const w of words) {
    const term = foldWord(w.text);
    if (term === null) return null;
    out.push(nameOnly ? namePhraseOf(ix, term, w.prefix) : phraseOf(ix, term, w.prefix));
  }
  return out;
}

const popcount = (x: number) => {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
};

function bitsOf(ix: SearchIndex, p: Phrase): Bits | null {
  if (p.bits) return p.bits;
  const words = new Uint32Array((ix.norm.length + 31) >>> 5);
  const held = (bitsHeld.get(ix) ?? 0) + words.length * 8;
  if (held > BITS_BYTES) return null;
  bitsHeld.set(ix, held);
  for (let j = 0; j < p.docs.length; j++) {
    const d = p.docs[j]!;
    words[d >>> 5]! |= 1 << (d & 31);
  }
  const before = new Int32Array(words.length);
  for (let w = 0, n = 0; w < words.length; w++) {
    before[w] = n;
    n += popcount(words[w]!);
  }
  return (p.bits = { words, before });
}

/**
 * intersect() over bitmaps: every 32 rows in a few word ANDs, whatever the phrases' lengths;
 * false when the bitmaps' bound is reached (nothing called).
 */
function intersectBits(ix: SearchIndex, ph: Phrase[], each: (row: number, at: Int32Array) => void): boolean {
  const bits: Bits[] = [];
  for (const p of ph) {
    const b = bitsOf(ix, p);
    if (!b) return false;
    bits.push(b);
  }
  const at = new Int32Array(ph.length);
  const n = bits[0]!.words.length;
  if (bits.length === 2) {
    // Two words (the common search): the same walk with both bitmaps in locals.
    const [a, c] = [bits[0]!.words, bits[1]!.words];
    const [ba, bc] = [bits[0]!.before, bits[1]!.before];
    for (let w = 0; w < n; w++) {
      let x = a[w]! & c[w]!;
      while (x !== 0) {
        const b = 31 - Math.clz32(x & -x);
        const below = b === 0 ? 0 : 0xffffffff >>> (32 - b);
        at[0] = ba[w]! + popcount(a[w]! & below);
        at[1] = bc[w]! + popcount(c[w]! & below);
        each((w << 5) | b, at);
        x &= x - 1;
      }
    }
    return true;
  }
  for (let w = 0; w < n; w++) {
    let x = bits[0]!.words[w]!;
    for (let i = 1; i < bits.length && x !== 0; i++) x &= bits[i]!.words[w]!;
    while (x !== 0) {
      const b = 31 - Math.clz32(x & -x);
      const below = b === 0 ? 0 : 0xffffffff >>> (32 - b);
      for (let i = 0; i < bits.length; i++) at[i] = bits[i]!.before[w]! + popcount(bits[i]!.words[w]! & below);
      each((w << 5) | b, at);
      x &= x - 1;
    }
  }
  return true;
}

/**
 * Calls `each(row, k)` for every row matching every phrase (ascending rowid), `k[i]` being the
 * row's position in phrase i.
 */
function intersect(ix: SearchIndex, ph: Phrase[], each: (row: number, at: Int32Array) => void): void {
  if (ph.some((p) => p.docs.length === 0)) return;
  let lead = 0;
  for (let i = 1; i < ph.length; i++) if (ph[i]!.docs.length < ph[lead]!.docs.length) lead = i;
  // A long shortest list: ANDing bitmaps (one word per 32 rows) costs less than walking it
  // (about one galloping step per row): from half as many rows as there are words.
  if (ph[lead]!.docs.length * 2 >= (ix.norm.length + 31) >>> 5 && intersectBits(ix, ph, each)) return;
  const at = new Int32Array(ph.length);
  const docs = ph[lead]!.docs;
  outer: for (let j = 0; j < docs.length; j++) {
    const row = docs[j]!;
    at[lead] = j;
    for (let i = 0; i < ph.length; i++) {
      if (i === lead) continue;
      const d = ph[i]!.docs;
      let k = at[i]!;
      if (k < d.length && d[k]! < row) {
        // Gallop: a common word's list is often far longer than the lead's, so skip ahead in
        // doubling steps, then search the last step (the first position whose row is ≥ row).
        let step = 1;
        let hi = k + 1;
        while (hi < d.length && d[hi]! < row) {
          k = hi;
          step *= 2;
          hi = k + step;
        }
        if (hi > d.length) hi = d.length;
        let lo = k + 1;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (d[mid]! < row) lo = mid + 1;
          else hi = mid;
        }
        k = lo;
      }
      at[i] = k;
      if (k === d.length) return;
      if (d[k] !== row) continue outer;
    }
    each(row, at);
  }
}

/** The rows matching every word (FTS5's AND of prefix phrases), ascending; null: SQL answers. */
export function matchRows(ix: SearchIndex, words: readonly SearchWord[]): Int32Array | null {
  const ph = phrasesOf(ix, words);
  if (!ph) return null;
  if (ph.length === 1) return ph[0]!.docs;
  const out: number[] = [];
  intersect(ix, ph, (row) => out.push(row));
  return Int32Array.from(out);
}

/**
 * The matching rows best first, as `ORDER BY bm25(mods_fts, weights…), rowid` orders them:
 * the first `top` of them (all when `top` is Infinity) and how many match in all. `keep`
 * filters the rows (a tag) before counting and ranking.
 */
export function rankRows(
  ix: SearchIndex,
  words: readonly SearchWord[],
  top: number,
  keep?: (row: number) => boolean,
): { rowids: Int32Array; total: number } | null {
  const ph = phrasesOf(ix, words);
  return ph && rankPhrases(ix, ph, top, keep);
}

/**
 * The rows whose name matches every word, best first, as FTS5 orders the autocomplete's
 * `name : (…)` query by its rank (bm25() with the catalog's weights, of which only the name's
 * instances count; the row's length and the averages are all columns', as bm25() reads them),
 * then rowid: the first `top`. Null: SQL answers (a word FTS5 alone can fold, or a count past
 * what the index keeps).
 */
export function rankNameRows(ix: SearchIndex, words: readonly SearchWord[], top: number): { rowids: Int32Array; total: number } | null {
  if (ix.nameCount === null) return null;
  const ph = phrasesOf(ix, words, true);
  return ph && rankPhrases(ix, ph, top);
}

function rankPhrases(ix: SearchIndex, ph: Phrase[], top: number, keep?: (row: number) => boolean): { rowids: Int32Array; total: number } {
  // bm25() of fts5_aux.c: IDF per phrase from the rows matching it alone, clamped to 1e-6; per
  // row, the sum over phrases in query order of idf * (f * (k1 + 1)) / (f + norm), negated.
  const idf = ph.map((p) => {
    const v = Math.log((ix.nRow - p.docs.length + 0.5) / (p.docs.length + 0.5));
    return v <= 0.0 ? 1e-6 : v;
  });
  const cap = Math.min(...ph.map((p) => p.docs.length));
  // Reused between calls (ranking is synchronous): a common word's cap is thousands of rows.
  if (rowBuf.length < cap) {
    rowBuf = new Int32Array(cap);
    scoreBuf = new Float64Array(cap);
  }
  const rows = rowBuf;
  const scores = scoreBuf;
  let n = 0;
  if (ph.length === 1) {
    const { docs, freq } = ph[0]!;
    const w = idf[0]!;
    for (let j = 0; j < docs.length; j++) {
      const row = docs[j]!;
      if (keep && !keep(row)) continue;
      const f = freq[j]!;
      rows[n] = row;
      scores[n++] = -1.0 * (0.0 + w * ((f * (K1 + 1.0)) / (f + ix.norm[row]!)));
    }
  } else if (ph.length === 2 && (n = rankTwoByBits(ix, ph, idf, keep, rows, scores)) >= 0) {
    // two words, long lists: scored inside the bitmap walk (below)
  } else {
    n = 0;
    intersect(ix, ph, (row, at) => {
      if (keep && !keep(row)) return;
      const nm = ix.norm[row]!;
      let s = 0.0;
      for (let i = 0; i < ph.length; i++) {
        const f = ph[i]!.freq[at[i]!]!;
        s += idf[i]! * ((f * (K1 + 1.0)) / (f + nm));
      }
      rows[n] = row;
      scores[n++] = -1.0 * s;
    });
  }
  return { rowids: best(rows, scores, n, top), total: n };
}

let rowBuf = new Int32Array(0);
let scoreBuf = new Float64Array(0);

/**
 * Two phrases whose shortest list is long (where intersect() ANDs bitmaps): the same walk with the
 * scoring inside it, as rankPhrases' general case scores (the same operations in the same order,
 * so the same numbers), without a call per match: the search's costliest part (the profile of two
 * random words). The matches' count, or -1 when intersect() would walk the lists
 * (a short list, or the bitmaps' bound reached).
 */
function rankTwoByBits(
  ix: SearchIndex,
  ph: Phrase[],
  idf: number[],
  keep: ((row: number) => boolean) | undefined,
  rows: Int32Array,
  scores: Float64Array,
): number {
  const [p0, p1] = [ph[0]!, ph[1]!];
  if (p0.docs.length === 0 || p1.docs.length === 0) return 0;
  if (Math.min(p0.docs.length, p1.docs.length) * 2 < (ix.norm.length + 31) >>> 5) return -1;
  const b0 = bitsOf(ix, p0);
  const b1 = b0 && bitsOf(ix, p1);
  if (!b0 || !b1) return -1;
  const [a, c, ba, bc] = [b0.words, b1.words, b0.before, b1.before];
  const [f0s, f1s, norm] = [p0.freq, p1.freq, ix.norm];
  const [i0, i1] = [idf[0]!, idf[1]!];
  let n = 0;
  for (let w = 0; w < a.length; w++) {
    let x = a[w]! & c[w]!;
    while (x !== 0) {
      const b = 31 - Math.clz32(x & -x);
      x &= x - 1;
      const row = (w << 5) | b;
      if (keep && !keep(row)) continue;
      const below = b === 0 ? 0 : 0xffffffff >>> (32 - b);
      const f0 = f0s[ba[w]! + popcount(a[w]! & below)]!;
      const f1 = f1s[bc[w]! + popcount(c[w]! & below)]!;
      const nm = norm[row]!;
      let s = 0.0;
      s += i0 * ((f0 * (K1 + 1.0)) / (f0 + nm));
      s += i1 * ((f1 * (K1 + 1.0)) / (f1 + nm));
      rows[n] = row;
      scores[n++] = -1.0 * s;
    }
  }
  return n;
}

/** The rows of the `top` lowest scores (ties: lower rowid first), in that order. */
function best(rows: Int32Array, scores: Float64Array, n: number, top: number): Int32Array {
  const cmp = (a: number, c: number) => scores[a]! - scores[c]! || rows[a]! - rows[c]!;
  let picked: Int32Array;
  if (top >= n) {
    picked = new Int32Array(n);
    for (let i = 0; i < n; i++) picked[i] = i;
  } else {
    // A bounded max-heap of the best `top` seen so far, its worst on top.
    const heap = new Int32Array(top);
    let size = 0;
    for (let i = 0; i < n; i++) {
      if (size < top) {
        let k = size++;
        heap[k] = i;
        while (k > 0) {
          const p = (k - 1) >> 1;
          if (cmp(heap[k]!, heap[p]!) <= 0) break;
          const x = heap[k]!;
          heap[k] = heap[p]!;
          heap[p] = x;
          k = p;
        }
      } else if (top > 0 && cmp(i, heap[0]!) < 0) {
        heap[0] = i;
        let k = 0;
        for (;;) {
          const l = 2 * k + 1;
          const r = l + 1;
          let m = k;
          if (l < size && cmp(heap[l]!, heap[m]!) > 0) m = l;
          if (r < size && cmp(heap[r]!, heap[m]!) > 0) m = r;
          if (m === k) break;
          const x = heap[k]!;
          heap[k] = heap[m]!;
          heap[m] = x;
          k = m;
        }
      }
    }
    picked = heap.subarray(0, size);
  }
  picked.sort(cmp);
  const out = new Int32Array(picked.length);
  for (let i = 0; i < picked.length; i++) out[i] = rows[picked[i]!]!;
  return out;
}
