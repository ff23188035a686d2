// GET /game-servers/:id of an online server (issue 29), without serialising its mods' items on
// every first request. The answer is `{server, mods, mod_items}`; `mod_items` is, mod by mod in
// the server's order, the catalog's items of the version the server runs (when that version was
// scanned, else the catalog's latest) sorted by type and name. Those items depend only on the
// catalog, not on the server: each mod's items are serialised once per catalog generation (a
// UTF-8 fragment `{...},{...}` per workshop id, item version and mod name, least recently used
// out), the catalog's side of each mod (name, size, image, version, scanned versions: a mods row
// is wide, its description before those columns) is read once a generation too, and a server's
// answer is its own fields, its mod list (one primary-key range read) and a copy of its mods'
// ready fragments. The whole answer is also kept per live snapshot and catalog
// generation, as UTF-8 (least recently used out), so a busy server's big answer is sent as is.
//
// Exactness: service.ts `detailOf` (the SQL path, and the tests' truth) orders the items by
// (position, type, name, path, item_key), so a server's items are its mods' fragments in the
// order of their positions; a server whose mods share a position (no scan writes that, raw SQL
// can) is answered by the SQL path. snapshot-edges.test.ts checks the text against the SQL answer
// as time passes and after each kind of raw catalog and live write.
import type { Database } from "bun:sqlite";
import { BytesLru } from "../../shared/bytes-lru";
import type { LiveSnapshot } from "./snapshot";
import { stmt, type ServerRow } from "./repository";

/** Whole answers kept a snapshot (UTF-8 bytes). */
export const DETAIL_CACHE_BYTES = 8 * 2 ** 20;
/**
 * The catalog's side of the mods servers run, with their items serialised (UTF-8), a database:
 * ~11 MB hold every mod the 5,000 online servers of the full-scale bench run.
 */
export const CATALOG_BYTES = 16 * 2 ** 20;

const encoder = new TextEncoder();
const sizeOf = (k: string, v: Uint8Array) => v.byteLength + k.length * 2 + 64;

const readCatalogGen = (sqlite: Database) =>
  (stmt(sqlite, `SELECT value FROM live_state WHERE key = 'catalog_gen'`).get() as { value: number } | null)?.value ?? 0;

/** Per snapshot: the catalog generation its kept answers were joined at, and the answers by server id. */
const answers = new WeakMap<LiveSnapshot, { gen: number; lru: BytesLru<Uint8Array> }>();

/**
 * A server's mods as it reported them: one range read of the clustered (server_sid, workshop_id)
 * key of game_server_mods_by_sid (the table behind the game_server_mods view); sorted by position
 * here, not by a SQLite sorter.
 */
const SERVER_MODS = `SELECT workshop_id, name, version, position FROM game_server_mods_by_sid WHERE server_sid = ?`;
/** What the answer reads of a mod from the catalog (a mods row is wide: read once a generation, not per server). */
const CATALOG_MOD = `SELECT name, size_bytes, image_url, version FROM mods WHERE workshop_id = ?`;
const SCANNED = `SELECT version FROM mod_item_scans WHERE workshop_id = ?`;
/** One mod version's items in the answer's order (the same as detailOf's within a mod). */
const ITEMS = `SELECT item_type, name, path, guid FROM mod_items WHERE workshop_id = ? AND version = ?`
  + ` ORDER BY item_type, name, path, item_key`;

/**
 * A mod as the catalog has it (empty fields when the catalog does not know it), its scanned
 * versions, and its items serialised as answers list them (per item version and mod name: a mod
 * has one or a few). Immutable: a new fragment makes a new object (the cache counts its bytes).
 */
interface CatalogMod {
  known: boolean;
  name: string;
  size: number;
  image: string | null;
  version: string | null;
  scanned: readonly string[];
  items: readonly { version: string; name: string; bytes: Uint8Array }[];
}

/** Per database: the catalog generation, and the catalog's side of each mod servers run. */
const catalogs = new WeakMap<Database, { gen: number; mods: BytesLru<CatalogMod> }>();
const modSize = (k: string, m: CatalogMod) =>
  2 * (k.length + m.name.length + (m.image?.length ?? 0) + (m.version?.length ?? 0)) + m.scanned.length * 48 + 200 +
  m.items.reduce((n, i) => n + i.bytes.byteLength + 2 * (i.version.length + i.name.length) + 80, 0);

function catalogCache(sqlite: Database, gen: number): BytesLru<CatalogMod> {
  let c = catalogs.get(sqlite);
  if (!c || c.gen !== gen) catalogs.set(sqlite, (c = { gen, mods: new BytesLru<CatalogMod>(CATALOG_BYTES, modSize) }));
  return c.mods;
}

function catalogMod(sqlite: Database, c: BytesLru<CatalogMod>, workshopId: string): CatalogMod {
  // Oldest first out (peek): a read costs one map lookup, no reordering.
  let m = c.peek(workshopId);
  if (m) return m;
  const r = stmt(sqlite, CATALOG_MOD).get(workshopId) as { name: string; size_bytes: number; image_url: string | null; version: string } | null;
  const scanned = (stmt(sqlite, SCANNED).all(workshopId) as { version: string }[]).map((s) => s.version);
  m = r
    ? { known: true, name: r.name, size: r.size_bytes, image: r.image_url, version: r.version, scanned, items: [] }
    : { known: false, name: "", size: 0, image: null, version: null, scanned, items: [] };
  c.set(workshopId, m);
  return m;
}

const EMPTY = new Uint8Array(0);

/** A mod version's items as the answer lists them under `modName`, comma-joined UTF-8 (empty when none). */
function itemsFragment(sqlite: Database, c: BytesLru<CatalogMod>, m: CatalogMod, workshopId: string, version: string, modName: string): Uint8Array {
  for (let k = 0; k < m.items.length; k++) {
    const i = m.items[k]!;
    if (i.version === version && i.name === modName) return i.bytes;
  }
  const rows = stmt(sqlite, ITEMS).all(workshopId, version) as { item_type: string; name: string; path: string; guid: string | null }[];
  const bytes = rows.length === 0
    ? EMPTY
    : encoder.encode(
        rows
          .map((i) => JSON.stringify({ workshop_id: workshopId, mod_name: modName, version, type: i.item_type, name: i.name, path: i.path, guid: i.guid }))
          .join(","),
      );
  c.set(workshopId, { ...m, items: [...m.items, { version, name: modName, bytes }] });
  return bytes;
}

/**
 * The answer of an online server (its row from the snapshot `s`), as UTF-8 JSON: kept per snapshot
 * and catalog generation, else built from the catalog caches; `sql` answers (the SQL path's
 * object) when the server's mods share a position.
 */
export function onlineDetailBytes(sqlite: Database, s: LiveSnapshot, r: ServerRow, server: object, sql: () => unknown): Uint8Array {
  const gen = readCatalogGen(sqlite);
  let a = answers.get(s);
  if (!a || a.gen !== gen) answers.set(s, (a = { gen, lru: new BytesLru<Uint8Array>(DETAIL_CACHE_BYTES, sizeOf) }));
  const kept = a.lru.get(r.id);
  if (kept) return kept;
  const out = buildDetail(sqlite, catalogCache(sqlite, gen), r.sid, server) ?? encoder.encode(JSON.stringify(sql()));
  a.lru.set(r.id, out);
  return out;
}

/**
 * service.ts MOD_SELECT and detailOf's item join, field by field: the name the server reports
 * else the catalog's; the items of the reported version when it was scanned, else of the
 * catalog's version (SQLite compares the versions as text, exactly).
 */
function buildDetail(sqlite: Database, c: BytesLru<CatalogMod>, sid: number, server: object): Uint8Array | null {
  const rows = (stmt(sqlite, SERVER_MODS).all(sid) as { workshop_id: string; name: string; version: string | null; position: number }[]).sort(
    (x, y) => x.position - y.position,
  );
  const mods = new Array(rows.length);
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let k = 0; k < rows.length; k++) {
    const g = rows[k]!;
    if (typeof g.position !== "number" || (k > 0 && g.position === rows[k - 1]!.position)) return null;
    const m = catalogMod(sqlite, c, g.workshop_id);
    const name = g.name !== "" && g.name !== null ? g.name : m.name;
    mods[k] = {
      workshop_id: g.workshop_id,
      name,
      version: g.version,
      position: g.position,
      size_bytes: m.size,
      image_url: m.image,
      latest_version: m.version === "" ? null : m.version,
      in_catalog: m.known,
    };
    const itemVersion = g.version !== null && m.scanned.includes(g.version) ? g.version : m.version;
    if (itemVersion === null) continue;
    const f = itemsFragment(sqlite, c, m, g.workshop_id, itemVersion, name);
    if (f.byteLength === 0) continue;
    parts.push(f);
    size += f.byteLength;
  }
  const head = encoder.encode(`{"server":${JSON.stringify(server)},"mods":${JSON.stringify(mods)},"mod_items":[`);
  const out = new Uint8Array(head.byteLength + size + Math.max(0, parts.length - 1) + 2);
  out.set(head, 0);
  let at = head.byteLength;
  for (let k = 0; k < parts.length; k++) {
    if (k > 0) out[at++] = 44; // ,
    out.set(parts[k]!, at);
    at += parts[k]!.byteLength;
  }
  out[at++] = 93; // ]
  out[at] = 125; // }
  return out;
}

/** What the detail caches hold (for the metrics): answers of the snapshot `s`, and the catalog's mods with their items. */
export function detailCacheStats(sqlite: Database, s: LiveSnapshot | null): { servers: number; bytes: number; mods: number; modBytes: number } {
  const a = s ? answers.get(s) : undefined;
  const c = catalogs.get(sqlite);
  return { servers: a?.lru.map.size ?? 0, bytes: a?.lru.bytes ?? 0, mods: c?.mods.map.size ?? 0, modBytes: c?.mods.bytes ?? 0 };
}
