// GET /game-servers from the live snapshot (docs/live.md "The live list from memory"): a
// request ANDs row bitsets kept per snapshot (the asked mods and words' candidates, flag values,
// tags, player and size bounds), then walks the order of its sort and stops after offset + limit
// matches (or marks the positions of a few matches); the page is copied from the entries' UTF-8
// bytes, and kept per snapshot while no held row has left the online window.
import { BytesLru } from "../../../shared/bytes-lru";
import { nameHolds, parseServerSearch } from "../search";
import type { ListQuery, ServerEntry } from "../model";
import { toEntry } from "../entry";
import type { ServerRow } from "../repository/servers";
import { rankBytes, rankOf } from "./orders";
import { arraySize, candidatesOf, firstWord, wordIndex, wordIndexBytes } from "./word-search";
import { SnapshotSlot, type LiveSnapshot } from "./types";

/** GET /game-servers from the snapshot: the same rows, order and page as the SQL path. */
export function querySnapshot(s: LiveSnapshot, q: ListQuery, since: number): ServerEntry[] {
  const entries = entriesOf(s);
  return pageIndexes(s, q, since).map((i) => entries[i]!);
}

const entryObjects = new SnapshotSlot<readonly ServerEntry[]>();

/**
 * Every row's entry as a (frozen) object, built on first use: only the test app's strictly
 * validated answers (querySnapshot) and the tests read them; the route sends entryBytes.
 */
export function entriesOf(s: LiveSnapshot): readonly ServerEntry[] {
  return entryObjects.of(s, () =>
    Object.freeze(
      s.rows.map((r) => {
        const x = toEntry(r);
        Object.freeze(x.tags);
        return Object.freeze(x);
      }),
    ),
  );
}

/**
 * The same page as UTF-8 JSON, copied from each entry's bytes (encoded once per snapshot, on the
 * first request): no string is joined or encoded per request. What the route sends.
 */
export function querySnapshotBytes(s: LiveSnapshot, q: ListQuery, since: number): Uint8Array {
  // While no held row has left the online window (the usual case between two scans: a scan sees
  // every server it keeps online), the page depends on the query alone: kept per snapshot.
  const pages = pagesOf(s);
  const cacheable = since <= columnsOf(s).minSeen;
  const key = cacheable ? JSON.stringify(q) : "";
  const hit = cacheable ? pages.get(key) : undefined;
  if (hit) return hit;
  const out = pageBytes(s, q, since);
  if (cacheable) pages.set(key, out);
  return out;
}

/** At most this many bytes of pages are kept a snapshot. */
export const PAGE_CACHE_BYTES = 8 * 2 ** 20;
const pageCaches = new SnapshotSlot<BytesLru<Uint8Array>>();
const pagesOf = (s: LiveSnapshot) => pageCaches.of(s, () => new BytesLru<Uint8Array>(PAGE_CACHE_BYTES, arraySize));

function pageBytes(s: LiveSnapshot, q: ListQuery, since: number): Uint8Array {
  const page = pageIndexes(s, q, since);
  const { entryBytes: bytes, entryAt: from } = s;
  let size = 2 + Math.max(0, page.length - 1);
  for (let k = 0; k < page.length; k++) size += from[page[k]! + 1]! - from[page[k]!]!;
  // Not zeroed: every byte is written below. Copied with Buffer#copy from the one buffer of
  // entries (no view object an entry).
  const out = Buffer.allocUnsafeSlow(size);
  out[0] = 0x5b; // [
  let at = 1;
  for (let k = 0; k < page.length; k++) {
    if (k) out[at++] = 0x2c; // ,
    const i = page[k]!;
    at += bytes.copy(out, at, from[i]!, from[i + 1]!);
  }
  out[at] = 0x5d; // ]
  return out;
}

function pageIndexes(s: LiveSnapshot, q: ListQuery, since: number): number[] {
  const search = parseServerSearch(q.search);
  const mods = [...new Set(q.mod_ids ?? [])];
  if (mods.some((m) => !s.byMod.has(m))) return [];
  // The matching rows as a bitset (bit i of word i >> 5: row i), from the per-snapshot indexes:
  // the rows of the asked mods and search words (their intersection, kept by query), the rows of
  // each flag value and asked tag (kept per snapshot); the numeric filters, the community and the
  // address pieces are then tested on the rows still set only.
  const ix = listIndex(s);
  const mask = new Uint32Array(ix.words);
  if (mods.length || search.words.length) mask.set(candidateRows(s, ix, mods, search.words));
  else mask.set(ix.all);
  if (q.official !== undefined) and(mask, ix.official[q.official ? 1 : 0]);
  if (q.password_protected !== undefined) and(mask, ix.password[q.password_protected ? 1 : 0]);
  for (const t of (q.tags ?? []).slice(0, 20)) and(mask, tagRows(s, ix, `,${t},`));
  const c = columnsOf(s);
  if (q.min_players !== undefined) {
    const m = q.min_players;
    and(mask, rowsWhere(s, ix, `p${m}`, (i) => !(c.players[i]! < m)));
  }
  if (q.max_mod_size !== undefined) {
    const m = q.max_mod_size;
    and(mask, rowsWhere(s, ix, `s${m}`, (i) => !(c.size[i]! > m)));
  }
  const hosts = search.address.length ? lowerHosts(s) : null;
  const community = q.community_id;
  // Every held row is seen since `since` while since <= minSeen (the usual case between scans).
  const checkSeen = !(since <= c.minSeen);
  if (checkSeen || community !== undefined || hosts) {
    for (let w = 0; w < mask.length; w++) {
      let bits = mask[w]!;
      let keep = bits;
      while (bits) {
        const low = bits & -bits;
        bits ^= low;
        const i = (w << 5) | (31 - Math.clz32(low));
        if (
          (checkSeen && c.seen[i]! < since) ||
          (community !== undefined && s.rows[i]!.community_id !== community) ||
          (hosts && !search.address.every((a) => hosts[i]!.includes(a)))
        )
          keep ^= low;
      }
      mask[w] = keep;
    }
  }
  // With a search, the servers whose name holds the whole query make the first part of the
  // answer and the rest follow, each in the asked order.
  const parts: Uint32Array[] = [mask];
  if (search.phrase) {
    const named = phraseRows(s, ix, search.phrase, search.words);
    const first = new Uint32Array(ix.words);
    for (let w = 0; w < mask.length; w++) {
      first[w] = mask[w]! & named[w]!;
      mask[w] = mask[w]! & ~named[w]!;
    }
    parts.unshift(first);
  }
  const order = s.order[q.sort_by];
  const out: number[] = [];
  let skip = q.offset;
  for (const part of parts) {
    const n = popCount(part);
    if (n <= skip) {
      skip -= n;
      continue;
    }
    const want = skip + q.limit - out.length;
    // A walk in the asked order meets `want` matches after about want * N / n servers; marking
    // every match's position costs about two steps a match. The cheaper of the two.
    if (want * order.length > 2 * n * n) {
      // Every match's position in the asked order as a bitset over positions, then its set bits
      // read in order: whole words skipped by their popcount, no sort.
      const rank = rankOf(s, q.sort_by);
      const pos = new Uint32Array(part.length);
      for (let w = 0; w < part.length; w++) {
        let bits = part[w]!;
        while (bits) {
          const low = bits & -bits;
          bits ^= low;
          const p = rank[(w << 5) | (31 - Math.clz32(low))]!;
          pos[p >>> 5]! |= 1 << (p & 31);
        }
      }
      for (let w = 0; w < pos.length && out.length < q.limit; w++) {
        let bits = pos[w]!;
        if (skip > 0) {
          const c = popCount1(bits);
          if (c <= skip) {
            skip -= c;
            continue;
          }
        }
        while (bits && out.length < q.limit) {
          const low = bits & -bits;
          bits ^= low;
          if (skip > 0) skip--;
          else out.push(order[(w << 5) | (31 - Math.clz32(low))]!);
        }
      }
    } else {
      // One walk in the asked order, stopping once the page is full.
      for (let k = 0; k < order.length && out.length < q.limit; k++) {
        const i = order[k]!;
        if (part[i >>> 5]! & (1 << (i & 31)) && skip-- <= 0) out.push(i);
      }
    }
    if (out.length === q.limit) break;
    skip = 0;
  }
  return out;
}

/** At most this many bytes of row bitsets (per asked tag and search phrase) are kept a snapshot. */
export const LIST_BITS_CACHE_BYTES = 1 * 2 ** 20;

interface ListIndex {
  /** 32-bit words of a row bitset (bit i & 31 of word i >> 5 is row i). */
  words: number;
  /** Every row. */
  all: Uint32Array;
  /** The rows whose official / password_protected is false (0) and true (1). */
  official: [Uint32Array, Uint32Array];
  password: [Uint32Array, Uint32Array];
  /**
   * Rows of recent filter values: tags (`,t,`), min_players (`p<n>`), max_mod_size (`s<n>`), search
   * phrases (`\u0000<phrase>`), asked mods and words (`c<mods>\u0000<words>`).
   */
  bits: BytesLru<Uint32Array>;
}
const listIndexes = new SnapshotSlot<ListIndex>();

/** The per-snapshot row bitsets of the list's filters (built on its first list request). */
const listIndex = (s: LiveSnapshot): ListIndex => listIndexes.of(s, () => buildListIndex(s));

function buildListIndex(s: LiveSnapshot): ListIndex {
  const n = s.rows.length;
  const words = (n + 31) >>> 5;
  const c = columnsOf(s);
  const of = (test: (i: number) => boolean) => {
    const b = new Uint32Array(words);
    for (let i = 0; i < n; i++) if (test(i)) b[i >>> 5]! |= 1 << (i & 31);
    return b;
  };
  return {
    words,
    all: of(() => true),
    official: [of((i) => c.official[i] === 0), of((i) => c.official[i] === 1)],
    password: [of((i) => c.password[i] === 0), of((i) => c.password[i] === 1)],
    bits: new BytesLru<Uint32Array>(LIST_BITS_CACHE_BYTES, arraySize),
  };
}

/** Clears in `mask` every row not in `rows`. */
function and(mask: Uint32Array, rows: Uint32Array): void {
  for (let w = 0; w < mask.length; w++) mask[w] = mask[w]! & rows[w]!;
}

function popCount(b: Uint32Array): number {
  let n = 0;
  for (let w = 0; w < b.length; w++) n += popCount1(b[w]!);
  return n;
}

/** Set bits of one 32-bit word. */
function popCount1(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/** The rows passing `test`, kept per snapshot under `key` (a filter and its value). */
function rowsWhere(s: LiveSnapshot, ix: ListIndex, key: string, test: (i: number) => boolean): Uint32Array {
  let b = ix.bits.get(key);
  if (!b) {
    b = new Uint32Array(ix.words);
    for (let i = 0; i < s.rows.length; i++) if (test(i)) b[i >>> 5]! |= 1 << (i & 31);
    ix.bits.set(key, b);
  }
  return b;
}

/** The rows whose tags (`,a,b,`) hold `needle` (`,t,`). */
const tagRows = (s: LiveSnapshot, ix: ListIndex, needle: string) => rowsWhere(s, ix, needle, (i) => s.tags[i]!.includes(needle));

/** The candidate rows (candidatesOf) as a bitset, kept by the asked mods and words. */
function candidateRows(s: LiveSnapshot, ix: ListIndex, mods: string[], words: string[]): Uint32Array {
  const key = "c" + [...mods].sort().join(",") + "\u0000" + words.join("");
  let b = ix.bits.get(key);
  if (!b) {
    b = new Uint32Array(ix.words);
    const rows = candidatesOf(s, mods, words);
    for (let k = 0; k < rows.length; k++) b[rows[k]! >>> 5]! |= 1 << (rows[k]! & 31);
    ix.bits.set(key, b);
  }
  return b;
}

/**
 * The rows whose name holds the search phrase (the rank-first test), among the rows holding its
 * words (no other row can match a search): kept per snapshot. A one-word phrase (" w") is in a
 * name exactly when a word of the name starts with w: the name words' part of the word index.
 */
function phraseRows(s: LiveSnapshot, ix: ListIndex, phrase: string, words: string[]): Uint32Array {
  const key = "\u0000" + phrase;
  let b = ix.bits.get(key);
  if (!b) {
    b = new Uint32Array(ix.words);
    const w = phrase.slice(1);
    if (words.length === 1 && words[0] === phrase && w !== "" && !w.includes(" ")) {
      // The rows of every indexed word w starts, holding it in the name.
      const ix = wordIndex(s);
      for (let k = firstWord(ix, w); k < ix.words.length && ix.words[k]!.startsWith(w); k++)
        for (let j = ix.at[k]!, e = ix.named[k]!; j < e; j++) b[ix.rows[j]! >>> 5]! |= 1 << (ix.rows[j]! & 31);
    } else {
      const rows = candidatesOf(s, [], words);
      for (let k = 0; k < rows.length; k++) {
        const i = rows[k]!;
        if (nameHolds(s.rows[i]!.search_text, phrase)) b[i >>> 5]! |= 1 << (i & 31);
      }
    }
    ix.bits.set(key, b);
  }
  return b;
}

interface Columns {
  seen: Float64Array;
  /** The earliest last sighting held (Infinity when none). */
  minSeen: number;
  players: Float64Array;
  size: Float64Array;
  /** !!official and !!password_protected as 0/1. */
  official: Uint8Array;
  password: Uint8Array;
}
const columns = new SnapshotSlot<Columns>();

/** The filtered fields of every row as typed arrays (cheaper to test than the row objects). */
const columnsOf = (s: LiveSnapshot): Columns => columns.of(s, () => buildColumns(s));

function buildColumns(s: LiveSnapshot): Columns {
  const n = s.rows.length;
  const c: Columns = { seen: new Float64Array(n), minSeen: Infinity, players: new Float64Array(n), size: new Float64Array(n), official: new Uint8Array(n), password: new Uint8Array(n) };
  for (let i = 0; i < n; i++) {
    const r = s.rows[i]!;
    c.seen[i] = r.last_seen_at;
    // A value that is not a number (a hand-written row) compares as the filter would: never cache.
    c.minSeen = Math.min(c.minSeen, typeof r.last_seen_at === "number" ? r.last_seen_at : -Infinity);
    c.players[i] = r.player_count;
    c.size[i] = r.mods_size_bytes;
    c.official[i] = r.official ? 1 : 0;
    c.password[i] = r.password_protected ? 1 : 0;
  }
  return c;
}

/** Row `i`'s entry as UTF-8 JSON (the server detail starts its `server` with it): a view of entryBytes. */
export const entryJson = (s: LiveSnapshot, i: number): Uint8Array => s.entryBytes.subarray(s.entryAt[i]!, s.entryAt[i + 1]!);

const hostsLower = new SnapshotSlot<string[]>();
const lowerHosts = (s: LiveSnapshot): string[] => hostsLower.of(s, () => s.rows.map((r) => r.host_address.toLowerCase()));

/** What the search indexes of a snapshot hold (for the metrics): bytes, 0 before the first search. */
export function searchIndexBytes(s: LiveSnapshot): number {
  return wordIndexBytes(s) + rankBytes(s) + (hostsLower.peek(s) ? s.rows.length * 60 : 0) + (columns.peek(s) ? s.rows.length * 26 : 0) +
    (pageCaches.peek(s)?.bytes ?? 0) + listBitsBytes(s);
}

/** What the list's row bitsets of a snapshot hold (counted in searchIndexBytes): bytes, 0 before the first list request. */
export function listBitsBytes(s: LiveSnapshot): number {
  const l = listIndexes.peek(s);
  return l ? 5 * l.words * 4 + l.bits.bytes : 0;
}

/** An online server's row (online = 1 and seen since `since`), or null: then SQLite answers. */
export function onlineRow(s: LiveSnapshot, id: string, since: number): ServerRow | null {
  const i = onlineRowIndex(s, id, since);
  return i < 0 ? null : s.rows[i]!;
}

/** The index in `s.rows` of an online server's row (as onlineRow), or -1. */
export function onlineRowIndex(s: LiveSnapshot, id: string, since: number): number {
  const i = s.byId.get(id);
  return i !== undefined && s.rows[i]!.last_seen_at >= since ? i : -1;
}
