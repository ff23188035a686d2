// The live servers in memory: an immutable snapshot of the online servers, built from SQLite after
// each scan commits (and after the roll-ups or a community assignment change what it holds), and
// swapped in with one assignment: a reader has the old snapshot or the new one, never half a scan.
// GET /game-servers answers every filter, sort and page from it, and /game-servers/:id (an online
// server's row) and /stats/top-* read it too; SQLite stays the truth (the snapshot is rebuilt from
// it, and `listServersSql` / `topServersSql` / `topModsSql` in test/truth/live-sql.ts answer the same, for tests).
//
// Staleness cannot be forgotten by a writer: every write to game_servers or game_server_mods (any
// code path, any process, a deleted community's ON DELETE SET NULL, a test's raw SQL) moves
// live_state.servers_gen through triggers (src/db/custom/70_live_snapshot_gen.sql), and
// refreshModUsage moves it too; a reader whose snapshot is of another generation builds a new one
// (one primary-key read a request to find out).
//
// Per scan it holds each online server's row and its answer object (built once), the server order
// for every sort (as SQLite orders them with the same ORDER BY the SQL path uses, so ties and
// NOCASE collation are the same), the lower-cased tags string, and for every workshop id the
// servers that run it. A request ANDs row bitsets kept per snapshot (the asked mods and words'
// candidates, flag values, tags, player and size bounds), then walks the order of its sort and
// stops after offset + limit matches (or sorts the positions of a few matches).
import { BytesLru } from "../../shared/bytes-lru";
import { binaryCompare } from "../../shared/binary-order";
import { NAME_END, nameHolds, parseServerSearch } from "./search";
import type { Database } from "bun:sqlite";
import type { ListQuery, ServerEntry } from "./model";
import { SERVER_SORTS } from "./model";
import { HOUR, listIds, liveRepo, SERVER_COLUMNS, stmt, TOP_MODS, topOfUsage, type CatalogLookup, type ServerRow } from "./repository";
import { generation } from "../../db/statements";
import { ONLINE_WINDOW, ORDER, serverBase, toEntry, type ServerBaseRow } from "./entry";

type Row = ServerRow & { search_text: string };

export interface TopMod {
  workshop_id: string;
  name: string;
  server_count: number;
}

export interface LiveSnapshot {
  /** live_state.servers_gen when it was read. */
  gen: number;
  /** id → index into rows. */
  byId: ReadonlyMap<string, number>;
  /** live_mod_usage's top 10, as GET /stats/top-mods answers it. */
  topMods: readonly TopMod[];
  /** When it was built (epoch ms; for the metrics and the docs). */
  builtAt: number;
  buildMs: number;
  rows: readonly Row[];
  /** Tags as stored (`,a,b,`), ASCII-lower-cased as SQLite's LIKE compares them. */
  tags: readonly string[];
  order: Readonly<Record<ListQuery["sort_by"], Int32Array>>;
  /** workshop id → indexes (into rows) of the servers running it. */
  byMod: ReadonlyMap<string, Int32Array>;
  /**
   * Every row's entry as UTF-8 JSON, serialised once, in one buffer (row i is entryAt[i] to
   * entryAt[i + 1]): GET /game-servers copies a page's entries from it. One object for the
   * collector to mark, where a string (and its bytes) a row were 10,000.
   */
  entryBytes: Buffer;
  entryAt: Int32Array;
  /** Rows seen at or after this time (the build time minus the online window) are held. */
  cut: number;
  /**
   * Mod usage (GET /mods/:id/servers, the usage numbers of /mods/:id/stats and its metrics):
   * every server seen within the window, online or not (a server the last scan missed still
   * counts until its last sighting is an hour old), in that endpoint's order (players, name
   * NOCASE, id, as SQLite orders them); for each, its last sighting, players and row (an online
   * one's is its row in `rows`), whose answer JSON is made on first use (usageJson).
   */
  usage: {
    seen: Float64Array;
    players: Int32Array;
    rows: readonly ServerBaseRow[];
    /** workshop id → positions (ascending) of the servers running it. */
    byMod: ReadonlyMap<string, Int32Array>;
  };
  /**
   * sid → the server's mod list as this snapshot read it (every server seen within the window):
   * its mod-list version, the same object from one snapshot to the next while the version stays,
   * so the server detail keeps what it derives from a list per list (detail.ts).
   */
  modLists: ReadonlyMap<number, ServerModList>;
  /** Approximate bytes held (rows, entries, JSON, orders, mod index). */
  bytes: number;
}

const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** Freezes every element (an object each) and answers the array itself, left unfrozen (buildSnapshot). */
function freezeEach<T extends object>(a: T[]): readonly T[] {
  for (let i = 0; i < a.length; i++) Object.freeze(a[i]);
  return a;
}

let builds = 0;
const snapshots = new WeakMap<Database, LiveSnapshot>();

/** live_state.servers_gen (src/db/statements.ts `generation`: once per turn of the event loop and per write). */
const readGen = (sqlite: Database) => generation(sqlite, "live_state", "servers_gen");

/** The current snapshot, built on first use and whenever SQLite moved on since it was read. */
export function liveSnapshot(sqlite: Database, now: number): LiveSnapshot {
  let s = snapshots.get(sqlite);
  // Another generation, or a clock set back before what the snapshot holds: build anew.
  if (!s || s.gen !== readGen(sqlite) || now - ONLINE_WINDOW < s.cut) {
    s = buildSnapshot(sqlite, now);
    snapshots.set(sqlite, s);
    adoptModLists(sqlite, s);
  }
  return s;
}

/** The snapshot last built (for the metrics), whatever its generation; null before the first. */
export function peekLiveSnapshot(sqlite: Database): LiveSnapshot | null {
  return snapshots.get(sqlite) ?? null;
}

/** Drops the snapshot: the next read builds one from SQLite (after any write to the live tables). */
export function invalidateLiveSnapshot(sqlite: Database): void {
  snapshots.delete(sqlite);
}

/** Builds a new snapshot and swaps it in (one assignment). */
export function rebuildLiveSnapshot(sqlite: Database, now: number): LiveSnapshot {
  const s = buildSnapshot(sqlite, now);
  snapshots.set(sqlite, s);
  adoptModLists(sqlite, s);
  return s;
}

export const snapshotBuilds = () => builds;

/** Swaps in a snapshot built inside a writer's transaction (snapshotWithUsage), once it has committed. */
export function publishLiveSnapshot(sqlite: Database, s: LiveSnapshot): void {
  snapshots.set(sqlite, s);
  adoptModLists(sqlite, s);
}

const readTopMods = (sqlite: Database) =>
  (
    stmt(sqlite, `SELECT workshop_id, name, server_count FROM live_mod_usage ORDER BY server_count DESC, workshop_id LIMIT 10`).all() as TopMod[]
  ).map((m) => Object.freeze(m));

/**
 * For a scan, inside its transaction after its writes (this connection reads them): builds the
 * snapshot of the scan and counts every mod's usage from it — servers seen in the hour before
 * `usageAt` running each mod, and their players, the same count `liveRepo.refreshModUsage` makes
 * from SQLite — so the ~400,000 (server, mod) pairs are read once, and writes the top of it
 * (live_mod_usage: GET /stats/top-mods; every other mod's numbers are read from the snapshot). Its
 * generation and top mods are read after that last write, so it is exactly the state the commit
 * makes; publish it (publishLiveSnapshot) once the transaction has committed.
 */
export function snapshotWithUsage(sqlite: Database, usageAt: number, builtAt: number, known?: KnownLists, catalog?: CatalogLookup): LiveSnapshot {
  if (!sqlite.inTransaction) throw new Error("snapshotWithUsage outside the writer's transaction");
  // Built as of the scan's time: it holds every server seen since usageAt - ONLINE_WINDOW (a
  // reader later asks for a later window, a part of it).
  const s = buildSnapshot(sqlite, usageAt, known);
  const since = usageAt - HOUR;
  // The build holds every server seen at or after its cut, usageAt - ONLINE_WINDOW, the usage's
  // hour (entry.ts): a mod's servers are its positions, and only the top's players are counted
  // (live_mod_usage keeps the top; a request counts any other mod's, modUsageOf).
  const counts: [string, number][] = [];
  for (const [mod, at] of s.usage.byMod) counts.push([mod, at.length]);
  const usage = topOfUsage(counts, TOP_MODS).map(([mod]): [string, number, number] => {
    const u = modUsageOf(s, mod, since);
    return [mod, u.servers, u.players];
  });
  liveRepo.writeModUsage(sqlite, usageAt, usage, catalog);
  const out: LiveSnapshot = Object.freeze({ ...s, gen: readGen(sqlite), topMods: Object.freeze(readTopMods(sqlite)), builtAt });
  const lists = pendingLists.get(s);
  if (lists) pendingLists.set(out, lists);
  return out;
}

/**
 * Mod lists the caller wrote in its open transaction and holds in memory (a scan's new and changed
 * lists: sid → the workshop ids of its rows, each row of the server exactly once), so a build takes
 * them instead of reading them back (a first sight's 5,000 new lists).
 */
export type KnownLists = Map<number, string[]>;

/** A server the usage holds, in its order: sid, online (1/0), id, mod-list version (null: no mod rows). */
type UsedServer = [sid: number, online: number, id: string, ver: number | null];

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
interface ModList {
  id: string;
  ver: number | null;
  nums: Int32Array;
}
/** A server's mod list as a snapshot holds it: the server's id and its mod-list version (null: no mod rows). */
export type ServerModList = Readonly<Pick<ModList, "id" | "ver">>;
interface ModListCache {
  number: Map<string, number>;
  ids: string[];
  bySid: Map<number, ModList>;
}
const modListCaches = new WeakMap<Database, ModListCache>();
/** A built snapshot's lists, until it is published. */
const pendingLists = new WeakMap<object, Map<number, ModList>>();

function adoptModLists(sqlite: Database, s: LiveSnapshot) {
  const lists = pendingLists.get(s);
  const cache = modListCaches.get(sqlite);
  if (lists && cache) cache.bySid = lists;
  pendingLists.delete(s);
}

/**
 * For every workshop id, the servers running it: positions in the usage order (`usedAt`, every
 * server seen within the window) and row indexes of the online ones (`rowAt`), each ascending.
 * Each server's mods are read as one text (its row of game_server_mod_lists, listIds) and numbered, only when its
 * mod-list version moved (the cache above); the (server, mod) pairs are counted, then placed into two flat Int32Arrays (a
 * view per mod) walking the servers in usage order and in row order, so each mod's positions
 * come out ascending without a sort.
 */
function modIndex(
  sqlite: Database,
  perServer: readonly UsedServer[],
  usedAt: Int32Array,
  nRows: number,
  rowAt: Int32Array,
  slot: (sid: number) => number,
  known?: KnownLists,
) {
  const nUsed = perServer.length;
  let cache = modListCaches.get(sqlite);
  // Numbers are never reused while the cache lives; a cache that numbered far more ids than are
  // in use starts again.
  if (!cache || cache.ids.length > 200_000) modListCaches.set(sqlite, (cache = { number: new Map(), ids: [], bySid: new Map() }));
  const { number, ids } = cache;
  const next = new Map<number, ModList>();
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
      for (const [sid, text] of liveRepo.modListTexts(sqlite, toRead)) readIds.set(sid, listIds(text));
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

export function buildSnapshot(sqlite: Database, now: number, known?: KnownLists): LiveSnapshot {
  const t0 = performance.now();
  builds++;
  // Only servers seen within the online window can be answered, now or later (time moves on;
  // a clock set back builds anew): read them through the last-seen index, not all ~95,000.
  const cut = now - ONLINE_WINDOW;
  const online = `FROM game_servers g INDEXED BY game_servers_seen_idx WHERE g.last_seen_at >= $cut AND g.online = 1`;
  // One read transaction: the rows, the orders and the mods are of the same committed state.
  return sqlite.transaction(() => {
    const gen = readGen(sqlite);
    const rows = stmt(sqlite, `SELECT ${SERVER_COLUMNS}, g.search_text ${online} ORDER BY g.id`).all({ cut }) as Row[];
    const index = new Map<string, number>();
    const bySid = new Map<number, number>();
    rows.forEach((r, i) => {
      index.set(r.id, i);
      bySid.set(r.sid, i);
    });
    // The eight orders sorted here from the rows (sortOrders), else by SQLite.
    let orders = sortOrders(rows);
    if (!orders) {
      orders = {} as Record<ListQuery["sort_by"], Int32Array>;
      for (const sort of SERVER_SORTS) {
        const sids = stmt(sqlite, `SELECT g.sid ${online} ORDER BY ${ORDER[sort]}`).values({ cut }) as [number][];
        const a = new Int32Array(sids.length);
        for (let i = 0; i < sids.length; i++) a[i] = bySid.get(sids[i]![0])!;
        orders[sort] = a;
      }
    }
    // Every server seen within the window, online or not, in /mods/:id/servers's order: its sid
    // and whether it is online (then its row is one of `rows`, read above); the columns of the
    // others (the few a steady scan saw go since the last; a first sight's vanished servers) are
    // read apart. Reading every one's columns again cost a steady scan ~10 ms and 5,000 objects.
    const recent = `FROM game_servers g INDEXED BY game_servers_seen_idx WHERE g.last_seen_at >= $cut`;
    const usedOrder = stmt(
      sqlite,
      `SELECT g.sid, g.online IS 1, g.id, (SELECT v.ver FROM game_server_mods_ver v WHERE v.sid = g.sid)
       ${recent} ORDER BY g.player_count DESC, g.name COLLATE NOCASE, g.id`,
    ).values({ cut }) as UsedServer[];
    const gone = new Map<number, ServerBaseRow>();
    for (const r of stmt(
      sqlite,
      `SELECT g.sid, g.id, g.name, g.host_address, g.player_count, g.player_count_limit, g.queue_players_count, g.scenario_name,
         g.game_version, g.password_protected, g.official, g.last_seen_at
       ${recent} AND g.online IS NOT 1`,
    ).all({ cut }) as (ServerBaseRow & { sid: number })[])
      gone.set(r.sid, r);
    const used: ServerBaseRow[] = new Array(usedOrder.length);
    // sid → position in rows / in the usage order (+1; 0: not held), as arrays: ~400,000 pairs
    // are placed below, and an array read is several times cheaper than a Map lookup.
    let maxSid = 0;
    for (const [sid] of usedOrder) if (sid > maxSid) maxSid = sid;
    // The scan numbers new servers max + 1, so sids are dense; sids far apart (raw SQL, a test's
    // random ones) go through a Map to slots instead of arrays as long as the largest sid.
    const slots = maxSid > 4 * usedOrder.length + 65_536 ? new Map(usedOrder.map(([sid], i) => [sid, i + 1])) : null;
    const slot = slots ? (sid: number) => slots.get(sid) ?? -1 : (sid: number) => sid;
    const size = slots ? usedOrder.length + 1 : maxSid + 1;
    const usedAt = new Int32Array(size);
    const rowAt = new Int32Array(size);
    const seen = new Float64Array(usedOrder.length);
    const players = new Int32Array(usedOrder.length);
    for (let i = 0; i < usedOrder.length; i++) {
      const [sid, online] = usedOrder[i]!;
      const r = online ? rows[bySid.get(sid)!]! : gone.get(sid)!;
      used[i] = r;
      usedAt[slot(sid)] = i + 1;
      seen[i] = r.last_seen_at;
      players[i] = r.player_count;
    }
    for (const [sid, i] of bySid) {
      const k = slot(sid);
      if (k >= 0 && k < size) rowAt[k] = i + 1;
    }
    const { byMod, usedByMod, modInts, cacheBytes, lists } = modIndex(sqlite, usedOrder, usedAt, rows.length, rowAt, slot, known);
    // The entries' JSON, encoded into one buffer (their objects and strings are garbage at once).
    const json = rows.map((r) => JSON.stringify(toEntry(r)));
    const entryAt = new Int32Array(rows.length + 1);
    for (let i = 0; i < rows.length; i++) entryAt[i + 1] = entryAt[i]! + Buffer.byteLength(json[i]!, "utf8");
    const entryBytes = Buffer.allocUnsafeSlow(entryAt[rows.length]!);
    for (let i = 0; i < rows.length; i++) entryBytes.write(json[i]!, entryAt[i]!, "utf8");
    const topMods = readTopMods(sqlite);
    const tags = rows.map((r) => asciiLower(r.tags));
    // Rough: a row and its entry ~ 1.2 KB of strings and objects; an offline server's row ~600 B;
    // its usage JSON (made as asked) ~250 characters; 4 bytes an order slot or mod index entry;
    // ~100 B a map key; and the mod-list cache kept for the next build (modIndex).
    const bytes = rows.length * 1200 + gone.size * 600 + used.length * (20 + 250 * 2) + entryBytes.byteLength + rows.length * 4 + SERVER_SORTS.length * rows.length * 4 + modInts * 4 + (byMod.size + usedByMod.size) * 100 + cacheBytes;
    const snapshot: LiveSnapshot = Object.freeze({
      gen,
      cut,
      builtAt: now,
      buildMs: performance.now() - t0,
      // Each row frozen; the long arrays (rows, tags, the usage's rows) are readonly by their types only:
      // freezing an array of thousands moves it to JavaScriptCore's slow storage, ~5-9 ms a build
      // for 10,000 elements and every later element read ~10x dearer.
      rows: freezeEach(rows),
      entryBytes,
      entryAt,
      tags,
      order: Object.freeze(orders),
      byMod,
      byId: index,
      topMods: Object.freeze(topMods),
      usage: Object.freeze({ seen, players, rows: used, byMod: usedByMod }),
      modLists: lists,
      bytes,
    });
    pendingLists.set(snapshot, lists);
    return snapshot;
  })();
}

/** GET /game-servers from the snapshot: the same rows, order and page as the SQL path. */
export function querySnapshot(s: LiveSnapshot, q: ListQuery, since: number): ServerEntry[] {
  const entries = entriesOf(s);
  return pageIndexes(s, q, since).map((i) => entries[i]!);
}

const entryObjects = new WeakMap<LiveSnapshot, readonly ServerEntry[]>();

/**
 * Every row's entry as a (frozen) object, built on first use: only the test app's strictly
 * validated answers (querySnapshot) and the tests read them; the route sends entryBytes.
 */
export function entriesOf(s: LiveSnapshot): readonly ServerEntry[] {
  let e = entryObjects.get(s);
  if (!e) {
    e = Object.freeze(
      s.rows.map((r) => {
        const x = toEntry(r);
        Object.freeze(x.tags);
        return Object.freeze(x);
      }),
    );
    entryObjects.set(s, e);
  }
  return e;
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
const pageCaches = new WeakMap<LiveSnapshot, BytesLru<Uint8Array>>();
const arraySize = (k: string, v: { byteLength: number }) => v.byteLength + k.length * 2 + 64;
function pagesOf(s: LiveSnapshot) {
  let p = pageCaches.get(s);
  if (!p) pageCaches.set(s, (p = new BytesLru<Uint8Array>(PAGE_CACHE_BYTES, arraySize)));
  return p;
}

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
const listIndexes = new WeakMap<LiveSnapshot, ListIndex>();

/** The per-snapshot row bitsets of the list's filters (built on its first list request). */
function listIndex(s: LiveSnapshot): ListIndex {
  let ix = listIndexes.get(s);
  if (ix) return ix;
  const n = s.rows.length;
  const words = (n + 31) >>> 5;
  const c = columnsOf(s);
  const of = (test: (i: number) => boolean) => {
    const b = new Uint32Array(words);
    for (let i = 0; i < n; i++) if (test(i)) b[i >>> 5]! |= 1 << (i & 31);
    return b;
  };
  ix = {
    words,
    all: of(() => true),
    official: [of((i) => c.official[i] === 0), of((i) => c.official[i] === 1)],
    password: [of((i) => c.password[i] === 0), of((i) => c.password[i] === 1)],
    bits: new BytesLru<Uint32Array>(LIST_BITS_CACHE_BYTES, arraySize),
  };
  listIndexes.set(s, ix);
  return ix;
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

// ---------------------------------------------------------------------------------------------
// Per-snapshot indexes of the search, built on a snapshot's first request that needs
// them and dropped with it (WeakMaps keyed by the snapshot; buildSnapshot does not change):
// - the words of every row's search text, sorted, each with the rows holding it: a search word
//   (" w", found in a text exactly when w starts one of its space-separated words) is a binary
//   search and the union of the few words it starts, instead of an indexOf pass over the text of
//   all servers; the rows of recent words are kept (SEARCH_WORD_CACHE_BYTES);
// - the position of every row in each sort order (to sort a few candidates instead of walking
//   every server in order), and the lower-cased host addresses.

/** At most this many bytes of candidate rows (per asked mods and search words) are kept a snapshot. */
export const SEARCH_WORD_CACHE_BYTES = 2 * 2 ** 20;

interface WordIndex {
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

const wordIndexes = new WeakMap<LiveSnapshot, WordIndex>();

function wordIndex(s: LiveSnapshot): WordIndex {
  let ix = wordIndexes.get(s);
  if (ix) return ix;
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
  ix = { words, rows, at, named, bytes, recent: new BytesLru<Int32Array>(SEARCH_WORD_CACHE_BYTES, arraySize) };
  wordIndexes.set(s, ix);
  return ix;
}

/**
 * The rows running every mod (all known to the snapshot) whose search text holds every word:
 * kept per snapshot by the asked mods and words (SEARCH_WORD_CACHE_BYTES, least recently used out).
 */
function candidatesOf(s: LiveSnapshot, mods: string[], words: string[]): Int32Array {
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
function firstWord(ix: WordIndex, w: string): number {
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

const ranks = new WeakMap<LiveSnapshot, Partial<Record<ListQuery["sort_by"], Int32Array>>>();

/** Each row's position in the order of `sort`. */
function rankOf(s: LiveSnapshot, sort: ListQuery["sort_by"]): Int32Array {
  let r = ranks.get(s);
  if (!r) ranks.set(s, (r = {}));
  let a = r[sort];
  if (!a) {
    const order = s.order[sort];
    a = new Int32Array(order.length);
    for (let k = 0; k < order.length; k++) a[order[k]!] = k;
    r[sort] = a;
  }
  return a;
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
const columns = new WeakMap<LiveSnapshot, Columns>();

/** The filtered fields of every row as typed arrays (cheaper to test than the row objects). */
function columnsOf(s: LiveSnapshot): Columns {
  let c = columns.get(s);
  if (c) return c;
  const n = s.rows.length;
  c = { seen: new Float64Array(n), minSeen: Infinity, players: new Float64Array(n), size: new Float64Array(n), official: new Uint8Array(n), password: new Uint8Array(n) };
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
  columns.set(s, c);
  return c;
}

/** Row `i`'s entry as UTF-8 JSON (the server detail starts its `server` with it): a view of entryBytes. */
export const entryJson = (s: LiveSnapshot, i: number): Uint8Array => s.entryBytes.subarray(s.entryAt[i]!, s.entryAt[i + 1]!);

const hostsLower = new WeakMap<LiveSnapshot, string[]>();

function lowerHosts(s: LiveSnapshot): string[] {
  let h = hostsLower.get(s);
  if (!h) hostsLower.set(s, (h = s.rows.map((r) => r.host_address.toLowerCase())));
  return h;
}

/** What the search indexes of a snapshot hold (for the metrics): bytes, 0 before the first search. */
export function searchIndexBytes(s: LiveSnapshot): number {
  const ix = wordIndexes.get(s);
  const r = ranks.get(s);
  return (ix ? ix.bytes + ix.recent.bytes : 0) + (r ? Object.keys(r).length * s.rows.length * 4 : 0) + (hostsLower.has(s) ? s.rows.length * 60 : 0) + (columns.has(s) ? s.rows.length * 26 : 0) +
    (pageCaches.get(s)?.bytes ?? 0) + listBitsBytes(s);
}

/** What the list's row bitsets of a snapshot hold (counted in searchIndexBytes): bytes, 0 before the first list request. */
export function listBitsBytes(s: LiveSnapshot): number {
  const l = listIndexes.get(s);
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

/** Positions (in the usage order) of the servers running a mod seen at or after `since`. */
function usedBy(s: LiveSnapshot, workshopId: string, since: number): number[] {
  const at = s.usage.byMod.get(workshopId);
  const out: number[] = [];
  if (at) for (let i = 0; i < at.length; i++) if (s.usage.seen[at[i]!]! >= since) out.push(at[i]!);
  return out;
}

/**
 * The usage numbers per snapshot and mod, with the range of `since` they hold for: every counted
 * server was seen at or after `hi`, every other one before `lo`, so for any `since` in (lo, hi]
 * the numbers are the same. Dropped with the snapshot (a scan builds a new one).
 */
const usageMemo = new WeakMap<LiveSnapshot, Map<string, { servers: number; players: number; lo: number; hi: number }>>();

/** Servers seen since `since` that run the mod, and their players (the usage numbers). */
export function modUsageOf(s: LiveSnapshot, workshopId: string, since: number): { servers: number; players: number } {
  const at = s.usage.byMod.get(workshopId);
  if (!at) return { servers: 0, players: 0 };
  let memo = usageMemo.get(s);
  if (!memo) usageMemo.set(s, (memo = new Map()));
  const m = memo.get(workshopId);
  // A popular mod runs on thousands of servers: count them once, not on every request.
  if (m && m.lo < since && since <= m.hi) return { servers: m.servers, players: m.players };
  let servers = 0;
  let players = 0;
  let lo = -Infinity;
  let hi = Infinity;
  for (let k = 0; k < at.length; k++) {
    const i = at[k]!;
    const seen = s.usage.seen[i]!;
    if (seen >= since) {
      servers++;
      players += s.usage.players[i]!;
      if (seen < hi) hi = seen;
    } else if (seen > lo) lo = seen;
  }
  memo.set(workshopId, { servers, players, lo, hi });
  return { servers, players };
}

/**
 * Each usage position's answer JSON (serverBase), made the first time a request needs it and
 * kept with the snapshot's usage: a scan does not serialise ~5,000-10,000 servers for it that
 * nobody may ask for; a popular mod's first request makes its servers'.
 */
const usageJsons = new WeakMap<LiveSnapshot["usage"], (string | undefined)[]>();
function usageJson(usage: LiveSnapshot["usage"], i: number): string {
  let json = usageJsons.get(usage);
  if (!json) usageJsons.set(usage, (json = new Array(usage.rows.length)));
  return (json[i] ??= JSON.stringify(serverBase(usage.rows[i]!)));
}

/** GET /mods/:id/servers as JSON text: the servers seen since `since` that run the mod, most players first. */
export function modServersJson(s: LiveSnapshot, workshopId: string, since: number): string {
  const at = usedBy(s, workshopId, since);
  return "[" + at.map((i) => usageJson(s.usage, i)).join(",") + "]";
}
