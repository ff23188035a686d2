// Matching and ranking over the catalog's search index (search-index.ts): a search's words as
// phrases (one term's postings, or a prefix's terms summed), their intersection (galloping
// through lists, or ANDing bitmaps when the shortest list is long), and bm25() as fts5_aux.c
// computes it, best first with ties by rowid. What it keeps (phrases, bitmaps) is bounded and
// held by the index it was made from.
import { BM25_WEIGHTS, B, foldWord, K1, type Bits, type Phrase, type SearchIndex, type SearchWord } from "./search-index";

/** Cached prefix phrases hold at most this many postings in all. */
const PHRASE_CACHE_POSTINGS = 1_000_000;
const BITS_BYTES = 4 * 2 ** 20;

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
    const held = ix.held.termPhrases;
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

function cachePhrase(ix: SearchIndex, key: string, p: Phrase): void {
  let held = ix.held.postings + p.docs.length;
  ix.phrases.set(key, p);
  for (const [k, old] of ix.phrases) {
    if (held <= PHRASE_CACHE_POSTINGS || k === key) break;
    ix.phrases.delete(k);
    held -= old.docs.length;
  }
  ix.held.postings = held;
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
  const held = ix.held.bits + words.length * 8;
  if (held > BITS_BYTES) return null;
  ix.held.bits = held;
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
