// The live servers in memory: an immutable snapshot of the online servers, built from SQLite after
// each scan commits (and after the roll-ups or a community assignment change what it holds), and
// swapped in with one assignment: a reader has the old snapshot or the new one, never half a scan.
// GET /game-servers answers every filter, sort and page from it, and /game-servers/:id (an online
// server's row) and /stats/top-* read it too; SQLite stays the truth (the snapshot is rebuilt from
// it, and `listServersSql` / `topServersSql` / `topModsSql` in service.ts answer the same, for tests).
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
import type { Database } from "bun:sqlite";
import type { ListQuery, ServerEntry } from "./model";
import { SORTS } from "./model";
import { SERVER_COLUMNS, stmt, type ServerRow } from "./repository";
import { ORDER, toEntry } from "./entry";

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
  /** Approximate bytes held (rows, entries, orders, mod index). */
  bytes: number;
}

const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

let builds = 0;
const snapshots = new WeakMap<Database, LiveSnapshot>();

const readGen = (sqlite: Database) =>
  (stmt(sqlite, `SELECT value FROM live_state WHERE key = 'servers_gen'`).get() as { value: number } | null)?.value ?? 0;

/** The current snapshot, built on first use and whenever SQLite moved on since it was read. */
export function liveSnapshot(sqlite: Database, now: number): LiveSnapshot {
  let s = snapshots.get(sqlite);
  if (!s || s.gen !== readGen(sqlite)) {
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
  // One read transaction: the rows, the orders and the mods are of the same committed state.
  return sqlite.transaction(() => {
    const gen = readGen(sqlite);
    const rows = stmt(sqlite, `SELECT ${SERVER_COLUMNS}, g.search_text FROM game_servers g WHERE g.online = 1 ORDER BY g.id`).all() as Row[];
    const index = new Map<string, number>();
    rows.forEach((r, i) => index.set(r.id, i));
    const orders = {} as Record<ListQuery["sort_by"], Int32Array>;
    for (const sort of SORTS) {
      const ids = stmt(sqlite, `SELECT g.id FROM game_servers g WHERE g.online = 1 ORDER BY ${ORDER[sort]}`).values() as [string][];
      const a = new Int32Array(ids.length);
      for (let i = 0; i < ids.length; i++) a[i] = index.get(ids[i]![0])!;
      orders[sort] = a;
    }
    const lists = new Map<string, number[]>();
    const pairs = stmt(
      sqlite,
      `SELECT gm.workshop_id, gm.server_id FROM game_server_mods gm JOIN game_servers g ON g.id = gm.server_id WHERE g.online = 1`,
    ).values() as [string, string][];
    for (const [mod, server] of pairs) {
      const i = index.get(server);
      if (i === undefined) continue;
      let l = lists.get(mod);
      if (!l) lists.set(mod, (l = []));
      l.push(i);
    }
    const byMod = new Map<string, Int32Array>();
    let modInts = 0;
    for (const [mod, l] of lists) {
      const a = Int32Array.from(new Set(l)).sort();
      byMod.set(mod, a);
      modInts += a.length;
    }
    const entries = rows.map((r) => {
      const e = toEntry(r);
      Object.freeze(e.tags);
      return Object.freeze(e);
    });
    const topMods = (
      stmt(sqlite, `SELECT workshop_id, name, server_count FROM live_mod_usage ORDER BY server_count DESC, workshop_id LIMIT 10`).all() as TopMod[]
    ).map((m) => Object.freeze(m));
    const tags = rows.map((r) => asciiLower(r.tags));
    // Rough: a row and its entry ~ 1.2 KB of strings and objects; 4 bytes an order slot or mod index entry; ~100 B a map key.
    const bytes = rows.length * 1200 + SORTS.length * rows.length * 4 + modInts * 4 + byMod.size * 100;
    return Object.freeze({
      gen,
      builtAt: now,
      buildMs: performance.now() - t0,
      rows: Object.freeze(rows.map((r) => Object.freeze(r))),
      entries: Object.freeze(entries),
      tags: Object.freeze(tags),
      order: Object.freeze(orders),
      byMod,
      byId: index,
      topMods: Object.freeze(topMods),
      bytes,
    });
  })();
}

/** GET /game-servers from the snapshot: the same rows, order and page as the SQL path. */
export function querySnapshot(s: LiveSnapshot, q: ListQuery, since: number): ServerEntry[] {
  const words = (q.search ?? "").toLowerCase().split(/\s+/).filter((w) => w !== "").slice(0, 10);
  const tags = (q.tags ?? []).slice(0, 20).map((t) => `,${t},`);
  const mods = [...new Set(q.mod_ids ?? [])];
  let allowed: Uint8Array | null = null;
  if (mods.length > 0) {
    const sets = mods.map((m) => s.byMod.get(m));
    if (sets.some((x) => !x)) return [];
    sets.sort((a, b) => a!.length - b!.length);
    const counts = new Uint8Array(s.rows.length);
    for (const i of sets[0]!) counts[i] = 1;
    for (let k = 1; k < sets.length; k++) for (const i of sets[k]!) if (counts[i] === k) counts[i] = k + 1;
    allowed = counts.map((c) => (c === sets.length ? 1 : 0));
  }
  const out: ServerEntry[] = [];
  let skip = q.offset;
  for (const i of s.order[q.sort_by]) {
    if (allowed && !allowed[i]) continue;
    const r = s.rows[i]!;
    if (r.last_seen_at < since) continue;
    if (q.official !== undefined && !!r.official !== q.official) continue;
    if (q.password_protected !== undefined && !!r.password_protected !== q.password_protected) continue;
    if (q.min_players !== undefined && r.player_count < q.min_players) continue;
    if (q.max_mod_size !== undefined && r.mods_size_bytes > q.max_mod_size) continue;
    if (q.community_id !== undefined && r.community_id !== q.community_id) continue;
    if (words.length) {
      if (!words.every((w) => r.search_text.includes(w))) continue;
    }
    if (tags.length && !tags.every((t) => s.tags[i]!.includes(t))) continue;
    if (skip > 0) {
      skip--;
      continue;
    }
    out.push(s.entries[i]!);
    if (out.length === q.limit) break;
  }
  return out;
}

/** An online server's row (online = 1 and seen since `since`), or null: then SQLite answers. */
export function onlineRow(s: LiveSnapshot, id: string, since: number): ServerRow | null {
  const i = s.byId.get(id);
  if (i === undefined) return null;
  const r = s.rows[i]!;
  return r.last_seen_at >= since ? r : null;
}
