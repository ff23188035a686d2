// The live list's word search (docs/live.md "The live list from memory"), built on a
// snapshot's first request that needs it and kept with the snapshot: the words of every row's
// search text, sorted, each with the rows holding it. A search word (" w", found in a text exactly
// when w starts one of its space-separated words) is a binary search and the union of the few
// words it starts, instead of an indexOf pass over the text of all servers; the rows of recent
// words are kept (SEARCH_WORD_CACHE_BYTES).
import { BytesLru } from "../../../shared/bytes-lru";
import { NAME_END } from "../search";
import { SnapshotSlot, type LiveSnapshot } from "./types";

/** A kept array's bytes (its length and key). */
export const arraySize = (k: string, v: { byteLength: number }) => v.byteLength + k.length * 2 + 64;

/** At most this many bytes of candidate rows (per asked mods and search words) are kept a snapshot. */
export const SEARCH_WORD_CACHE_BYTES = 2 * 2 ** 20;

export interface WordIndex {
  /** Distinct words of the search texts, sorted (UTF-16 code units, as `startsWith` compares). */
  words: string[];
  /**
   * For word k, the rows holding it are rows[at[k] .. at[k + 1]): first those holding it in their
   * name, up to named[k], then those holding it in their scenario only, each part ascending: one
   * array for every word, not one each.
   */
  rows: Int32Array;
  at: Int32Array;
  named: Int32Array;
  bytes: number;
  /** Rows of recent filters (mods and search words → rows), least recently used first out. */
  recent: BytesLru<Int32Array>;
}

const wordIndexes = new SnapshotSlot<WordIndex>();

/** The snapshot's word index (built on first use). */
export function wordIndex(s: LiveSnapshot): WordIndex {
  return wordIndexes.of(s, () => buildWordIndex(s));
}

/** What the word index of a snapshot holds (the metrics): bytes, 0 before the first search. */
export function wordIndexBytes(s: LiveSnapshot): number {
  const ix = wordIndexes.peek(s);
  return ix ? ix.bytes + ix.recent.bytes : 0;
}

function buildWordIndex(s: LiveSnapshot): WordIndex {
  // Per word: its rows (ascending) holding it in the name, then those holding it in the scenario only.
  const lists = new Map<string, { name: number[]; rest: number[] }>();
  for (let i = 0; i < s.rows.length; i++) {
    // A word follows a space: what comes before the first space is not one (" w" cannot end there).
    const text = s.rows[i]!.search_text;
    const parts = text.split(" ");
    // " w" at `space` is in the name (nameHolds) when it starts before the first NAME_END.
    const nameEnd = text.indexOf(NAME_END);
    let space = parts[0]!.length;
    for (let k = 1; k < parts.length; space += parts[k]!.length + 1, k++) {
      const w = parts[k]!;
      if (w === "") continue;
      let l = lists.get(w);
      if (!l) lists.set(w, (l = { name: [], rest: [] }));
      if (space < nameEnd) {
        if (l.name[l.name.length - 1] !== i) l.name.push(i);
      } else if (l.name[l.name.length - 1] !== i && l.rest[l.rest.length - 1] !== i) l.rest.push(i);
    }
  }
  const words = [...lists.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let total = 0;
  for (const l of lists.values()) total += l.name.length + l.rest.length;
  const rows = new Int32Array(total);
  const at = new Int32Array(words.length + 1);
  const named = new Int32Array(words.length);
  let bytes = rows.byteLength + at.byteLength + named.byteLength;
  for (let k = 0, p = 0; k < words.length; k++) {
    const l = lists.get(words[k]!)!;
    at[k] = p;
    rows.set(l.name, p);
    p += l.name.length;
    named[k] = p;
    rows.set(l.rest, p);
    p += l.rest.length;
    bytes += words[k]!.length * 2 + 32;
  }
  at[words.length] = total;
  return { words, rows, at, named, bytes, recent: new BytesLru<Int32Array>(SEARCH_WORD_CACHE_BYTES, arraySize) };
}

/**
 * The rows running every mod (all known to the snapshot) whose search text holds every word:
 * kept per snapshot by the asked mods and words (SEARCH_WORD_CACHE_BYTES, least recently used out).
 */
export function candidatesOf(s: LiveSnapshot, mods: string[], words: string[]): Int32Array {
  const ix = wordIndex(s);
  const key = [...mods].sort().join(",") + "\u0000" + words.join("");
  const kept = ix.recent.get(key);
  if (kept) return kept;
  const sets = mods.map((m) => s.byMod.get(m)!);
  for (const w of words) sets.push(rowsWithWord(s, ix, w));
  const out = intersect(sets, s.rows.length);
  ix.recent.set(key, out);
  return out;
}

/** The first indexed word not before w (binary search). */
export function firstWord(ix: WordIndex, w: string): number {
  let lo = 0;
  let hi = ix.words.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ix.words[mid]! < w) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Rows whose search text holds `needle` (" w"): rows of every indexed word that starts with w (each once, in no set order: its callers make bitsets or count). */
function rowsWithWord(s: LiveSnapshot, ix: WordIndex, needle: string): Int32Array {
  const w = needle.slice(1);
  if (w === "" || w.includes(" ") || needle[0] !== " ") return rowsByIndexOf(s, needle); // never from parseServerSearch
  const lo = firstWord(ix, w);
  let end = lo;
  while (end < ix.words.length && ix.words[end]!.startsWith(w)) end++;
  if (end - lo === 1) return ix.rows.subarray(ix.at[lo]!, ix.at[end]!);
  const hit = new Uint8Array(s.rows.length);
  let n = 0;
  for (let k = lo; k < end; k++) {
    for (let j = ix.at[k]!, e = ix.at[k + 1]!; j < e; j++) {
      const r = ix.rows[j]!;
      if (!hit[r]) (hit[r] = 1), n++;
    }
  }
  const out = new Int32Array(n);
  for (let i = 0, j = 0; i < hit.length && j < n; i++) if (hit[i]) out[j++] = i;
  return out;
}

/** The rows whose search text holds `needle`, by indexOf over every row (a needle the index cannot answer). */
function rowsByIndexOf(s: LiveSnapshot, needle: string): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < s.rows.length; i++) if (s.rows[i]!.search_text.includes(needle)) out.push(i);
  return Int32Array.from(out);
}

/** Rows in every one of the sets (each holding a row at most once), in the largest set's order. */
function intersect(sets: Int32Array[], n: number): Int32Array {
  if (sets.length === 1) return sets[0]!;
  const sorted = [...sets].sort((a, b) => a.length - b.length);
  const counts = new Uint8Array(n);
  for (let k = 0; k < sorted.length - 1; k++) {
    const set = sorted[k]!;
    for (let j = 0; j < set.length; j++) if (counts[set[j]!] === k) counts[set[j]!] = k + 1;
  }
  // The largest set last: keep its rows found in all the others.
  const last = sorted[sorted.length - 1]!;
  const need = sorted.length - 1;
  const out: number[] = [];
  for (let j = 0; j < last.length; j++) if (counts[last[j]!] === need) out.push(last[j]!);
  return Int32Array.from(out);
}
