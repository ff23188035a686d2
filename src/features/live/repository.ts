// The live feature's queries. Everything on the scan path and the read endpoints is a prepared
// bun:sqlite statement (cached per connection) and set-based: batches go in as JSON arrays
// through json_each, never one query per server or per mod. Stat series tables are
// WITHOUT ROWID tables from src/db/custom/40_live_stats.sql (not drizzle-expressible).
import type { Database } from "bun:sqlite";
import { generation, insertRows, stmt } from "../../db/statements";
import { binaryCompare } from "../../shared/binary-order";
import type { gameServers } from "./tables";
import type { LiveServer } from "./battlemetrics";

export const HOUR = 3_600_000;
export const THREE_HOURS = 3 * HOUR;
export const DAY = 24 * HOUR;
/** Raw 5-minute points are kept (and read) for 24 hours. */
export const RAW_WINDOW = DAY;

export { stmt } from "../../db/statements";

export interface ExistingServer {
  id: string;
  sid: number;
  host_address: string;
  mods_hash: string;
  players_sum_7d: number;
  samples_7d: number;
}

/** How many mods live_mod_usage keeps: GET /stats/top-mods's 10 (decisions.md "Top statistics"). */
export const TOP_MODS = 10;

/**
 * The `n` entries of `usage` with the most servers, ties by workshop id in SQLite's BINARY order
 * (`ORDER BY server_count DESC, workshop_id LIMIT n`), in that order; one pass, each entry
 * compared with the last of the kept few.
 */
export function topOfUsage<T extends readonly [string, number, ...unknown[]]>(usage: readonly T[], n: number): T[] {
  const before = (a: T, b: T) => a[1] > b[1] || (a[1] === b[1] && binaryCompare(a[0], b[0]) < 0);
  const top: T[] = [];
  if (n <= 0) return top;
  for (const u of usage) {
    if (top.length === n && !before(u, top[n - 1]!)) continue;
    let k = Math.min(top.length, n - 1);
    top[k] = u;
    while (k > 0 && before(u, top[k - 1]!)) {
      top[k] = top[k - 1]!;
      top[--k] = u;
    }
  }
  return top;
}

export interface CurrentMod {
  server_sid: number;
  workshop_id: string;
  name: string;
  version: string | null;
  position: number;
}

/** Servers' stored mod lists (liveRepo.currentLists): the view's rows by sid, in each list's order; `parsed`: the sids whose text was read as the scan writes lists. */
export interface StoredLists {
  bySid: Map<number, CurrentMod[]>;
  parsed: Set<number>;
}

/**
 * What a scan writes of a reported server to its row (insertServer, updateServer): the source's
 * fields as the row stores them (flags as 0/1, tags as one string), and `now`, the scan's time.
 */
export type ServerFields = Pick<
  LiveServer,
  "source_id" | "name" | "ip" | "port" | "country" | "player_count" | "player_count_limit" | "queue_players_count" | "wait_time_estimation" | "scenario_name" | "game_version"
> & { password_protected: number; official: number; tags: string; search_text: string; now: number };

export interface CatalogMod {
  workshop_id: string;
  name: string;
  size_bytes: number;
}

export const SERVER_COLUMNS = `g.id, g.sid, g.name, g.host_address, g.ip, g.port, g.country, g.player_count,
  g.player_count_limit, g.queue_players_count, g.wait_time_estimation, g.scenario_name, g.game_version,
  g.password_protected, g.official, g.tags, g.mods_count, g.mods_size_bytes, g.online, g.avg_players_7d,
  g.community_id, g.first_seen_at, g.last_seen_at`;

/** The SERVER_COLUMNS of game_servers as raw SQL reads them (the booleans as 0/1). */
export type ServerRow = Omit<
  Pick<
    typeof gameServers.$inferSelect,
    | "id" | "sid" | "name" | "host_address" | "ip" | "port" | "country" | "player_count" | "player_count_limit"
    | "queue_players_count" | "wait_time_estimation" | "scenario_name" | "game_version" | "password_protected"
    | "official" | "tags" | "mods_count" | "mods_size_bytes" | "online" | "avg_players_7d" | "community_id"
    | "first_seen_at" | "last_seen_at"
  >,
  "password_protected" | "official" | "online"
> & { password_protected: number; official: number; online: number };

/**
 * Servers whose mod lists the caller wrote in its open transaction and holds in memory (the lists
 * a scan wrote: new servers' and changed ones'): their sids, and for every workshop id among
 * their rows with a name the smallest such sid (refreshModNames takes these instead of reading
 * the rows back).
 */
export interface KnownNames {
  sids: Set<number>;
  first: Map<string, number>;
}

/** From this many rows on, insertMods sets the per-row generation trigger aside (see there). */
export const BULK_ROWS = 2000;

/**
 * Runs `write` with the trigger `name` dropped, and creates it again from the text SQLite stored
 * for it (so it comes back exactly as its migration made it), all inside the caller's transaction:
 * DDL is transactional in SQLite, so other connections see the trigger throughout, and a failure
 * rolls the drop back with everything else. Only for a write that moves what the trigger would
 * have moved itself.
 */
export function withoutRowTrigger<T>(sqlite: Database, name: string, write: () => T): T {
  if (!sqlite.inTransaction) throw new Error(`withoutRowTrigger(${name}) outside a transaction`);
  const def = (stmt(sqlite, `SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = ?`).get(name) as { sql: string } | null)?.sql;
  if (!def) return write();
  sqlite.run(`DROP TRIGGER ${name}`);
  try {
    return write();
  } finally {
    sqlite.run(def);
  }
}

/**
 * The per-row generation triggers of game_servers (70_live_snapshot_gen.sql) that a scan sets
 * aside for its own writes (withoutServerTriggers): each moves servers_gen once per row written,
 * ~5,000 extra statements a scan (a fifth of a steady scan's server writes). The delete trigger
 * stays: a scan deletes no server.
 */
export const SERVER_ROW_TRIGGERS = ["game_servers_gen_ins", "game_servers_gen_upd"] as const;

/**
 * Runs a scan's writes with game_servers' per-row generation triggers set aside (withoutRowTrigger,
 * inside the caller's transaction), then moves servers_gen once, before they come back: what the
 * triggers would have moved, once for all the rows. Whatever `write` reads of servers_gen after
 * its own writes (the snapshot it builds) must move it itself (writeModUsage does).
 */
export function withoutServerTriggers<T>(sqlite: Database, write: () => T): T {
  const [ins, upd] = SERVER_ROW_TRIGGERS;
  return withoutRowTrigger(sqlite, ins, () =>
    withoutRowTrigger(sqlite, upd, () => {
      const out = write();
      bumpServersGen(sqlite);
      return out;
    }),
  );
}

/** Moves live_state.servers_gen (the live snapshot's generation: snapshot.ts). */
export function bumpServersGen(sqlite: Database) {
  stmt(sqlite, `UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen'`).run();
}

/**
 * The catalog's name and size of the workshop ids a scan meets (its mod diffs' sizes and names,
 * the usage's names), read through one lookup per scan and kept per connection between scans for
 * one live_state.catalog_gen: every write to what it holds (a mod added or deleted, a change of its
 * workshop id, name or size; any code path or process) moves that generation
 * (97_live_detail_gen.sql, 99_crawl_cost.sql), and a lookup of another generation starts empty.
 * Each scan read ~11,000 catalog rows by primary key for the usage's names (and a first sight
 * ~100,000 more for its pages' mods), pages of the 40 MB table mostly not in the page cache:
 * ~50-100 ms of a steady scan. What a lookup reads inside
 * a transaction joins the connection's cache only when the caller says its transaction committed
 * (adopt) and the generation is still the one read, so a rolled-back write to the catalog can
 * never leave its rows behind under a generation a later write takes again.
 */
const catalogCaches = new WeakMap<Database, { gen: number; mods: Map<string, CatalogMod | null> }>();

export class CatalogLookup {
  /** Per workshop id: its catalog row, or null when the catalog has none. */
  private readonly fresh = new Map<string, CatalogMod | null>();
  private readonly base: Map<string, CatalogMod | null> | null;
  private readonly gen: number;
  constructor(private readonly sqlite: Database) {
    this.gen = generation(sqlite, "live_state", "catalog_gen");
    const kept = catalogCaches.get(sqlite);
    this.base = kept && kept.gen === this.gen ? kept.mods : null;
  }

  /** The catalog's rows of `ids` (those it has), by workshop id. */
  get(ids: Iterable<string>): Map<string, CatalogMod> {
    const out = new Map<string, CatalogMod>();
    const read: string[] = [];
    for (const id of ids) {
      const m = this.base?.get(id) ?? this.fresh.get(id);
      if (m) out.set(id, m);
      else if (m === undefined && !this.base?.has(id)) read.push(id);
    }
    if (read.length > 0) {
      const rows = stmt(
        this.sqlite,
        `SELECT workshop_id, name, size_bytes FROM mods WHERE workshop_id IN (SELECT value FROM json_each(?))`,
      ).all(JSON.stringify(read)) as CatalogMod[];
      for (const id of read) this.fresh.set(id, null);
      for (const m of rows) {
        this.fresh.set(m.workshop_id, m);
        out.set(m.workshop_id, m);
      }
    }
    return out;
  }

  /** After the caller's transaction committed: what this lookup read is kept for the next one. */
  adopt(): void {
    if (this.sqlite.inTransaction || generation(this.sqlite, "live_state", "catalog_gen") !== this.gen) return;
    const kept = catalogCaches.get(this.sqlite);
    const mods = kept && kept.gen === this.gen ? kept.mods : new Map<string, CatalogMod | null>();
    for (const [id, m] of this.fresh) mods.set(id, m);
    catalogCaches.set(this.sqlite, { gen: this.gen, mods });
  }
}

/** listName's answer when the text must be parsed to tell. */
export const UNREAD: unique symbol = Symbol("unread");

/** Whether JSON writes `text` as a string without an escape (so it can be found in a list's text as it is). */
const writtenPlain = (text: string) => !/[\\"\u0000-\u001f\ud800-\udfff]/.test(text);

/**
 * The name of `id`'s entry in one game_server_mod_lists row's text (what parsing it whole and
 * keeping each id's last entry gives), read from the text: every entry is an array whose first
 * element is the id as a JSON string (JSON.stringify's or json_array's form, no spaces; listIds
 * below reads the ids on the same terms), so `["<id>",` occurs in the text only where an
 * entry of that id starts (its quote is not escaped, so it opens a string, and the `[` before it
 * is no string's: a quote inside a string is always escaped), and the name is the string after
 * it, up to the next quote when no backslash comes before that. UNREAD when the text must be
 * parsed to tell: no such entry, the id again later in the text, an id with another first
 * character or an escape in it, a name that is not a string or holds an escape, a text of
 * another shape.
 */
export function listName(text: string, id: string): string | typeof UNREAD {
  // An id found by text starts with a letter or digit and is written without an escape.
  if (!text.startsWith('[["') || !/^[0-9A-Za-z]/.test(id) || !writtenPlain(id)) return UNREAD;
  const head = `["${id}",`;
  const at = text.lastIndexOf(head);
  if (at < 0) return UNREAD;
  const from = at + head.length;
  if (text.charCodeAt(from) !== 34 /* " */) return UNREAD;
  const end = text.indexOf('"', from + 1);
  if (end < 0 || text.indexOf(id, end) >= 0) return UNREAD;
  const name = text.slice(from + 1, end);
  return name.includes("\\") ? UNREAD : name;
}

/**
 * The workshop ids of one game_server_mod_lists row, in its order (the snapshot's read of a
 * list, modIndex in snapshot.ts): every entry is an array whose first element is the id as a JSON string (the scan's JSON.stringify, the migration's and the
 * views' json_array of text), so every `["` in the text starts an entry (a quote inside a string
 * is escaped) and the id runs to the next quote. An id with an escape in it, or a text of another
 * shape (raw SQL on the table), is parsed whole.
 */
export function listIds(text: string): string[] {
  if (text === "[]") return [];
  if (text.startsWith('[["')) {
    const out: string[] = [];
    // At `at`: the opening quote of an entry's id.
    for (let at = 2; ; ) {
      const end = text.indexOf('"', at + 1);
      if (end < 0) break;
      const id = text.slice(at + 1, end);
      if (id.includes("\\")) break;
      out.push(id);
      const next = text.indexOf('["', end);
      if (next < 0) return out;
      at = next + 1;
    }
  }
  return (JSON.parse(text) as unknown[][]).map((e) => String(e[0]));
}

/** One mod of a server's list as game_server_mod_lists stores it (a6_server_mod_lists.sql). */
export type ModEntry = [workshop_id: string, name: string, version: string | null, position: number];
/** A server's whole new mod list (insertMods). */
export type ModList = [server_sid: number, entries: ModEntry[]];
/** One change of a server's mod list, as the changelog answers it (without the time). */
export type ChangeEntry = [
  action: "added" | "removed" | "updated",
  workshop_id: string,
  mod_name: string,
  old_version: string | null,
  new_version: string | null,
  size_bytes: number | null,
];
/**
 * A server's changes in one scan, in the order found: one game_server_mod_events row. A first
 * sighting whose changes are its list as written (every entry `added` under the list's own name)
 * is held by reference: `changes` null, the count and the catalog's sizes in the list's order
 * (a7_first_sight_changelog.sql).
 */
export type ModEvent =
  | [sid: number, time: number, changes: ChangeEntry[]]
  | [sid: number, time: number, changes: null, n: number, sizes: (number | null)[]];

/** A list's text as its entries when every one is [string, string, string or null, number] (what the scan and the views write), else null. */
function scanShapedList(text: string): [string, string, string | null, number][] | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(v)) return null;
  for (const e of v) {
    if (
      !Array.isArray(e) ||
      e.length !== 4 ||
      typeof e[0] !== "string" ||
      typeof e[1] !== "string" ||
      (e[2] !== null && typeof e[2] !== "string") ||
      typeof e[3] !== "number"
    )
      return null;
  }
  return v as [string, string, string | null, number][];
}

/** A first sighting's first_sizes as its sizes when it is an array of numbers and nulls (what the scan writes), else null. */
function sizesOf(text: string): (number | null)[] | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  return Array.isArray(v) && v.every((x) => x === null || typeof x === "number") ? (v as (number | null)[]) : null;
}

export const liveRepo = {
  /** The game_server_mod_lists rows of these servers, as [sid, text] (a server without a list has none). */
  modListTexts(sqlite: Database, sids: readonly number[]): [number, string][] {
    return stmt(
      sqlite,
      `SELECT l.server_sid, l.mods FROM json_each(?) j CROSS JOIN game_server_mod_lists l ON l.server_sid = j.value`,
    ).values(JSON.stringify(sids)) as [number, string][];
  },

  /**
   * The scan's new and changed mod lists, one game_server_mod_lists row each (a6_server_mod_lists.sql):
   * a list's entries [workshop_id, name, version, position] in the order found (by position; sorting
   * them by workshop id cost a first sight ~70 ms); an empty list deletes its row. A
   * first sight's ~5,000 new lists (~200,000 mods; from BULK_ROWS mods in the lists of `fresh`,
   * the servers the scan inserted, on) go in without the per-row generation trigger (the lists
   * of known servers are upserts that update, which that trigger does not see): it is dropped
   * and created again from its own stored text around the insert, inside the caller's
   * transaction, and the generation moves once instead (and the servers' mod-list versions are
   * set to it). No other connection can see the table without it
   * (the change commits whole, or rolls back with the rows).
   */
  insertMods(sqlite: Database, lists: ModList[], fresh?: ReadonlySet<number>) {
    const rows: [number, string][] = [];
    const emptied: number[] = [];
    let mods = 0;
    for (const [sid, entries] of lists) {
      if (entries.length === 0) {
        emptied.push(sid);
        continue;
      }
      rows.push([sid, JSON.stringify(entries)]);
      if (!fresh || fresh.has(sid)) mods += entries.length;
    }
    if (emptied.length > 0) stmt(sqlite, `DELETE FROM game_server_mod_lists WHERE server_sid IN (SELECT value FROM json_each(?))`).run(JSON.stringify(emptied));
    const insert = () =>
      insertRows(sqlite, `INSERT INTO game_server_mod_lists (server_sid, mods)`, 2, rows, `ON CONFLICT (server_sid) DO UPDATE SET mods = excluded.mods`);
    if (mods < BULK_ROWS) return insert();
    withoutRowTrigger(sqlite, "game_server_mods_gen_ins", insert);
    bumpServersGen(sqlite);
    // What the trigger also does per row: each server's mod-list version (a2_server_mods_ver.sql).
    stmt(
      sqlite,
      `INSERT OR REPLACE INTO game_server_mods_ver (sid, ver)
       SELECT j.value, (SELECT value FROM live_state WHERE key = 'servers_gen') FROM json_each(?) j`,
    ).run(JSON.stringify(rows.map((r) => r[0])));
  },

  /**
   * The changelog: one row per server and scan, its changes as one JSON array
   * (a3_changelog_events.sql): a first sight's ~200,000 `added` entries are ~5,000 rows; a first
   * sighting held by reference is `changes` '[]' and its sizes (a7_first_sight_changelog.sql).
   */
  insertEvents(sqlite: Database, events: ModEvent[]) {
    insertRows(
      sqlite,
      `INSERT INTO game_server_mod_events (server_sid, time, n, changes, first_sizes)`,
      5,
      events.map((e) => (e[2] ? [e[0], e[1], e[2].length, JSON.stringify(e[2]), null] : [e[0], e[1], e[3], "[]", JSON.stringify(e[4])])),
    );
  },

  // ---------- scan ----------
  existingByAddress(sqlite: Database, addresses: string[]): ExistingServer[] {
    return stmt(
      sqlite,
      `SELECT id, sid, host_address, mods_hash, players_sum_7d, samples_7d FROM game_servers
       WHERE host_address IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(addresses)) as ExistingServer[];
  },

  maxSid(sqlite: Database): number {
    return (stmt(sqlite, `SELECT coalesce(max(sid), 0) AS m FROM game_servers`).get() as { m: number }).m;
  },

  /** A new server's row: its reported fields, and what the scan adds (positional values: binding ~28 named ones a row cost about twice as much). */
  insertServer(sqlite: Database, r: ServerFields, x: {
    id: string; sid: number; source: string; host_address: string; mods_count: number; mods_size_bytes: number; mods_hash: string;
    players_sum_7d: number; samples_7d: number; avg_players_7d: number;
  }) {
    stmt(
      sqlite,
      `INSERT INTO game_servers (id, sid, source, source_id, host_address, name, ip, port, country, player_count,
        player_count_limit, queue_players_count, wait_time_estimation, scenario_name, game_version,
        password_protected, official, tags, search_text, mods_count, mods_size_bytes, mods_hash, online,
        players_sum_7d, samples_7d, avg_players_7d, first_seen_at, last_seen_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, 1,
        ?23, ?24, ?25, ?26, ?26)`,
    ).run(
      x.id, x.sid, x.source, r.source_id, x.host_address, r.name, r.ip, r.port, r.country, r.player_count,
      r.player_count_limit, r.queue_players_count, r.wait_time_estimation, r.scenario_name, r.game_version,
      r.password_protected, r.official, r.tags, r.search_text, x.mods_count, x.mods_size_bytes, x.mods_hash,
      x.players_sum_7d, x.samples_7d, x.avg_players_7d, r.now,
    );
  },

  /** A known server's row seen again (positional values, as insertServer). */
  updateServer(sqlite: Database, r: ServerFields, id: string, playersSum7d: number, samples7d: number, avgPlayers7d: number) {
    stmt(
      sqlite,
      `UPDATE game_servers SET source_id = ?1, name = ?2, ip = ?3, port = ?4, country = ?5,
        player_count = ?6, player_count_limit = ?7,
        queue_players_count = ?8, wait_time_estimation = ?9,
        scenario_name = ?10, game_version = ?11, password_protected = ?12,
        official = ?13, tags = ?14, search_text = ?15, online = 1,
        players_sum_7d = ?16, samples_7d = ?17, avg_players_7d = ?18,
        last_seen_at = ?19
       WHERE id = ?20`,
    ).run(
      r.source_id, r.name, r.ip, r.port, r.country, r.player_count, r.player_count_limit, r.queue_players_count,
      r.wait_time_estimation, r.scenario_name, r.game_version, r.password_protected, r.official, r.tags, r.search_text,
      playersSum7d, samples7d, avgPlayers7d, r.now, id,
    );
  },

  /**
   * A server seen by A2S only: counts, name, map and version change; what only the list source
   * knows (mods, tags, country, source id) stays as it was.
   */
  updateServerFromA2s(sqlite: Database, row: {
    id: string; name: string; player_count: number; player_count_limit: number; scenario_name: string; game_version: string;
    password_protected: number; players_sum_7d: number; samples_7d: number; avg_players_7d: number; now: number; registered_server_id: string;
  }) {
    stmt(
      sqlite,
      `UPDATE game_servers SET name = $name, player_count = $player_count, player_count_limit = $player_count_limit,
        scenario_name = CASE WHEN $scenario_name = '' THEN scenario_name ELSE $scenario_name END,
        game_version = CASE WHEN $game_version = '' THEN game_version ELSE $game_version END,
        password_protected = $password_protected, online = 1, players_sum_7d = $players_sum_7d, samples_7d = $samples_7d,
        avg_players_7d = $avg_players_7d, last_seen_at = $now, registered_server_id = $registered_server_id
       WHERE id = $id`,
    ).run(row as any);
  },

  linkRegisteredByAddress(sqlite: Database, hostAddress: string, registeredServerId: string) {
    stmt(sqlite, `UPDATE game_servers SET registered_server_id = ? WHERE host_address = ?`).run(registeredServerId, hostAddress);
  },

  setRegisteredServer(sqlite: Database, id: string, registeredServerId: string) {
    stmt(sqlite, `UPDATE game_servers SET registered_server_id = ? WHERE id = ?`).run(registeredServerId, id);
  },

  /** Registered servers that did not answer A2S: offline now (their history stays). */
  markRegisteredOffline(sqlite: Database, registeredServerIds: string[]): number {
    if (registeredServerIds.length === 0) return 0;
    return stmt(
      sqlite,
      `UPDATE game_servers SET online = 0, player_count = 0, queue_players_count = 0, wait_time_estimation = 0
       WHERE online = 1 AND registered_server_id IN (SELECT value FROM json_each(?))`,
    ).run(JSON.stringify(registeredServerIds)).changes;
  },

  /** Raw stat points: [sid, time, players, queue, wait] (a page's in a few statements). */
  insertRawPoints(sqlite: Database, rows: [number, number, number, number, number][]) {
    insertRows(sqlite, `INSERT OR REPLACE INTO game_server_stats_raw (sid, time, players, queue, wait)`, 5, rows);
  },

  currentMods(sqlite: Database, serverSids: number[]): CurrentMod[] {
    return stmt(
      sqlite,
      `SELECT server_sid, workshop_id, name, version, position FROM game_server_mods_by_sid
       WHERE server_sid IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(serverSids)) as CurrentMod[];
  },

  /**
   * The stored mod lists of these servers, each in its stored order: the rows the view
   * game_server_mods_by_sid gives (currentMods), by sid (a server without a list has none). A
   * list whose every entry has the shape the scan and the views write ([id, name, version or
   * null, position]) is parsed here from its text; through the view (json_each) the same read
   * cost ~2.5×. Any other text goes through the view,
   * so the values are the view's (`->>`) in every case; `parsed` holds the sids read here.
   */
  currentLists(sqlite: Database, serverSids: readonly number[]): StoredLists {
    const out = new Map<number, CurrentMod[]>();
    const parsed = new Set<number>();
    if (serverSids.length === 0) return { bySid: out, parsed };
    const other: number[] = [];
    for (const [sid, text] of this.modListTexts(sqlite, serverSids)) {
      const entries = scanShapedList(text);
      if (!entries) {
        other.push(sid);
        continue;
      }
      parsed.add(sid);
      const mods: CurrentMod[] = new Array(entries.length);
      for (let k = 0; k < entries.length; k++) {
        const e = entries[k]!;
        mods[k] = { server_sid: sid, workshop_id: e[0], name: e[1], version: e[2], position: e[3] };
      }
      out.set(sid, mods);
    }
    if (other.length > 0) {
      for (const m of this.currentMods(sqlite, other)) {
        const mods = out.get(m.server_sid);
        if (mods) mods.push(m);
        else out.set(m.server_sid, [m]);
      }
    }
    return { bySid: out, parsed };
  },

  /**
   * Before a scan rewrites (or deletes) the mod lists of these servers: their first sightings
   * still held by reference (a7_first_sight_changelog.sql) are written in full from `lists` (the
   * lists as stored, currentLists), which is what the list's update or delete trigger would write
   * from the view game_server_mod_first_changes: [`added`, id, name, null, version, size] for each
   * entry in the list's order, the size the row's first_sizes at that index. The trigger then
   * finds none left. Its json_each and json_group_array cost ~90-150 µs a server (a scan right
   * after a first sight meets ~250 of them). Only the lists
   * currentLists parsed itself (`stored.parsed`: arrays of the scan's entries, where the view's
   * index of an entry is its place) are written so; a list of another shape, or a row whose
   * first_sizes is not an array of sizes, is left to the trigger.
   */
  firstSightingsInFull(sqlite: Database, stored: StoredLists, rewritten: readonly number[]) {
    const sids = rewritten.filter((sid) => stored.parsed.has(sid));
    if (sids.length === 0) return;
    const rows = stmt(
      sqlite,
      `SELECT id, server_sid, first_sizes FROM game_server_mod_events
       WHERE server_sid IN (SELECT value FROM json_each(?)) AND first_sizes IS NOT NULL`,
    ).values(JSON.stringify(sids)) as [number, number, string][];
    if (rows.length === 0) return;
    const full = stmt(sqlite, `UPDATE game_server_mod_events SET first_sizes = NULL, changes = ? WHERE id = ?`);
    for (const [id, sid, first] of rows) {
      const sizes = sizesOf(first);
      if (!sizes) continue;
      const mods = stored.bySid.get(sid)!;
      const changes = mods.map((m, k) => ["added", m.workshop_id, m.name, null, m.version, sizes[k] ?? null]);
      full.run(JSON.stringify(changes), id);
    }
  },

  setModSummary(sqlite: Database, id: string, count: number, size: number, hash: string) {
    stmt(sqlite, `UPDATE game_servers SET mods_count = ?, mods_size_bytes = ?, mods_hash = ? WHERE id = ?`).run(
      count,
      size,
      hash,
      id,
    );
  },

  /** Servers not in the completed scan are offline now: no players, not listed. */
  markVanished(sqlite: Database, scanTime: number): number {
    return stmt(
      sqlite,
      `UPDATE game_servers SET online = 0, player_count = 0, queue_players_count = 0, wait_time_estimation = 0
       WHERE online = 1 AND last_seen_at < ?`,
    ).run(scanTime).changes;
  },

  insertGlobalRaw(sqlite: Database, time: number, players: number, queue: number, servers: number) {
    stmt(sqlite, `INSERT OR REPLACE INTO live_global_stats_raw (time, players, queue, servers) VALUES (?, ?, ?, ?)`).run(
      time,
      players,
      queue,
      servers,
    );
  },

  /**
   * One raw point per community that has servers assigned (zeros when none is online). The
   * communities come from the covering community index and the sums from the servers seen at
   * `time` through the last-seen index (rows the scan has just written, in the page cache): one
   * GROUP BY over every assigned server read each one's row (~4,750 at full scale, scattered over
   * the table's ~7,000 pages), ~0.1 s of every scan.
   */
  insertCommunityRaw(sqlite: Database, time: number) {
    stmt(
      sqlite,
      `INSERT OR REPLACE INTO live_community_stats_raw (community_id, time, players, queue, servers)
       SELECT c.community_id, $time, coalesce(s.players, 0), coalesce(s.queue, 0), coalesce(s.servers, 0)
       FROM (SELECT DISTINCT community_id FROM game_servers WHERE community_id IS NOT NULL) c
       LEFT JOIN (
         SELECT community_id, sum(player_count) AS players, sum(queue_players_count) AS queue, count(*) AS servers
         FROM game_servers INDEXED BY game_servers_seen_idx
         WHERE last_seen_at = $time AND community_id IS NOT NULL GROUP BY community_id
       ) s ON s.community_id = c.community_id`,
    ).run({ time });
  },

  /**
   * Recomputes the per-mod usage (servers seen in the last hour) whose top live_mod_usage keeps
   * for GET /stats/top-mods (writeModUsage), counted from SQLite (the roll-up; a scan counts from
   * the snapshot it builds, the same numbers: snapshotWithUsage in snapshot.ts). CROSS JOIN keeps
   * the servers seen in the hour (by the last_seen index) as the outer loop, reading each one's
   * mods from the covering primary-key index.
   */
  refreshModUsage(sqlite: Database, now: number) {
    // Counted here rather than by GROUP BY: SQLite sorted every (server, mod) pair through a
    // temporary B-tree; read in the last-seen index's order and summed in a Map they cost about
    // half (bench/scan.ts, "mod usage refresh").
    const pairs = stmt(
      sqlite,
      `SELECT g.player_count, gm.workshop_id FROM game_servers g INDEXED BY game_servers_seen_idx
       CROSS JOIN game_server_mods_by_sid gm ON gm.server_sid = g.sid WHERE g.last_seen_at >= $since`,
    ).values({ since: now - HOUR }) as [number, string][];
    const usage = new Map<string, [number, number]>();
    for (let i = 0; i < pairs.length; i++) {
      const [players, mod] = pairs[i]!;
      const u = usage.get(mod);
      if (u) {
        u[0]++;
        u[1] += players;
      } else usage.set(mod, [1, players]);
    }
    this.writeModUsage(sqlite, now, Array.from(usage, ([mod, [servers, players]]) => [mod, servers, players]));
  },

  /**
   * Brings live_mod_names up to date (a4_mod_names.sql): for every workshop id, the smallest sid
   * of its mod rows with a name, the row live_mod_usage takes a name from when the catalog has
   * none (what the per-mod index answered first). Only the servers whose mod-list version moved
   * since the last refresh are read (game_server_mods_ver: every write to a server's rows, by any
   * path, gives it a version above every earlier one): their rows can only lower a mod's sid, or
   * take away the row a mod's entry names, and only then is that mod counted again from all rows
   * (one pass over the table). A first sight: the ~5,000 new servers' ~200,000 rows by their
   * primary key, instead of ~200,000 index entries written at random places; with `known` (a
   * scan's new and changed lists, which it wrote from memory in this transaction) those servers' rows
   * are not read back: their smallest named sid per mod is given.
   */
  refreshModNames(sqlite: Database, known?: KnownNames) {
    const gen = this.getState(sqlite, "servers_gen") ?? 0;
    const since = this.getState(sqlite, "mod_names_ver") ?? 0;
    if (gen === since) return;
    const changed = (stmt(sqlite, `SELECT sid FROM game_server_mods_ver WHERE ver > ? ORDER BY sid`).values(since) as [number][]).map((r) => r[0]);
    if (changed.length > 0) {
      const upsert = `ON CONFLICT(workshop_id) DO UPDATE SET server_sid = excluded.server_sid
         WHERE excluded.server_sid < live_mod_names.server_sid`;
      const lost = stmt(
        sqlite,
        `SELECT f.workshop_id FROM live_mod_names f
         WHERE f.server_sid IN (SELECT value FROM json_each(?))
           AND NOT EXISTS (SELECT 1 FROM game_server_mods_by_sid x
             WHERE x.server_sid = f.server_sid AND x.workshop_id = f.workshop_id AND x.name != '')`,
      ).values(JSON.stringify(changed)) as [string][];
      if (lost.length > 0) {
        const ids = JSON.stringify(lost.map((r) => r[0]));
        stmt(sqlite, `DELETE FROM live_mod_names WHERE workshop_id IN (SELECT value FROM json_each(?))`).run(ids);
        // Each mod's lists found by searching every list's text for the id as it is written in it
        // (a JSON string) before json_each takes apart the few that hold it: ~0.15 s a mod at full
        // scale, where one pass through the view takes ~0.5-0.8 s for any number of mods, most of
        // it json_each (a6_server_mod_lists.sql). An id that JSON writes with an escape, or more
        // than a few mods at once, take the pass through the view.
        if (lost.length <= 4 && lost.every(([id]) => writtenPlain(id))) {
          const recount = stmt(
            sqlite,
            `INSERT INTO live_mod_names (workshop_id, server_sid)
             SELECT j.value ->> 0, min(l.server_sid) FROM game_server_mod_lists l, json_each(l.mods) j
             WHERE instr(l.mods, $text) > 0 AND j.value ->> 0 = $id AND j.value ->> 1 != '' GROUP BY j.value ->> 0 ${upsert}`,
          );
          for (const [id] of lost) recount.run({ id, text: JSON.stringify(id) });
        } else {
          stmt(
            sqlite,
            `INSERT INTO live_mod_names (workshop_id, server_sid)
             SELECT workshop_id, min(server_sid) FROM game_server_mods_by_sid
             WHERE name != '' AND workshop_id IN (SELECT value FROM json_each(?)) GROUP BY workshop_id ${upsert}`,
          ).run(ids);
        }
      }
      const read = known ? changed.filter((sid) => !known.sids.has(sid)) : changed;
      if (read.length > 0) {
        stmt(
          sqlite,
          `INSERT INTO live_mod_names (workshop_id, server_sid)
           SELECT gm.workshop_id, min(gm.server_sid) FROM json_each(?) j
           CROSS JOIN game_server_mods_by_sid gm ON gm.server_sid = j.value
           WHERE gm.name != '' GROUP BY gm.workshop_id ${upsert}`,
        ).run(JSON.stringify(read));
      }
      if (known && known.first.size > 0) {
        stmt(
          sqlite,
          `INSERT INTO live_mod_names (workshop_id, server_sid) SELECT j.key, j.value FROM json_each(?) j WHERE true ${upsert}`,
        ).run(JSON.stringify(Object.fromEntries(known.first)));
      }
    }
    this.setState(sqlite, "mod_names_ver", gen);
  },

  /**
   * Replaces live_mod_usage with the top TOP_MODS of `usage` ([workshop id, servers, players] of
   * every mod run by a server seen in the hour before `now`): the most servers first, ties by
   * workshop id (SQLite's BINARY order), each named by usageNames. GET /stats/top-mods is all that
   * reads the table (through the live snapshot, which counts every mod's usage in memory: the
   * catalog's live stats and /mods/:id/servers answer from there). Every used mod's row (~11,000,
   * each named, all rewritten every scan) cost ~30-45 ms of a steady scan on its JavaScript thread
   * and ~100 ms in all.
   */
  writeModUsage(sqlite: Database, now: number, usage: [string, number, number][], catalog: CatalogLookup = new CatalogLookup(sqlite)) {
    const top = topOfUsage(usage, TOP_MODS);
    const names = this.usageNames(
      sqlite,
      top.map((u) => u[0]),
      catalog,
    );
    stmt(sqlite, `DELETE FROM live_mod_usage`).run();
    insertRows(
      sqlite,
      `INSERT INTO live_mod_usage (workshop_id, name, server_count, player_count, updated_at)`,
      5,
      top.map(([mod, servers, players], i) => [mod, names[i]!, servers, players, now]),
    );
    this.setState(sqlite, "mod_usage_at", now);
    // The live snapshot holds the top of this table: move its generation (snapshot.ts).
    bumpServersGen(sqlite);
  },

  /**
   * The names live_mod_usage gives `ids` (in their order): the catalog's name, through `catalog`;
   * else the name of the mod's row with the smallest sid among those with one (live_mod_names,
   * brought up to date first: it writes, so call it inside the caller's write transaction); else ''.
   */
  usageNames(sqlite: Database, ids: readonly string[], catalog: CatalogLookup = new CatalogLookup(sqlite)): string[] {
    this.refreshModNames(sqlite);
    const found = catalog.get(ids);
    const names = ids.map((id) => found.get(id)?.name || "");
    const unnamed: number[] = [];
    for (let i = 0; i < names.length; i++) if (!names[i]) unnamed.push(i);
    if (unnamed.length === 0) return names;
    // The named row of each (live_mod_names: its server's sid), read from the lists of those
    // servers, each list once: the mods share few such servers (the smallest sid with a name),
    // and a look-up per mod through the view took each one's list apart with json_each
    // (~8,000 mods on a first sight: ~0.1 s; a6_server_mod_lists.sql).
    const at = stmt(
      sqlite,
      `SELECT j.key, f.server_sid FROM json_each(?) j JOIN live_mod_names f ON f.workshop_id = j.value`,
    ).values(JSON.stringify(unnamed.map((i) => ids[i]!))) as [number, number][];
    const bySid = new Map<number, number[]>();
    for (const [k, sid] of at) {
      const ks = bySid.get(sid);
      if (ks) ks.push(k);
      else bySid.set(sid, [k]);
    }
    if (bySid.size === 0) return names;
    // Each name found in the list's text (listName); a list it cannot read so is parsed whole.
    for (const [sid, text] of liveRepo.modListTexts(sqlite, [...bySid.keys()])) {
      let named: Map<string, unknown> | null = null;
      for (const k of bySid.get(sid)!) {
        const i = unnamed[k]!;
        const id = ids[i]!;
        let name: unknown = listName(text, id);
        if (name === UNREAD) {
          if (!named) {
            named = new Map<string, unknown>();
            for (const e of JSON.parse(text) as unknown[][]) named.set(String(e[0]), e[1]);
          }
          name = named.get(id);
        }
        if (name !== undefined && name !== null) names[i] = String(name);
      }
    }
    return names;
  },

  getState(sqlite: Database, key: string): number | null {
    const r = stmt(sqlite, `SELECT value FROM live_state WHERE key = ?`).get(key) as { value: number } | null;
    return r ? r.value : null;
  },

  setState(sqlite: Database, key: string, value: number) {
    stmt(sqlite, `INSERT INTO live_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(
      key,
      value,
    );
  },
};
