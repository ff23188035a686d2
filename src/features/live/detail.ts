// GET /game-servers/:id of an online server (issue 29), without serialising its mods' items on
// every first request. The answer is `{server, mods, mod_items}`; `mod_items` is, mod by mod in
// the server's order, the catalog's items of the version the server runs (when that version was
// scanned, else the catalog's latest) sorted by type and name. Those items depend only on the
// catalog, not on the server: each mod's items are serialised once per catalog generation (a
// UTF-8 fragment `{...},{...}` per workshop id, item version and mod name, least recently used
// out) and a server's answer is its own fields, its mod list (one primary-key range read) and a
// copy of its mods' ready fragments. The whole answer is also kept per live snapshot and catalog
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
/** Per-mod item fragments kept a database (UTF-8 bytes; ~24 MB would hold every mod's at full scale). */
export const ITEM_FRAGMENT_BYTES = 16 * 2 ** 20;

const encoder = new TextEncoder();
const sizeOf = (k: string, v: Uint8Array) => v.byteLength + k.length * 2 + 64;

const readCatalogGen = (sqlite: Database) =>
  (stmt(sqlite, `SELECT value FROM live_state WHERE key = 'catalog_gen'`).get() as { value: number } | null)?.value ?? 0;

/** Per snapshot: the catalog generation its kept answers were joined at, and the answers by server id. */
const answers = new WeakMap<LiveSnapshot, { gen: number; lru: BytesLru<Uint8Array> }>();
/** Per database: the catalog generation of the fragments, and the fragments by `workshop id \n version \n mod name`. */
const fragments = new WeakMap<Database, { gen: number; lru: BytesLru<Uint8Array> }>();

/** The server's mods as the answer's `mods[]` reads them, and the version of the items each one lists. */
const MODS = `SELECT gm.workshop_id, coalesce(nullif(gm.name, ''), m.name, '') AS name, gm.version, gm.position,
    coalesce(m.size_bytes, 0) AS size_bytes, m.image_url, nullif(m.version, '') AS latest_version,
    (m.workshop_id IS NOT NULL) AS in_catalog,
    coalesce((SELECT s.version FROM mod_item_scans s WHERE s.workshop_id = gm.workshop_id AND s.version = gm.version), m.version) AS item_version
  FROM game_server_mods gm LEFT JOIN mods m ON m.workshop_id = gm.workshop_id
  WHERE gm.server_id = $id ORDER BY gm.position`;

/** One mod version's items in the answer's order (the same as detailOf's within a mod). */
const ITEMS = `SELECT item_type, name, path, guid FROM mod_items WHERE workshop_id = ? AND version = ? ORDER BY item_type, name, path, item_key`;

interface ModRow {
  workshop_id: string;
  name: string;
  version: string | null;
  position: number;
  size_bytes: number;
  image_url: string | null;
  latest_version: string | null;
  in_catalog: number;
  item_version: string | null;
}

function fragmentCache(sqlite: Database, gen: number) {
  let f = fragments.get(sqlite);
  if (!f || f.gen !== gen) fragments.set(sqlite, (f = { gen, lru: new BytesLru<Uint8Array>(ITEM_FRAGMENT_BYTES, sizeOf) }));
  return f.lru;
}

const EMPTY = new Uint8Array(0);

/** A mod version's items as the answer lists them under `modName`, comma-joined UTF-8 (empty when none). */
function itemsFragment(sqlite: Database, lru: BytesLru<Uint8Array>, workshopId: string, version: string, modName: string): Uint8Array {
  const key = `${workshopId}\n${version}\n${modName}`;
  let f = lru.get(key);
  if (f) return f;
  const rows = stmt(sqlite, ITEMS).all(workshopId, version) as { item_type: string; name: string; path: string; guid: string | null }[];
  f = rows.length === 0
    ? EMPTY
    : encoder.encode(
        rows
          .map((i) => JSON.stringify({ workshop_id: workshopId, mod_name: modName, version, type: i.item_type, name: i.name, path: i.path, guid: i.guid }))
          .join(","),
      );
  lru.set(key, f);
  return f;
}

/**
 * The answer of an online server (its row from the snapshot `s`), as UTF-8 JSON: kept per snapshot
 * and catalog generation, else built from the per-mod fragments; `sql` answers (the SQL path's
 * object) when the server's mods share a position.
 */
export function onlineDetailBytes(sqlite: Database, s: LiveSnapshot, r: ServerRow, server: object, sql: () => unknown): Uint8Array {
  const gen = readCatalogGen(sqlite);
  let a = answers.get(s);
  if (!a || a.gen !== gen) answers.set(s, (a = { gen, lru: new BytesLru<Uint8Array>(DETAIL_CACHE_BYTES, sizeOf) }));
  const kept = a.lru.get(r.id);
  if (kept) return kept;
  const out = buildDetail(sqlite, gen, r.id, server) ?? encoder.encode(JSON.stringify(sql()));
  a.lru.set(r.id, out);
  return out;
}

function buildDetail(sqlite: Database, gen: number, id: string, server: object): Uint8Array | null {
  const rows = stmt(sqlite, MODS).all({ id }) as ModRow[];
  const mods = new Array(rows.length);
  const parts: Uint8Array[] = [];
  const lru = fragmentCache(sqlite, gen);
  let size = 0;
  for (let k = 0; k < rows.length; k++) {
    const m = rows[k]!;
    if (k > 0 && m.position === rows[k - 1]!.position) return null;
    mods[k] = {
      workshop_id: m.workshop_id,
      name: m.name,
      version: m.version,
      position: m.position,
      size_bytes: m.size_bytes,
      image_url: m.image_url,
      latest_version: m.latest_version,
      in_catalog: !!m.in_catalog,
    };
    if (m.item_version === null) continue;
    const f = itemsFragment(sqlite, lru, m.workshop_id, m.item_version, m.name);
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

/** What the detail caches hold (for the metrics): answers of the snapshot `s`, and item fragments. */
export function detailCacheStats(sqlite: Database, s: LiveSnapshot | null): { servers: number; bytes: number; fragments: number; fragmentBytes: number } {
  const a = s ? answers.get(s) : undefined;
  const f = fragments.get(sqlite);
  return { servers: a?.lru.map.size ?? 0, bytes: a?.lru.bytes ?? 0, fragments: f?.lru.map.size ?? 0, fragmentBytes: f?.lru.bytes ?? 0 };
}
