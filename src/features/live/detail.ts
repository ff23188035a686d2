// GET /game-servers/:id of an online server, copied together from parts made ahead,
// without SQL, objects or JSON.stringify per request. The answer is `{server, mods, mod_items}`:
// - `server`: the server's list entry (its UTF-8 JSON, encoded once per snapshot for the list,
//   snapshot.ts `entryJson`) and five more fields.
// - `mods`: per mod the server runs, in its order, `{workshop_id, name, version, position, ...}`.
//   What comes before `position` depends on the mod, the name and the version the server reports
//   (a *variant*: ~24,000 at full scale, against ~193,000 (server, mod) rows), what comes after on
//   the catalog's side of the mod alone (size, image, latest version, in catalog); both are kept
//   as UTF-8 per catalog generation, the position's digits written per request.
// - `mod_items`: mod by mod in the server's order, the catalog's items of the version the server
//   runs (when that version was scanned, else the catalog's latest) sorted by type and name,
//   serialised once per catalog generation per (mod, item version, mod name) (~8,700 at full scale).
// A server's mod list (its variants by number, in position order, and the positions unless 0, 1, …)
// is read from SQLite once per mod-list version (game_server_mods_ver, moved by every write to the
// server's mod rows) and kept with the snapshot's list of that version, which the next snapshot
// carries over while the version stays: between scans, and across scans for unchanged servers, a
// request reads no SQL but the two generations (one statement a turn of the event loop, db/statements). The catalog's side of each mod (name, size, image,
// version, scanned versions: a mods row is wide, its description before those columns) is read
// once a catalog generation. Whole answers of 64 KB or more are also kept per live snapshot and
// catalog generation (least recently used out), so a busy server's 105 KB answer is sent as is.
// While the process is idle, all of this is prepared ahead for every online server (warmDetails).
//
// Exactness: service.ts `detailOf` (the SQL path, and the tests' truth) orders the items by
// (position, type, name, path, item_key), so a server's items are its mods' fragments in the
// order of their positions; a server whose mods share a position (no scan writes that, raw SQL
// can), or whose positions are not 32-bit integers, is answered by the SQL path.
// snapshot-edges.test.ts checks the text against the SQL answer as time passes and after each kind
// of raw catalog and live write and after scans.
import type { Database } from "bun:sqlite";
import { BytesLru } from "../../shared/bytes-lru";
import { processCpuMs } from "../../shared/idle-gc";
import { toIso } from "../../shared/time";
import { entryJson, peekLiveSnapshot, type LiveSnapshot, type ServerModList } from "./snapshot";
import { stmt, type ServerRow } from "./repository";
import { generation } from "../../db/statements";

/** Whole answers kept a snapshot (UTF-8 bytes), of at least KEEP_FROM_BYTES each. */
export const DETAIL_CACHE_BYTES = 8 * 2 ** 20;
/** The size from which a whole answer is kept (~4 % of the full-scale bench's online servers, the 130-mod one's 105 KB among them). */
export const KEEP_FROM_BYTES = 64 * 1024;
/**
 * The catalog's side of the mods servers run, with their items and variants serialised (UTF-8), a
 * database: ~13 MB hold every mod the 5,000 online servers of the full-scale bench run.
 */
export const CATALOG_BYTES = 16 * 2 ** 20;
let catalogCap = CATALOG_BYTES;
/** The catalog parts' cap (CATALOG_BYTES unless a test sets another); a store already full stays so. */
export function setCatalogPartsCap(bytes: number): void {
  catalogCap = bytes;
}

const encoder = new TextEncoder();
const sizeOf = (k: string, v: Uint8Array) => v.byteLength + k.length * 2 + 64;
const J = JSON.stringify;

/** live_state.catalog_gen (db/statements `generation`: read with servers_gen, once per turn of the event loop). */
const readCatalogGen = (sqlite: Database) => generation(sqlite, "live_state", "catalog_gen");

/** Per snapshot: the catalog generation its kept answers were joined at, and the answers by server id. */
const answers = new WeakMap<LiveSnapshot, { gen: number; lru: BytesLru<Uint8Array> }>();

// ---- Variants: (workshop id, reported name, reported version), numbered per database ----------

/**
 * Every variant seen, by number: its key (SQLite's json_array of the three values, written by the
 * mod-list read itself: one string a row, and no two variants share one), decoded when its part is
 * rendered; a table is started anew (with the catalog caches) past MAX_VARIANTS.
 */
interface Variants {
  index: Map<string, number>;
  keys: string[];
}
const MAX_VARIANTS = 200_000;
const variantTables = new WeakMap<Database, Variants>();

function variantTable(sqlite: Database): Variants {
  let t = variantTables.get(sqlite);
  if (!t || t.keys.length > MAX_VARIANTS) {
    // Rendered variants are held by number: numbers of another table mean other variants.
    if (t) {
      catalogs.get(sqlite)?.lru.clear();
      catalogs.delete(sqlite);
    }
    variantTables.set(sqlite, (t = { index: new Map(), keys: [] }));
  }
  return t;
}

function variantOf(t: Variants, key: string): number {
  let v = t.index.get(key);
  if (v === undefined) {
    t.index.set(key, (v = t.keys.length));
    t.keys.push(key);
  }
  return v;
}

/** A variant's workshop id, reported name and version, from its key. */
function decodeVariant(key: string): { wid: string; name: string; version: string | null } {
  const [wid, name, version] = JSON.parse(key) as [string, string, string | null];
  return { wid, name, version };
}

// ---- A server's mod list, per mod-list version --------------------------------------------------

/**
 * A server's mods in position order (variant numbers of `table`, and their positions, null when
 * they are 0, 1, 2, …: the usual case), or `sql`: answered by the SQL path.
 */
type ServerMods = { table: Variants; variants: Int32Array; positions: Int32Array | null } | { sql: true };
const serverMods = new WeakMap<ServerModList, ServerMods>();
const NO_MODS = { variants: new Int32Array(0), positions: null };

/**
 * A server's mods as it reported them: one range read of the clustered (server_sid, workshop_id)
 * key of game_server_mods_by_sid (the table behind the game_server_mods view), with the mod-list
 * version in the same statement (one consistent read); sorted by position here.
 */
const SERVER_MODS = `SELECT json_array(workshop_id, name, version), position, (SELECT ver FROM game_server_mods_ver WHERE sid = ?1)
  FROM game_server_mods_by_sid WHERE server_sid = ?1`;

function modsOf(sqlite: Database, s: LiveSnapshot, sid: number): ServerMods {
  const table = variantTable(sqlite);
  const list = s.modLists.get(sid);
  const kept = list ? serverMods.get(list) : undefined;
  if (kept && ("sql" in kept || kept.table === table)) return kept;
  if (list && list.ver === null) return { table, ...NO_MODS };
  const rows = stmt(sqlite, SERVER_MODS).values(sid) as [string, number, number | null][];
  rows.sort((x, y) => x[1] - y[1]);
  let out: ServerMods;
  if (rows.some((r, k) => (r[1] | 0) !== r[1] || (k > 0 && r[1] === rows[k - 1]![1]))) out = { sql: true };
  else {
    const variants = new Int32Array(rows.length);
    const positions = new Int32Array(rows.length);
    let counted = true;
    for (let k = 0; k < rows.length; k++) {
      const [key, position] = rows[k]!;
      variants[k] = variantOf(table, key);
      positions[k] = position;
      if (position !== k) counted = false;
    }
    out = { table, variants, positions: counted ? null : positions };
  }
  // Kept only when read at the version the snapshot holds (a write since then: the next request
  // has a new snapshot, whose list has the new version).
  if (list && rows.length > 0 && rows[0]![2] === list.ver) serverMods.set(list, out);
  return out;
}

// ---- The catalog's side, per catalog generation --------------------------------------------------

/**
 * The catalog's side of one catalog generation, packed: every UTF-8 piece (each variant's
 * `mods[]` object up to `"position":`, each mod's rest of it, each (mod, item version, mod name)'s
 * items) is written into a few large chunks, and kept as a view of its chunk, by variant number in
 * three arrays (a request looks up each of its ~40 variants by index). A mod's tail and an item
 * list are one view shared by the variants that use them. What a new variant of a mod needs of the
 * catalog (its name, version and scanned versions) is kept as one string a mod. So the garbage
 * collector sees ~40,000 cells and a few chunks where unpacked parts were ~230,000 objects (a Part,
 * a CatalogMod and their arrays, copied whole on every new part), and the allocator a few large
 * blocks instead of ~40,000 small ones (anonymous memory after warming every detail and a full
 * collection 253 -> 169 MiB).
 *
 * The store is one entry of a BytesLru (its cap CATALOG_BYTES, in the answer caches' budget): read
 * once a request (its place in the budget's least-recently-used order), counted again at each new
 * chunk, and dropped whole when the budget gives it up (the next request starts a new one). Once a
 * new chunk would pass the cap the store takes nothing more: a variant not in it is rendered for
 * the request alone (SQL, as a first request) and the warm stops preparing parts.
 */
class PartStore {
  readonly lru = new BytesLru<PartStore>(catalogCap, (_k, v) => v.counted);
  /** `bytes` when last counted in the budget (the same at set and at delete). */
  counted = 0;
  /** By variant number: its head, its mod's tail, its items (EMPTY when none); undefined: not prepared. */
  readonly heads: (Uint8Array | undefined)[] = [];
  readonly tails: Uint8Array[] = [];
  readonly items: Uint8Array[] = [];
  /** Variants prepared. */
  parts = 0;
  /** By workshop id: the mod's tail view and its catalog text (modText). */
  readonly mods = new Map<string, { tail: Uint8Array; text: string }>();
  /** By `${wid}\n${item version}\n${name}` (workshop ids have no newline): the items' view. */
  readonly itemLists = new Map<string, Uint8Array>();
  private readonly chunks: Uint8Array[] = [];
  private chunk = EMPTY;
  private used = 0;
  /** Bytes of the chunks. */
  chunkBytes = 0;
  /** Characters of the kept keys and mod texts. */
  private chars = 0;
  full = false;

  constructor(readonly gen: number) {
    this.count();
  }

  /** Counts the store again in the budget (which may give it up: it is then not kept). */
  private count(): void {
    this.lru.delete("parts");
    this.counted = this.bytes;
    this.lru.set("parts", this);
  }

  /**
   * Bytes held: the chunks; a part's three array slots and its head's view (~72); a mod's map
   * entry, object, tail view and two strings (~184); an item list's entry, view and key (~120); the
   * strings' characters (at most 2 bytes each).
   */
  get bytes(): number {
    return this.chunkBytes + 72 * this.parts + 184 * this.mods.size + 120 * this.itemLists.size + 2 * this.chars;
  }

  /** Whether the budget still holds this store. */
  get kept(): boolean {
    return this.lru.size > 0;
  }

  /** `text` as UTF-8 in a chunk (a view of it); null when the store is full. */
  put(text: string): Uint8Array | null {
    if (text.length === 0) return EMPTY;
    let r = encoder.encodeInto(text, this.chunk.subarray(this.used));
    if (r.read < text.length) {
      if (this.full) return null;
      // A text of over a quarter chunk gets its own buffer (exactly its size); the others a new
      // chunk, twice the last (64 KiB to 1 MiB).
      const own = text.length * 3 > CHUNK_MAX / 4 ? encoder.encode(text) : null;
      const size = own ? own.byteLength : Math.min(CHUNK_MAX, Math.max(CHUNK_MIN, this.chunk.byteLength * 2));
      if (this.bytes + size > catalogCap || !this.kept) {
        this.full = true;
        return null;
      }
      if (own) {
        this.chunkBytes += size;
        this.count();
        return own;
      }
      this.chunk = new Uint8Array(size);
      this.chunks.push(this.chunk);
      this.chunkBytes += size;
      this.used = 0;
      r = encoder.encodeInto(text, this.chunk);
      this.count();
    }
    const view = this.chunk.subarray(this.used, this.used + r.written);
    this.used += r.written;
    return view;
  }

  addMod(wid: string, tail: Uint8Array, text: string): void {
    this.mods.set(wid, { tail, text });
    this.chars += wid.length + text.length;
  }

  addItems(key: string, view: Uint8Array): void {
    this.itemLists.set(key, view);
    this.chars += key.length;
  }

  setPart(v: number, head: Uint8Array, tail: Uint8Array, items: Uint8Array): void {
    this.heads[v] = head;
    this.tails[v] = tail;
    this.items[v] = items;
    this.parts++;
  }
}
const CHUNK_MIN = 64 * 1024;
const CHUNK_MAX = 1024 * 1024;

/** Per database: the catalog's side of the current catalog generation. */
const catalogs = new WeakMap<Database, PartStore>();

/** The store of generation `gen` (a new one when the budget gave the last one up, or another generation's). */
function catalogCache(sqlite: Database, gen: number): PartStore {
  let c = catalogs.get(sqlite);
  if (!c || c.gen !== gen || !c.lru.get("parts")) {
    // Another generation's store leaves the budget now, not when it is collected.
    c?.lru.clear();
    catalogs.set(sqlite, (c = new PartStore(gen)));
  }
  return c;
}

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
 * snapshot-edges.test.ts compares the two over every character of the Basic Multilingual Plane.
 */
const ITEMS_JSON = `SELECT group_concat(json_object('workshop_id', ?1, 'mod_name', ?3, 'version', ?2,
    'type', item_type, 'name', name, 'path', path, 'guid', guid), ',' ORDER BY item_type, name, path, item_key)
  FROM mod_items WHERE workshop_id = ?1 AND version = ?2`;

/** A mod version's items as the answer lists them under `name` (comma-joined UTF-16 text, "" when none). */
function itemsText(sqlite: Database, wid: string, version: string, name: string): string {
  try {
    return ((stmt(sqlite, ITEMS_JSON).values(wid, version, name) as [string | null][])[0]?.[0]) ?? "";
  } catch {
    // A value SQLite's JSON cannot hold (a BLOB: only a raw write stores one): JSON.stringify's text.
    const rows = stmt(sqlite, ITEMS).values(wid, version) as [unknown, unknown, unknown, unknown][];
    return rows.map(([type, iname, path, guid]) => J({ workshop_id: wid, mod_name: name, version, type, name: iname, path, guid })).join(",");
  }
}

/** What a variant needs of its mod in the catalog, kept as one string (JSON: [name, version, ...scanned]). */
interface ModFacts {
  name: string;
  version: string | null;
  scanned: string[];
}
const modText = (m: ModFacts): string => J([m.name, m.version, ...m.scanned]);
function readModText(text: string): ModFacts {
  const [name, version, ...scanned] = JSON.parse(text) as [string, string | null, ...string[]];
  return { name, version, scanned };
}

/**
 * service.ts MOD_SELECT field by field after `position` (the `tail`): the catalog's size (0 when
 * unknown), image and version (null when empty), and whether the catalog knows the mod; with the
 * mod's name, version and scanned versions.
 */
function catalogMod(sqlite: Database, wid: string): { facts: ModFacts; tail: string } {
  const r = stmt(sqlite, CATALOG_MOD).get(wid) as { name: string; size_bytes: number; image_url: string | null; version: string } | null;
  const scanned = (stmt(sqlite, SCANNED).values(wid) as [string][]).map((s) => s[0]);
  return r
    ? {
        facts: { name: r.name, version: r.version, scanned },
        tail: `,"size_bytes":${J(r.size_bytes)},"image_url":${J(r.image_url)},"latest_version":${J(r.version === "" ? null : r.version)},"in_catalog":true}`,
      }
    : { facts: { name: "", version: null, scanned }, tail: `,"size_bytes":0,"image_url":null,"latest_version":null,"in_catalog":false}` };
}

const EMPTY = new Uint8Array(0);

/** One variant's pieces, rendered for one request when the store is full (not kept). */
const spare: { head: Uint8Array; tail: Uint8Array; items: Uint8Array } = { head: EMPTY, tail: EMPTY, items: EMPTY };

/**
 * Prepares variant `v`: its `mods[]` object up to `"position":` (the name the server reports, else
 * the catalog's) and after it (the mod's tail), and the items of the version it runs when that was
 * scanned, else of the catalog's version (SQLite compares the versions as text, exactly), as the
 * answer lists them under its name (comma-joined UTF-8, empty when none). Kept in the store; when
 * the store is full, left in `spare` for the request alone (returns false).
 */
function partOf(sqlite: Database, c: PartStore, t: Variants, v: number): boolean {
  const { wid, name: reported, version } = decodeVariant(t.keys[v]!);
  const kept = c.mods.get(wid);
  let facts: ModFacts;
  let tail: Uint8Array | null;
  if (kept) {
    facts = readModText(kept.text);
    tail = kept.tail;
  } else {
    const m = catalogMod(sqlite, wid);
    facts = m.facts;
    tail = c.put(m.tail);
    if (tail) c.addMod(wid, tail, modText(facts));
    else tail = encoder.encode(m.tail);
  }
  const name = reported !== "" ? reported : facts.name;
  const headText = `{"workshop_id":${J(wid)},"name":${J(name)},"version":${J(version)},"position":`;
  const itemVersion = version !== null && facts.scanned.includes(version) ? version : facts.version;
  let items: Uint8Array | null = EMPTY;
  if (itemVersion !== null) {
    const key = `${wid}\n${itemVersion}\n${name}`;
    const same = c.itemLists.get(key);
    if (same) items = same;
    else {
      const text = itemsText(sqlite, wid, itemVersion, name);
      items = c.put(text);
      if (items) c.addItems(key, items);
      else items = encoder.encode(text);
    }
  }
  const head = c.put(headText);
  if (head && c.kept) {
    c.setPart(v, head, tail, items);
    return true;
  }
  spare.head = head ?? encoder.encode(headText);
  spare.tail = tail;
  spare.items = items;
  return false;
}

// ---- The answer -------------------------------------------------------------------------------------

/**
 * The answer of an online server (its row from the snapshot `s`, `online` its online flag at
 * this time), as UTF-8 JSON: kept per snapshot and catalog generation, else copied together from
 * the parts above; `sql` answers (the SQL path's object) when the server's positions are not
 * distinct 32-bit integers.
 */
export function onlineDetailBytes(sqlite: Database, s: LiveSnapshot, r: ServerRow, row: number, online: boolean, sql: () => unknown): Uint8Array {
  const gen = readCatalogGen(sqlite);
  let a = answers.get(s);
  if (!a || a.gen !== gen) answers.set(s, (a = { gen, lru: new BytesLru<Uint8Array>(DETAIL_CACHE_BYTES, sizeOf) }));
  const kept = a.lru.get(r.id);
  if (kept) return kept;
  const mods = modsOf(sqlite, s, r.sid);
  const out = "sql" in mods ? encoder.encode(J(sql())) : buildDetail(sqlite, catalogCache(sqlite, gen), s, r, row, online, mods);
  // Only big answers are kept: copying a typical one together costs less than keeping it, whose
  // 8 MiB would hold ~270 of the 5,000 (a hit in 20 for any server), each one evicted garbage.
  if (out.byteLength >= KEEP_FROM_BYTES) a.lru.set(r.id, out);
  return out;
}

// Per request scratch: each mod's head and items (reused; cleared after each build so no bytes are held).
const heads: Uint8Array[] = [];
const tails: Uint8Array[] = [];
const items: Uint8Array[] = [];

/** Decimal digits of an int32 with its sign (JSON.stringify's text of it). */
function digitsOf(n: number): number {
  let d = n < 0 ? 2 : 1;
  for (let x = Math.abs(n); x >= 10; x = Math.floor(x / 10)) d++;
  return d;
}
function writeInt(out: Uint8Array, at: number, n: number, digits: number): void {
  let x = n;
  if (x < 0) {
    out[at] = 45; // -
    x = -x;
  }
  for (let i = at + digits - 1; i >= at + (n < 0 ? 1 : 0); i--) {
    out[i] = 48 + (x % 10);
    x = Math.floor(x / 10);
  }
}

const SERVER_HEAD = encoder.encode(`{"server":`);
const MODS_END = encoder.encode(`],"mod_items":[`);

/**
 * service.ts serverOf, MOD_SELECT and detailOf's item join, field by field: the list entry's JSON
 * with the detail's five fields after its last; each mod's head, position and tail; its items.
 */
function buildDetail(
  sqlite: Database,
  c: PartStore,
  s: LiveSnapshot,
  r: ServerRow,
  row: number,
  online: boolean,
  mods: { table: Variants; variants: Int32Array; positions: Int32Array | null },
): Uint8Array {
  const { table, variants, positions } = mods;
  const entry = entryJson(s, row);
  const rest = encoder.encode(
    `,"ip":${J(r.ip)},"port":${J(r.port)},"wait_time_estimation":${J(r.wait_time_estimation)},"online":${online},"first_seen_at":${J(toIso(r.first_seen_at))}},"mods":[`,
  );
  const n = variants.length;
  let size = SERVER_HEAD.byteLength + entry.byteLength - 1 + rest.byteLength + Math.max(0, n - 1) + MODS_END.byteLength + 2;
  let nItems = 0;
  for (let k = 0; k < n; k++) {
    const v = variants[k]!;
    let head = c.heads[v];
    let tail: Uint8Array;
    let its: Uint8Array;
    if (head !== undefined || partOf(sqlite, c, table, v)) {
      head = c.heads[v]!;
      tail = c.tails[v]!;
      its = c.items[v]!;
    } else ({ head, tail, items: its } = spare);
    heads[k] = head;
    tails[k] = tail;
    size += head.byteLength + digitsOf(positions ? positions[k]! : k) + tail.byteLength;
    if (its.byteLength > 0) {
      size += its.byteLength + (nItems > 0 ? 1 : 0);
      items[nItems++] = its;
    }
  }
  const out = new Uint8Array(size);
  let at = 0;
  const put = (b: Uint8Array) => {
    out.set(b, at);
    at += b.byteLength;
  };
  put(SERVER_HEAD);
  put(entry.subarray(0, entry.byteLength - 1)); // without its closing brace
  put(rest);
  for (let k = 0; k < n; k++) {
    if (k > 0) out[at++] = 44; // ,
    put(heads[k]!);
    const position = positions ? positions[k]! : k;
    const d = digitsOf(position);
    writeInt(out, at, position, d);
    at += d;
    put(tails[k]!);
  }
  put(MODS_END);
  for (let k = 0; k < nItems; k++) {
    if (k > 0) out[at++] = 44; // ,
    put(items[k]!);
  }
  out[at++] = 93; // ]
  out[at] = 125; // }
  heads.length = 0;
  tails.length = 0;
  items.length = 0;
  return out;
}

/**
 * What the detail caches hold (for the metrics): answers of the snapshot `s`, the catalog's mods
 * with their items and variants, and the servers' mod lists of `s` read so far.
 */
export function detailCacheStats(
  sqlite: Database,
  s: LiveSnapshot | null,
): { servers: number; bytes: number; mods: number; modBytes: number; parts: number; lists: number; listBytes: number } {
  const a = s ? answers.get(s) : undefined;
  const c = catalogs.get(sqlite);
  let lists = 0;
  let listBytes = 0;
  if (s) {
    for (const l of s.modLists.values()) {
      const m = serverMods.get(l);
      if (!m) continue;
      lists++;
      listBytes += "sql" in m ? 32 : m.variants.byteLength + (m.positions?.byteLength ?? 0) + 160;
    }
  }
  // The variant table: each key (2 bytes a character at most) and its place in the map and array.
  const t = variantTables.get(sqlite);
  if (t) for (const k of t.keys) listBytes += 2 * k.length + 80;
  const held = c?.kept ? c : undefined;
  return { servers: a?.lru.size ?? 0, bytes: a?.lru.bytes ?? 0, mods: held?.mods.size ?? 0, modBytes: held?.bytes ?? 0, parts: held?.parts ?? 0, lists, listBytes };
}

// ---- Warming ahead, while idle ----------------------------------------------------------------------

/** Where the warm is: the snapshot and catalog generation it prepares, and the next row. */
const warmCursors = new WeakMap<Database, { s: LiveSnapshot; gen: number; next: number }>();

/**
 * Prepares, for at most `budgetMs`, what the next rows of the current snapshot need (their mod
 * lists, their variants' parts), so their first request copies its answer together like any other.
 * The same work a first request does (modsOf, partOf), only earlier; returns true once every row
 * of the current snapshot and catalog generation is prepared (or there is no snapshot).
 */
export function warmDetails(sqlite: Database, budgetMs: number): boolean {
  const s = peekLiveSnapshot(sqlite);
  if (!s) return true;
  const gen = readCatalogGen(sqlite);
  let w = warmCursors.get(sqlite);
  if (!w || w.s !== s || w.gen !== gen) warmCursors.set(sqlite, (w = { s, gen, next: 0 }));
  const c = catalogCache(sqlite, gen);
  const until = performance.now() + budgetMs;
  while (w.next < s.rows.length) {
    const mods = modsOf(sqlite, s, s.rows[w.next++]!.sid);
    if (!("sql" in mods) && !c.full) for (let k = 0; k < mods.variants.length; k++) if (c.heads[mods.variants[k]!] === undefined) partOf(sqlite, c, mods.table, mods.variants[k]!);
    if (performance.now() >= until) break;
  }
  return w.next >= s.rows.length;
}

/**
 * In the server (src/server.ts): warms in slices of SLICE_MS (a request arriving waits at most
 * one), one after another while the process is otherwise idle: every `everyMs` it checks the CPU
 * the process used besides the slices, and under a tenth of the interval (nobody to speak of is
 * waiting) it warms until the next check, else it waits. At start that is every online server
 * (~2 s of CPU at full scale, in the first idle seconds); after a scan only the servers whose mods
 * changed and variants not seen before; after a catalog change every variant again. An error (none
 * expected) stops it and is handed to `onError`. Unref'd; returns a stop function.
 */
export function startDetailWarmer(sqlite: Database, onError: (e: unknown) => void, everyMs = 500): () => void {
  let last = processCpuMs();
  let own = 0; // CPU ms of the slices since the last check
  let warming = false;
  let stopped = false;
  const slice = () => {
    if (stopped || !warming) return;
    const t = processCpuMs();
    let done: boolean;
    try {
      done = warmDetails(sqlite, SLICE_MS);
    } catch (e) {
      // Only ever an optimisation: stop, and let requests prepare what they need.
      stop();
      return onError(e);
    }
    own += processCpuMs() - t;
    if (done) warming = false;
    else setImmediate(slice);
  };
  const timer = setInterval(() => {
    const now = processCpuMs();
    const idle = now - last - own < everyMs / 10;
    last = now;
    own = 0;
    if (idle && !warming) {
      warming = true;
      setImmediate(slice);
    } else if (!idle) warming = false;
  }, everyMs);
  timer.unref();
  function stop() {
    stopped = true;
    clearInterval(timer);
  }
  return stop;
}
const SLICE_MS = 4;
