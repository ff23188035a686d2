// The servers' mod lists (game_server_mod_lists: one JSON row a server) and the changelog
// (game_server_mod_events: one row a server and scan), as the scan writes and reads them.
import type { Database } from "bun:sqlite";
import { insertRows, stmt } from "../../../db/statements";
import { bumpServersGen } from "./state";

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


/** listName's answer when the text must be parsed to tell. */
export const UNREAD: unique symbol = Symbol("unread");

/** Whether JSON writes `text` as a string without an escape (so it can be found in a list's text as it is). */
export const writtenPlain = (text: string) => !/[\\"\u0000-\u001f\ud800-\udfff]/.test(text);

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

export const modListsRepo = {
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
   * them by workshop id cost a first sight ~70 ms); an empty list deletes its row. Inside a bulk
   * write (withBulkWrite: the lists' per-row triggers skip) it does what they do once for all the
   * rows: servers_gen moves and every list written gets it as its version
   * (game_server_mods_ver: a value no earlier write had); outside one the triggers did it already
   * and this moves the versions on once more.
   */
  insertMods(sqlite: Database, lists: ModList[]) {
    const rows: [number, string][] = [];
    const emptied: number[] = [];
    for (const [sid, entries] of lists) {
      if (entries.length === 0) emptied.push(sid);
      else rows.push([sid, JSON.stringify(entries)]);
    }
    if (rows.length === 0 && emptied.length === 0) return;
    if (emptied.length > 0) stmt(sqlite, `DELETE FROM game_server_mod_lists WHERE server_sid IN (SELECT value FROM json_each(?))`).run(JSON.stringify(emptied));
    insertRows(sqlite, `INSERT INTO game_server_mod_lists (server_sid, mods)`, 2, rows, `ON CONFLICT (server_sid) DO UPDATE SET mods = excluded.mods`);
    bumpServersGen(sqlite);
    stmt(
      sqlite,
      `INSERT OR REPLACE INTO game_server_mods_ver (sid, ver)
       SELECT j.value, (SELECT value FROM live_state WHERE key = 'servers_gen') FROM json_each(?) j`,
    ).run(JSON.stringify([...rows.map((r) => r[0]), ...emptied]));
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
    for (const [sid, text] of modListsRepo.modListTexts(sqlite, serverSids)) {
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
      for (const m of modListsRepo.currentMods(sqlite, other)) {
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
};

/**
 * A server's mods as the detail and its mods page answer them (through the game_server_mods view:
 * the server's UUID and its list), joined with the catalog; `in_catalog` as 0/1.
 */
const MOD_SELECT = `SELECT gm.workshop_id, coalesce(nullif(gm.name, ''), m.name, '') AS name, gm.version, gm.position,
    coalesce(m.size_bytes, 0) AS size_bytes, m.image_url, nullif(m.version, '') AS latest_version,
    (m.workshop_id IS NOT NULL) AS in_catalog
  FROM game_server_mods gm LEFT JOIN mods m ON m.workshop_id = gm.workshop_id
  WHERE gm.server_id = $id ORDER BY gm.position`;

/** A server's mod as MOD_SELECT reads it. */
export interface ServerModRow {
  workshop_id: string;
  name: string;
  version: string | null;
  position: number;
  size_bytes: number;
  image_url: string | null;
  latest_version: string | null;
  in_catalog: number;
}

/** One item of a server's mods as its detail lists them. */
export interface ServerItemRow {
  workshop_id: string;
  mod_name: string;
  version: string;
  type: string;
  name: string;
  path: string;
  guid: string | null;
}

/** One server's mods and changelog, as its detail, its mods page and its changelog read them (by the server's id or sid). */
export const serverModsRepo = {
  /** Every mod of the server, in position order. */
  all(sqlite: Database, id: string): ServerModRow[] {
    return stmt(sqlite, MOD_SELECT).all({ id }) as ServerModRow[];
  },

  /** A page of them. */
  page(sqlite: Database, id: string, limit: number, offset: number): ServerModRow[] {
    return stmt(sqlite, `${MOD_SELECT} LIMIT $limit OFFSET $offset`).all({ id, limit, offset }) as ServerModRow[];
  },

  /** How many mods, and the sum of the catalog's sizes. */
  totals(sqlite: Database, id: string): { total: number; size: number } {
    return stmt(
      sqlite,
      `SELECT count(*) AS total, coalesce(sum(m.size_bytes), 0) AS size FROM game_server_mods gm
       LEFT JOIN mods m ON m.workshop_id = gm.workshop_id WHERE gm.server_id = ?`,
    ).get(id) as { total: number; size: number };
  },

  /**
   * The catalog's items of the server's mods: of the version the server runs when it was scanned,
   * else of the catalog's latest; ordered by position, type and name, then path and key (a total
   * order: mod_items' key is (workshop_id, version, item_key)).
   */
  items(sqlite: Database, id: string): ServerItemRow[] {
    return stmt(
      sqlite,
      `SELECT gm.workshop_id, coalesce(nullif(gm.name, ''), m.name, '') AS mod_name, i.version, i.item_type AS type,
          i.name, i.path, i.guid
       FROM game_server_mods gm
       LEFT JOIN mods m ON m.workshop_id = gm.workshop_id
       JOIN mod_items i ON i.workshop_id = gm.workshop_id AND i.version = coalesce(
         (SELECT s.version FROM mod_item_scans s WHERE s.workshop_id = gm.workshop_id AND s.version = gm.version), m.version)
       WHERE gm.server_id = $id
       ORDER BY gm.position, i.item_type, i.name, i.path, i.item_key`,
    ).all({ id }) as ServerItemRow[];
  },

  /** The server's changelog rows newest first: [id, number of changes]. */
  changelogRows(sqlite: Database, sid: number): [number, number][] {
    return stmt(sqlite, `SELECT id, n FROM game_server_mod_events WHERE server_sid = ? ORDER BY id DESC`).values(sid) as [number, number][];
  },

  /**
   * One changelog row's time and changes (JSON text): a first sighting held by reference reads in
   * full through game_server_mod_first_changes, the view its triggers copy from.
   */
  changelogRow(sqlite: Database, eventId: number): { time: number; changes: string } {
    return stmt(
      sqlite,
      `SELECT e.time, coalesce((SELECT f.changes FROM game_server_mod_first_changes f WHERE f.id = e.id), e.changes) AS changes
       FROM game_server_mod_events e WHERE e.id = ?`,
    ).get(eventId) as { time: number; changes: string };
  },

  /** A list a failed copy-from-server made, removed again (the lists feature's table). */
  removeList(sqlite: Database, listId: string) {
    stmt(sqlite, "DELETE FROM lists WHERE id = ?").run(listId);
  },
};
