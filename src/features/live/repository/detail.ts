// What an online server's detail reads (detail/): its mod list by variant, and the catalog's
// side of each mod (name, size, image, version, scanned versions, items).
import type { Database } from "bun:sqlite";
import { stmt } from "../../../db/statements";

/**
 * A server's mods as it reported them: one range read of the clustered (server_sid, workshop_id)
 * key of game_server_mods_by_sid (the table behind the game_server_mods view), with the mod-list
 * version in the same statement (one consistent read); sorted by position here.
 */
const SERVER_MODS = `SELECT json_array(workshop_id, name, version), position, (SELECT ver FROM game_server_mods_ver WHERE sid = ?1)
  FROM game_server_mods_by_sid WHERE server_sid = ?1`;

/** What the answer reads of a mod from the catalog (a mods row is wide: read once a generation, not per server). */
const CATALOG_MOD = `SELECT name, size_bytes, image_url, version FROM mods WHERE workshop_id = ?`;
const SCANNED = `SELECT version FROM mod_item_scans WHERE workshop_id = ?`;
/** One mod version's items in the answer's order (the same as detailOf's within a mod). */
const ITEMS = `SELECT item_type, name, path, guid FROM mod_items WHERE workshop_id = ? AND version = ?`
  + ` ORDER BY item_type, name, path, item_key`;
/**
 * The same items as one text, comma-joined JSON objects written by SQLite (null: none): one string
 * a list where ITEMS made four a row and JavaScript one more a row (the warm's garbage: ~2 million
 * strings at full scale). SQLite's JSON text of a string is JSON.stringify's (the same
 * escapes, \uXXXX in lower case for the other control characters, everything else as is);
 * detail.test.ts compares the two over every character of the Basic Multilingual Plane.
 */
const ITEMS_JSON = `SELECT group_concat(json_object('workshop_id', ?1, 'mod_name', ?3, 'version', ?2,
    'type', item_type, 'name', name, 'path', path, 'guid', guid), ',' ORDER BY item_type, name, path, item_key)
  FROM mod_items WHERE workshop_id = ?1 AND version = ?2`;

export const detailRepo = {
  /** A server's mods as [variant key (json_array of id, name, version), position, its list's version]. */
  serverMods(sqlite: Database, sid: number): [string, number, number | null][] {
    return stmt(sqlite, SERVER_MODS).values(sid) as [string, number, number | null][];
  },

  /** What the answer reads of a mod from the catalog (null: the catalog has no such mod). */
  catalogMod(sqlite: Database, wid: string): { name: string; size_bytes: number; image_url: string | null; version: string } | null {
    return stmt(sqlite, CATALOG_MOD).get(wid) as { name: string; size_bytes: number; image_url: string | null; version: string } | null;
  },

  /** The versions of a mod whose items were scanned. */
  scannedVersions(sqlite: Database, wid: string): string[] {
    return (stmt(sqlite, SCANNED).values(wid) as [string][]).map((s) => s[0]);
  },

  /** A mod version's items as the answer lists them under `name` (comma-joined UTF-16 text, "" when none). */
  itemsText(sqlite: Database, wid: string, version: string, name: string): string {
    try {
      return ((stmt(sqlite, ITEMS_JSON).values(wid, version, name) as [string | null][])[0]?.[0]) ?? "";
    } catch {
      // A value SQLite's JSON cannot hold (a BLOB: only a raw write stores one): JSON.stringify's text.
      const rows = stmt(sqlite, ITEMS).values(wid, version) as [unknown, unknown, unknown, unknown][];
      return rows.map(([type, iname, path, guid]) => JSON.stringify({ workshop_id: wid, mod_name: name, version, type, name: iname, path, guid })).join(",");
    }
  },
};
