// The live list's sort orders (docs/live.md "The live list from memory"): the row indexes in the
// order of every sort, sorted here from the rows a build holds as SQLite orders them, and each
// row's position in an order (kept per snapshot on first use).
import type { ListQuery } from "../model";
import { binaryCompare } from "../../../shared/binary-order";
import { asciiLower, SnapshotSlot, type LiveSnapshot, type Row } from "./types";

/**
 * The row indexes in the order of every sort (entry.ts ORDER), as SQLite orders them, sorted here
 * from the rows a build holds: the eight ORDER BY reads of the online rows were ~30-60 ms of
 * every scan. `rows` are in id order (BINARY, SQLite's `ORDER BY g.id`), so the id that ends
 * every order is the row index; a name's NOCASE place is its rank among the names folded as
 * NOCASE folds them (ASCII A-Z only) in code point order (UTF-8's byte order; JavaScript's `<`
 * compares UTF-16 code units, which agrees unless a code unit is a surrogate or above it); the
 * numbers compare as numbers. null (SQLite sorts) when a value is not what this mirrors: a
 * number column holding anything but a finite number within ±2^53, a name that is not text or
 * holds a NUL (NOCASE stops there) or U+FFFD (text that was not valid UTF-8 reads as it, and
 * SQLite compares the bytes).
 */
export function sortOrders(rows: readonly Row[]): Record<ListQuery["sort_by"], Int32Array> | null {
  const n = rows.length;
  const lastSeen = new Float64Array(n);
  const firstSeen = new Float64Array(n);
  const players = new Float64Array(n);
  const avg = new Float64Array(n);
  const size = new Float64Array(n);
  const names: string[] = new Array(n);
  let high = false;
  // A finite number JavaScript holds exactly as SQLite does (an integer past 2^53 it does not).
  const num = (v: unknown) => typeof v === "number" && Number.isFinite(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER;
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    if (!num(r.last_seen_at) || !num(r.first_seen_at) || !num(r.player_count) || !num(r.avg_players_7d) || !num(r.mods_size_bytes)) return null;
    if (typeof r.name !== "string" || r.name.includes("\u0000") || r.name.includes("\ufffd")) return null;
    lastSeen[i] = r.last_seen_at;
    firstSeen[i] = r.first_seen_at;
    players[i] = r.player_count;
    avg[i] = r.avg_players_7d;
    size[i] = r.mods_size_bytes;
    const folded = asciiLower(r.name);
    names[i] = folded;
    if (!high) for (let k = 0; k < folded.length; k++) if (folded.charCodeAt(k) >= 0xd800) high = true;
  }
  // Each row's name rank (equal folded names share one).
  const byName = new Int32Array(n);
  for (let i = 0; i < n; i++) byName[i] = i;
  const cmpText = high ? binaryCompare : (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  byName.sort((a, b) => cmpText(names[a]!, names[b]!) || a - b);
  const nameRank = new Int32Array(n);
  for (let k = 1; k < n; k++) nameRank[byName[k]!] = names[byName[k]!] === names[byName[k - 1]!] ? nameRank[byName[k - 1]!]! : k;
  const sorted = (cmp: (a: number, b: number) => number) => {
    const a = new Int32Array(n);
    for (let i = 0; i < n; i++) a[i] = i;
    return a.sort(cmp);
  };
  return {
    recent: sorted((a, b) => lastSeen[b]! - lastSeen[a]! || firstSeen[b]! - firstSeen[a]! || players[b]! - players[a]! || a - b),
    popularity: sorted((a, b) => avg[b]! - avg[a]! || players[b]! - players[a]! || a - b),
    players_desc: sorted((a, b) => players[b]! - players[a]! || nameRank[a]! - nameRank[b]! || a - b),
    players_asc: sorted((a, b) => players[a]! - players[b]! || nameRank[a]! - nameRank[b]! || a - b),
    mod_size_desc: sorted((a, b) => size[b]! - size[a]! || players[b]! - players[a]! || a - b),
    mod_size_asc: sorted((a, b) => size[a]! - size[b]! || players[b]! - players[a]! || a - b),
    name_asc: sorted((a, b) => nameRank[a]! - nameRank[b]! || a - b),
    name_desc: sorted((a, b) => nameRank[b]! - nameRank[a]! || a - b),
  };
}

const ranks = new SnapshotSlot<Partial<Record<ListQuery["sort_by"], Int32Array>>>();

/** Each row's position in the order of `sort` (kept per snapshot). */
export function rankOf(s: LiveSnapshot, sort: ListQuery["sort_by"]): Int32Array {
  const r = ranks.of(s, () => ({}));
  let a = r[sort];
  if (!a) {
    const order = s.order[sort];
    a = new Int32Array(order.length);
    for (let k = 0; k < order.length; k++) a[order[k]!] = k;
    r[sort] = a;
  }
  return a;
}

/** Bytes of the positions kept for a snapshot (the metrics). */
export const rankBytes = (s: LiveSnapshot): number => {
  const r = ranks.peek(s);
  return r ? Object.keys(r).length * s.rows.length * 4 : 0;
};
