// The live snapshot's mod index (docs/live.md "The live list from memory"): for every workshop
// id, the servers running it, as two flat Int32Arrays read through a Map-like Postings; and the
// per-connection cache of the servers' mod lists it is built from, which a build reads and numbers
// only where a list's version moved, adopted when the snapshot is published.
import type { Database } from "bun:sqlite";
import { listIds, modListsRepo } from "../repository/mod-lists";
import type { ServerModList } from "./types";

/**
 * Mod lists the caller wrote in its open transaction and holds in memory (a scan's new and changed
 * lists: sid → the workshop ids of its rows, each row of the server exactly once), so a build takes
 * them instead of reading them back (a first sight's 5,000 new lists).
 */
export type KnownLists = Map<number, string[]>;

/** A server the usage holds, in its order: sid, online (1/0), id, mod-list version (null: no mod rows). */
export type UsedServer = [sid: number, online: number, id: string, ver: number | null];

/**
 * Kept per connection between builds: every workshop id's number (stable: `ids[n]`), and each
 * server's mod list as last read (the numbers of its ids), with the server's id and its mod-list
 * version (game_server_mods_ver: every write to the server's mod rows sets it to a value no
 * earlier write had, a2_server_mods_ver.sql), so a build reads and numbers only the lists whose
 * version moved: reading every list as JSON was ~90 ms of a steady scan, parsing and numbering
 * ~400,000 ids ~40 % of a build, and between two scans ~95 % of the lists are unchanged. A server
 * without a version has never had a mod row: its list is empty. The id guards a sid taken again
 * by another server. The lists a build read are adopted by the cache only when its snapshot is
 * published (adoptModLists): a scan's build inside a transaction that then rolls back leaves the
 * cache as it was, so a version that rollback handed out again is never trusted.
 */
export interface ModListCache {
  number: Map<string, number>;
  ids: string[];
  bySid: Map<number, ServerModList>;
}

/** Where a connection holds its mod-list cache (the snapshot model's state, lifecycle.ts). */
export interface ModListsHeld {
  lists: ModListCache | null;
}

/** A published snapshot's lists become the cache's (the build that read them is of the committed state). */
export function adoptModLists(held: ModListsHeld, lists: ReadonlyMap<number, ServerModList>): void {
  if (held.lists) held.lists.bySid = lists as Map<number, ServerModList>;
}

/**
 * For every workshop id, the servers running it: positions in the usage order (`usedAt`, every
 * server seen within the window) and row indexes of the online ones (`rowAt`), each ascending.
 * Each server's mods are read as one text (its row of game_server_mod_lists, listIds) and numbered, only when its
 * mod-list version moved (the cache above); the (server, mod) pairs are counted, then placed into two flat Int32Arrays (a
 * view per mod) walking the servers in usage order and in row order, so each mod's positions
 * come out ascending without a sort.
 */
export function modIndex(
  sqlite: Database,
  held: ModListsHeld,
  perServer: readonly UsedServer[],
  usedAt: Int32Array,
  nRows: number,
  rowAt: Int32Array,
  slot: (sid: number) => number,
  known?: KnownLists,
) {
  const nUsed = perServer.length;
  let cache = held.lists;
  // Numbers are never reused while the cache lives; a cache that numbered far more ids than are
  // in use starts again.
  if (!cache || cache.ids.length > 200_000) held.lists = cache = { number: new Map(), ids: [], bySid: new Map() };
  const { number, ids } = cache;
  const next = new Map<number, ServerModList>();
  // The lists whose version moved (or that the cache does not hold), read in one statement.
  const stale: [sid: number, id: string, ver: number][] = [];
  for (const [sid, , id, ver] of perServer) {
    const e = cache.bySid.get(sid);
    if (e && e.id === id && e.ver === ver) next.set(sid, e);
    else if (ver === null) next.set(sid, { id, ver, nums: new Int32Array(0) });
    else stale.push([sid, id, ver]);
  }
  if (stale.length > 0) {
    // The lists the caller holds are numbered as a read gives them (a list's ids in the order
    // stored, which is the order the scan held them in), in the same place among the others, so
    // every id gets the number a read would give it.
    const toRead = stale.map(([sid]) => sid).filter((sid) => !known?.has(sid));
    // Each list's row of game_server_mod_lists as its text, its ids taken out here (listIds):
    // through the game_server_mods_by_sid view (json_each) the same read cost ~2.5× (a first
    // sight reads the ~5,000 lists of the seeded servers going offline).
    const readIds = new Map<number, string[]>();
    if (toRead.length > 0) {
      for (const [sid, text] of modListsRepo.modListTexts(sqlite, toRead)) readIds.set(sid, listIds(text));
    }
    for (const [sid, id, ver] of stale) {
      // A list the caller holds or one just read, numbered the same way: its ids not numbered yet
      // in the list's order (a first sight: ~5,000 lists of ~40, nearly all numbered by the lists
      // before); the order of a list's numbers is immaterial (every mod's positions come out
      // ascending below).
      const list = known?.get(sid) ?? readIds.get(sid) ?? [];
      const nums = new Int32Array(list.length);
      for (let k = 0; k < list.length; k++) {
        const id = list[k]!;
        let n = number.get(id);
        if (n === undefined) {
          number.set(id, (n = ids.length));
          ids.push(id);
        }
        nums[k] = n;
      }
      next.set(sid, { id, ver, nums });
    }
  }
  // Per usage position: its mods' numbers.
  const lists: Int32Array[] = new Array(nUsed);
  let pairs = 0;
  for (const [sid, e] of next) {
    lists[usedAt[slot(sid)]! - 1] = e.nums;
    pairs += e.nums.length;
  }
  // What the cache holds beside the snapshot (4 bytes a number).
  let cacheBytes = ids.length * 60;
  for (const e of next.values()) cacheBytes += e.nums.length * 4 + 120;
  // Per usage position: where its mod numbers start in `mods` (one more at the end).
  const start = new Int32Array(nUsed + 1);
  const mods = new Int32Array(pairs);
  for (let p = 0, at = 0; p < nUsed; p++) {
    start[p] = at;
    const nums = lists[p];
    if (nums) {
      mods.set(nums, at);
      at += nums.length;
    }
  }
  start[nUsed] = pairs;
  // Usage order → row index (+1; 0: offline), and row index → usage position.
  const rowOf = new Int32Array(nUsed);
  const posOfRow = new Int32Array(nRows);
  for (let k = 0; k < usedAt.length; k++) {
    const p = usedAt[k]!;
    if (p === 0) continue;
    rowOf[p - 1] = rowAt[k]!;
    if (rowAt[k]! > 0) posOfRow[rowAt[k]! - 1] = p - 1;
  }
  const usedCount = new Int32Array(ids.length + 1);
  const onlineCount = new Int32Array(ids.length + 1);
  for (let p = 0; p < nUsed; p++) {
    const online = rowOf[p]! > 0;
    for (let k = start[p]!; k < start[p + 1]!; k++) {
      usedCount[mods[k]! + 1]!++;
      if (online) onlineCount[mods[k]! + 1]!++;
    }
  }
  for (let m = 1; m <= ids.length; m++) {
    usedCount[m]! += usedCount[m - 1]!;
    onlineCount[m]! += onlineCount[m - 1]!;
  }
  const usedFlat = new Int32Array(usedCount[ids.length]!);
  const onlineFlat = new Int32Array(onlineCount[ids.length]!);
  const fill = usedCount.slice(0, ids.length);
  for (let p = 0; p < nUsed; p++) for (let k = start[p]!; k < start[p + 1]!; k++) usedFlat[fill[mods[k]!]!++] = p;
  fill.set(onlineCount.subarray(0, ids.length));
  for (let i = 0; i < nRows; i++) {
    const p = posOfRow[i]!;
    for (let k = start[p]!; k < start[p + 1]!; k++) onlineFlat[fill[mods[k]!]!++] = i;
  }
  const byMod = new Postings(number, ids, ids.length, onlineCount, onlineFlat);
  const usedByMod = new Postings(number, ids, ids.length, usedCount, usedFlat);
  return { byMod, usedByMod, modInts: usedFlat.length + onlineFlat.length, cacheBytes, lists: next };
}

/**
 * workshop id → its servers (positions, ascending), read as a Map but held as one flat array and
 * where each mod's part starts (by the number the mod-list cache gave the id): two typed arrays
 * where a Map entry and an array view a mod were ~16,000 objects for the collector to mark. The
 * cache's number Map and id list only grow while it lives (a reset makes new ones; this keeps
 * the old), so a number at or past `n` (an id numbered after this build) is not held here.
 */
class Postings implements ReadonlyMap<string, Int32Array> {
  readonly size: number;
  constructor(
    private readonly number: ReadonlyMap<string, number>,
    private readonly ids: readonly string[],
    private readonly n: number,
    /** Mod number m's servers are flat[start[m] .. start[m + 1]). */
    private readonly start: Int32Array,
    private readonly flat: Int32Array,
  ) {
    let size = 0;
    for (let m = 0; m < n; m++) if (start[m + 1]! > start[m]!) size++;
    this.size = size;
  }
  private numberOf(id: string): number {
    const m = this.number.get(id);
    return m !== undefined && m < this.n && this.start[m + 1]! > this.start[m]! ? m : -1;
  }
  has(id: string): boolean {
    return this.numberOf(id) >= 0;
  }
  get(id: string): Int32Array | undefined {
    const m = this.numberOf(id);
    return m < 0 ? undefined : this.flat.subarray(this.start[m]!, this.start[m + 1]!);
  }
  *entries(): MapIterator<[string, Int32Array]> {
    for (let m = 0; m < this.n; m++) if (this.start[m + 1]! > this.start[m]!) yield [this.ids[m]!, this.flat.subarray(this.start[m]!, this.start[m + 1]!)];
  }
  *keys(): MapIterator<string> {
    for (let m = 0; m < this.n; m++) if (this.start[m + 1]! > this.start[m]!) yield this.ids[m]!;
  }
  *values(): MapIterator<Int32Array> {
    for (const [, v] of this.entries()) yield v;
  }
  [Symbol.iterator](): MapIterator<[string, Int32Array]> {
    return this.entries();
  }
  forEach(f: (value: Int32Array, key: string, map: ReadonlyMap<string, Int32Array>) => void): void {
    for (const [k, v] of this.entries()) f(v, k, this);
  }
}
