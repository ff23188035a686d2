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
// for every sort (computed by SQLite with the same ORDER BY the SQL path uses, so ties and
// NOCASE collation are the same), the lower-cased tags string, and for every workshop id the
// servers that run it. A request walks the order of its sort and stops after offset + limit
// matches; a mod filter first intersects the servers of the asked mods.
import { nameHolds, parseServerSearch } from "./search";
import type { Database } from "bun:sqlite";
import type { ListQuery, ServerEntry } from "./model";
import { SERVER_SORTS } from "./model";
import { SERVER_COLUMNS, stmt, type ServerRow } from "./repository";
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
  entries: readonly ServerEntry[];
  /** Tags as stored (`,a,b,`), ASCII-lower-cased as SQLite's LIKE compares them. */
  tags: readonly string[];
  order: Readonly<Record<ListQuery["sort_by"], Int32Array>>;
  /** workshop id → indexes (into rows) of the servers running it. */
  byMod: ReadonlyMap<string, Int32Array>;
  /** Each entry as JSON, serialised once (GET /game-servers joins the page's strings). */
  json: readonly string[];
  /**
   * Every row's search_text in one string, rows separated by NUL, and each row's start in it
   * (one more at the end): a search word is found with native indexOf over the whole text.
   */
  text: string;
  textStart: Int32Array;
  /** Rows seen at or after this time (the build time minus the online window) are held. */
  cut: number;
  /**
   * Mod usage (GET /mods/:id/servers, the usage numbers of /mods/:id/stats and its metrics):
   * every server seen within the window, online or not (a server the last scan missed still
   * counts until its last sighting is an hour old), in that endpoint's order (players, name
   * NOCASE, id, as SQLite orders them); for each, its last sighting, players and answer JSON.
   */
  usage: {
    seen: Float64Array;
    players: Int32Array;
    json: readonly string[];
    /** workshop id → positions (ascending) of the servers running it. */
    byMod: ReadonlyMap<string, Int32Array>;
  };
  /** Approximate bytes held (rows, entries, JSON, text, orders, mod index). */
  bytes: number;
  /**
   * GET /game-servers/:id of online servers, serialised on first request from this snapshot
   * (id → JSON and the catalog generation its mods and items were joined at); bounded by
   * DETAIL_CACHE_BYTES, oldest first out. Mutable: filled by readers, dropped with the snapshot.
   */
  details: { map: Map<string, { gen: number; json: string }>; bytes: number };
}

/** At most this many bytes (2 a character) of serialised server details are kept a snapshot. */
export const DETAIL_CACHE_BYTES = 24 * 2 ** 20;

const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

let builds = 0;
const snapshots = new WeakMap<Database, LiveSnapshot>();

const readGen = (sqlite: Database) =>
  (stmt(sqlite, `SELECT value FROM live_state WHERE key = 'servers_gen'`).get() as { value: number } | null)?.value ?? 0;

/** The current snapshot, built on first use and whenever SQLite moved on since it was read. */
export function liveSnapshot(sqlite: Database, now: number): LiveSnapshot {
  let s = snapshots.get(sqlite);
  // Another generation, or a clock set back before what the snapshot holds: build anew.
  if (!s || s.gen !== readGen(sqlite) || now - ONLINE_WINDOW < s.cut) {
    s = buildSnapshot(sqlite, now);
    snapshots.set(sqlite, s);
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
  return s;
}

export const snapshotBuilds = () => builds;

export function buildSnapshot(sqlite: Database, now: number): LiveSnapshot {
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
    const orders = {} as Record<ListQuery["sort_by"], Int32Array>;
    for (const sort of SERVER_SORTS) {
      const sids = stmt(sqlite, `SELECT g.sid ${online} ORDER BY ${ORDER[sort]}`).values({ cut }) as [number][];
      const a = new Int32Array(sids.length);
      for (let i = 0; i < sids.length; i++) a[i] = bySid.get(sids[i]![0])!;
      orders[sort] = a;
    }
    // Every server seen within the window, online or not, in /mods/:id/servers's order.
    const recent = `FROM game_servers g INDEXED BY game_servers_seen_idx WHERE g.last_seen_at >= $cut`;
    const used = stmt(
      sqlite,
      `SELECT g.sid, g.id, g.name, g.host_address, g.player_count, g.player_count_limit, g.queue_players_count, g.scenario_name,
         g.game_version, g.password_protected, g.official, g.last_seen_at
       ${recent} ORDER BY g.player_count DESC, g.name COLLATE NOCASE, g.id`,
    ).all({ cut }) as (ServerBaseRow & { sid: number })[];
    // sid → position in rows / in the usage order (+1; 0: not held), as arrays: ~400,000 pairs
    // are placed below, and an array read is several times cheaper than a Map lookup.
    let maxSid = 0;
    for (const r of used) if (r.sid > maxSid) maxSid = r.sid;
    const usedAt = new Int32Array(maxSid + 1);
    const rowAt = new Int32Array(maxSid + 1);
    const seen = new Float64Array(used.length);
    const players = new Int32Array(used.length);
    const usedJson = used.map((r, i) => {
      usedAt[r.sid] = i + 1;
      seen[i] = r.last_seen_at;
      players[i] = r.player_count;
      return JSON.stringify(serverBase(r));
    });
    for (const [sid, i] of bySid) if (sid <= maxSid) rowAt[sid] = i + 1;
    // The servers seen within the window first (the last-seen index), each one's mods from the
    // primary key (one row per server and mod); the online ones also make the live list's index.
    const lists = new Map<string, { used: number[]; online: number[] }>();
    const pairs = stmt(sqlite, `SELECT g.sid, gm.workshop_id ${recent.replace("WHERE", "CROSS JOIN game_server_mods gm ON gm.server_id = g.id WHERE")}`).values({
      cut,
    }) as [number, string][];
    for (let k = 0; k < pairs.length; k++) {
      const [sid, mod] = pairs[k]!;
      let l = lists.get(mod);
      if (!l) lists.set(mod, (l = { used: [], online: [] }));
      l.used.push(usedAt[sid]! - 1);
      const i = rowAt[sid]!;
      if (i > 0) l.online.push(i - 1);
    }
    const byMod = new Map<string, Int32Array>();
    const usedByMod = new Map<string, Int32Array>();
    let modInts = 0;
    for (const [mod, l] of lists) {
      usedByMod.set(mod, Int32Array.from(l.used).sort());
      if (l.online.length) byMod.set(mod, Int32Array.from(l.online).sort());
      modInts += l.used.length + l.online.length;
    }
    const entries = rows.map((r) => {
      const e = toEntry(r);
      Object.freeze(e.tags);
      return Object.freeze(e);
    });
    const json = entries.map((e) => JSON.stringify(e));
    const textStart = new Int32Array(rows.length + 1);
    let at = 0;
    rows.forEach((r, i) => {
      textStart[i] = at;
      at += r.search_text.length + 1;
    });
    textStart[rows.length] = at;
    const text = rows.map((r) => r.search_text).join("\u0000") + "\u0000";
    const topMods = (
      stmt(sqlite, `SELECT workshop_id, name, server_count FROM live_mod_usage ORDER BY server_count DESC, workshop_id LIMIT 10`).all() as TopMod[]
    ).map((m) => Object.freeze(m));
    const tags = rows.map((r) => asciiLower(r.tags));
    // Rough: a row and its entry ~ 1.2 KB of strings and objects; 2 bytes a character of JSON and
    // text; 4 bytes an order slot or mod index entry; ~100 B a map key.
    const chars = json.reduce((n, j) => n + j.length, 0) + usedJson.reduce((n, j) => n + j.length, 0) + text.length;
    const bytes = rows.length * 1200 + used.length * 20 + chars * 2 + SERVER_SORTS.length * rows.length * 4 + modInts * 4 + (byMod.size + usedByMod.size) * 100;
    return Object.freeze({
      gen,
      cut,
      builtAt: now,
      buildMs: performance.now() - t0,
      rows: Object.freeze(rows.map((r) => Object.freeze(r))),
      entries: Object.freeze(entries),
      json: Object.freeze(json),
      text,
      textStart,
      tags: Object.freeze(tags),
      order: Object.freeze(orders),
      byMod,
      byId: index,
      topMods: Object.freeze(topMods),
      usage: Object.freeze({ seen, players, json: Object.freeze(usedJson), byMod: usedByMod }),
      bytes,
      details: { map: new Map(), bytes: 0 },
    });
  })();
}

/** Rows whose search text holds every word (a mask), found by indexOf over the whole text. */
function searchMask(s: LiveSnapshot, words: string[]): Uint8Array {
  const n = s.rows.length;
  let mask: Uint8Array | null = null;
  for (const w of words) {
    const hit = new Uint8Array(n);
    if (w.includes("\u0000")) {
      // A word with NUL could match across two rows' texts: test each row on its own.
      for (let i = 0; i < n; i++) if (s.rows[i]!.search_text.includes(w)) hit[i] = 1;
    } else {
      let pos = s.text.indexOf(w);
      let row = 0;
      while (pos !== -1) {
        // The row holding pos (starts are ascending; hits only move forward).
        while (s.textStart[row + 1]! <= pos) row++;
        hit[row] = 1;
        pos = s.text.indexOf(w, s.textStart[row + 1]!);
      }
    }
    if (mask) for (let i = 0; i < n; i++) mask[i]! &= hit[i]!;
    else mask = hit;
  }
  return mask!;
}

/** GET /game-servers from the snapshot: the same rows, order and page as the SQL path. */
export function querySnapshot(s: LiveSnapshot, q: ListQuery, since: number): ServerEntry[] {
  return pageIndexes(s, q, since).map((i) => s.entries[i]!);
}

/** The same page as JSON text (each entry serialised once per snapshot): what the route sends. */
export function querySnapshotJson(s: LiveSnapshot, q: ListQuery, since: number): string {
  const page = pageIndexes(s, q, since);
  let out = "[";
  for (let k = 0; k < page.length; k++) out += (k ? "," : "") + s.json[page[k]!];
  return out + "]";
}

function pageIndexes(s: LiveSnapshot, q: ListQuery, since: number): number[] {
  const search = parseServerSearch(q.search);
  const tags = (q.tags ?? []).slice(0, 20).map((t) => `,${t},`);
  const mods = [...new Set(q.mod_ids ?? [])];
  // Rows that pass the mod and search filters: counts[i] === need.
  let counts: Uint8Array | null = null;
  let need = 0;
  if (mods.length > 0) {
    const sets = mods.map((m) => s.byMod.get(m));
    if (sets.some((x) => !x)) return [];
    sets.sort((a, b) => a!.length - b!.length);
    counts = new Uint8Array(s.rows.length);
    const first = sets[0]!;
    for (let j = 0; j < first.length; j++) counts[first[j]!] = 1;
    for (let k = 1; k < sets.length; k++) {
      const set = sets[k]!;
      for (let j = 0; j < set.length; j++) if (counts[set[j]!] === k) counts[set[j]!] = k + 1;
    }
    need = sets.length;
  }
  if (search.words.length) {
    const mask = searchMask(s, search.words);
    if (counts) for (let i = 0; i < mask.length; i++) counts[i] = counts[i] === need && mask[i] ? 1 : 0;
    else counts = mask;
    need = 1;
  }
  const accepts = (i: number): boolean => {
    if (counts && counts[i] !== need) return false;
    const r = s.rows[i]!;
    if (r.last_seen_at < since) return false;
    if (q.official !== undefined && !!r.official !== q.official) return false;
    if (q.password_protected !== undefined && !!r.password_protected !== q.password_protected) return false;
    if (q.min_players !== undefined && r.player_count < q.min_players) return false;
    if (q.max_mod_size !== undefined && r.mods_size_bytes > q.max_mod_size) return false;
    if (q.community_id !== undefined && r.community_id !== q.community_id) return false;
    if (tags.length && !tags.every((t) => s.tags[i]!.includes(t))) return false;
    if (search.address.length && !search.address.every((a) => r.host_address.toLowerCase().includes(a))) return false;
    return true;
  };
  const out: number[] = [];
  let skip = q.offset;
  const order = s.order[q.sort_by];
  /** Takes the rows `pick` accepts in sort order; true once the page is full. */
  const walk = (pick: (i: number) => boolean): boolean => {
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      if (!accepts(i) || !pick(i)) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      out.push(i);
      if (out.length === q.limit) return true;
    }
    return false;
  };
  const phrase = search.phrase;
  if (phrase) {
    // Servers whose name holds the whole query first, then the rest, each in the asked order.
    if (!walk((i) => nameHolds(s.rows[i]!.search_text, phrase))) walk((i) => !nameHolds(s.rows[i]!.search_text, phrase));
  } else walk(() => true);
  return out;
}

/** An online server's row (online = 1 and seen since `since`), or null: then SQLite answers. */
export function onlineRow(s: LiveSnapshot, id: string, since: number): ServerRow | null {
  const i = s.byId.get(id);
  if (i === undefined) return null;
  const r = s.rows[i]!;
  return r.last_seen_at >= since ? r : null;
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

/** GET /mods/:id/servers as JSON text: the servers seen since `since` that run the mod, most players first. */
export function modServersJson(s: LiveSnapshot, workshopId: string, since: number): string {
  const at = usedBy(s, workshopId, since);
  return "[" + at.map((i) => s.usage.json[i]!).join(",") + "]";
}

const readCatalogGen = (sqlite: Database) =>
  (stmt(sqlite, `SELECT value FROM live_state WHERE key = 'catalog_gen'`).get() as { value: number } | null)?.value ?? 0;

/**
 * An online server's detail as JSON, serialised once per snapshot and catalog generation
 * (97_live_detail_gen.sql: every write to the catalog rows the detail joins moves it); `build`
 * makes the object when there is no such text yet. The caller has checked the server is online
 * in this snapshot (onlineRow), so the cached text's `online: true` and row fields hold.
 */
export function cachedDetailJson(sqlite: Database, s: LiveSnapshot, id: string, build: () => unknown): string {
  const gen = readCatalogGen(sqlite);
  const c = s.details;
  const hit = c.map.get(id);
  if (hit?.gen === gen) return hit.json;
  const json = JSON.stringify(build());
  if (hit) {
    c.map.delete(id);
    c.bytes -= hit.json.length * 2;
  }
  c.map.set(id, { gen, json });
  c.bytes += json.length * 2;
  // Oldest out first (a Map iterates in insertion order), never the one just added.
  for (const [k, v] of c.map) {
    if (c.bytes <= DETAIL_CACHE_BYTES || k === id) break;
    c.map.delete(k);
    c.bytes -= v.json.length * 2;
  }
  return json;
}
