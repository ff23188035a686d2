// GET /game-servers/:id of an online server (issue 29), copied together from parts made ahead,
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
// request reads no SQL but the two generations (one statement a run of JavaScript, db/statements). The catalog's side of each mod (name, size, image,
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

const encoder = new TextEncoder();
const sizeOf = (k: string, v: Uint8Array) => v.byteLength + k.length * 2 + 64;
const J = JSON.stringify;

/** live_state.catalog_gen (db/statements `generation`: read with servers_gen, once per run of JavaScript). */
const readCatalogGen = (sqlite: Database) => generation(sqlite, "live_state", "catalog_gen");

/** Per snapshot: the catalog generation its kept answers were joined at, and the answers by server id. */
const answers = new WeakMap<LiveSnapshot, { gen: number; lru: BytesLru<Uint8Array> }>();

// ---- Variants: (workshop id, reported name, reported version), numbered per database ----------

/**
 * Every variant seen, by number: its key (the three texts, each after its length, so no two
 * variants share one), decoded when its part is rendered; a table is started anew (with the
 * catalog caches) past MAX_VARIANTS.
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
    variantTables.set(sqlite, (t = { index: new Map(), keys: [] }));
    // Rendered variants are held by number: numbers of another table mean other variants.
    catalogs.delete(sqlite);
  }
  return t;
}

function variantOf(t: Variants, wid: string, name: string, version: string | null): number {
  const key = `${wid.length}:${wid}${name.length}:${name}${version === null ? "-" : `+${version}`}`;
  let v = t.index.get(key);
  if (v === undefined) {
    t.index.set(key, (v = t.keys.length));
    t.keys.push(key);
  }
  return v;
}

/** A variant's workshop id, reported name and version, from its key. */
function decodeVariant(key: string): { wid: string; name: string; version: string | null } {
  const a = key.indexOf(":");
  const widEnd = a + 1 + Number(key.slice(0, a));
  const b = key.indexOf(":", widEnd);
  const nameEnd = b + 1 + Number(key.slice(widEnd, b));
  return { wid: key.slice(a + 1, widEnd), name: key.slice(b + 1, nameEnd), version: key[nameEnd] === "-" ? null : key.slice(nameEnd + 1) };
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
const SERVER_MODS = `SELECT workshop_id, name, version, position, (SELECT ver FROM game_server_mods_ver WHERE sid = ?1)
  FROM game_server_mods_by_sid WHERE server_sid = ?1`;

function modsOf(sqlite: Database, s: LiveSnapshot, sid: number): ServerMods {
  const table = variantTable(sqlite);
  const list = s.modLists.get(sid);
  const kept = list ? serverMods.get(list) : undefined;
  if (kept && ("sql" in kept || kept.table === table)) return kept;
  if (list && list.ver === null) return { table, ...NO_MODS };
  const rows = stmt(sqlite, SERVER_MODS).values(sid) as [string, string, string | null, number, number | null][];
  rows.sort((x, y) => x[3] - y[3]);
  let out: ServerMods;
  if (rows.some((r, k) => (r[3] | 0) !== r[3] || (k > 0 && r[3] === rows[k - 1]![3]))) out = { sql: true };
  else {
    const variants = new Int32Array(rows.length);
    const positions = new Int32Array(rows.length);
    let counted = true;
    for (let k = 0; k < rows.length; k++) {
      const [wid, name, version, position] = rows[k]!;
      variants[k] = variantOf(table, wid, name, version);
      positions[k] = position;
      if (position !== k) counted = false;
    }
    out = { table, variants, positions: counted ? null : positions };
  }
  // Kept only when read at the version the snapshot holds (a write since then: the next request
  // has a new snapshot, whose list has the new version).
  if (list && rows.length > 0 && rows[0]![4] === list.ver) serverMods.set(list, out);
  return out;
}

// ---- The catalog's side, per catalog generation --------------------------------------------------

/** A variant's part of the answer: its `mods[]` object before and after the position, and its items. */
interface Part {
  v: number;
  head: Uint8Array;
  tail: Uint8Array;
  items: Uint8Array;
}

/**
 * A mod as the catalog has it (empty fields when the catalog does not know it), its scanned
 * versions, what follows `position` in its `mods[]` object (`tail`), its items serialised as
 * answers list them (per item version and mod name: a mod has one or a few), and its variants'
 * parts. Immutable: a new part makes a new object (the cache counts its bytes).
 */
interface CatalogMod {
  known: boolean;
  name: string;
  version: string | null;
  scanned: readonly string[];
  tail: Uint8Array;
  items: readonly { version: string; name: string; bytes: Uint8Array }[];
  parts: readonly Part[];
}

const modSize = (k: string, m: CatalogMod) =>
  2 * (k.length + m.name.length + (m.version?.length ?? 0)) + m.scanned.length * 48 + m.tail.byteLength + 200 +
  m.items.reduce((n, i) => n + i.bytes.byteLength + 2 * (i.version.length + i.name.length) + 80, 0) +
  m.parts.reduce((n, p) => n + p.head.byteLength + 80, 0);

/**
 * The catalog's side of one catalog generation: each mod's CatalogMod by workshop id (one
 * BytesLru, so it counts in the answer caches' budget and gives way to it), and each variant's
 * part by number (an array: a request looks up ~40, one index each), holding only parts of mods
 * the BytesLru holds (a mod dropped or replaced there drops its variants here).
 */
class CatalogParts extends BytesLru<CatalogMod> {
  readonly parts: (Part | undefined)[] = [];
  constructor(readonly gen: number) {
    super(CATALOG_BYTES, modSize);
  }
  override delete(key: string, value: CatalogMod | undefined = this.map.get(key)): void {
    if (value) for (const p of value.parts) this.parts[p.v] = undefined;
    super.delete(key, value);
  }
  override clear(): void {
    this.parts.length = 0;
    super.clear();
  }
}

/** Per database: the catalog's side of the current catalog generation. */
const catalogs = new WeakMap<Database, CatalogParts>();

function catalogCache(sqlite: Database, gen: number): CatalogParts {
  let c = catalogs.get(sqlite);
  if (!c || c.gen !== gen) catalogs.set(sqlite, (c = new CatalogParts(gen)));
  return c;
}

/** What the answer reads of a mod from the catalog (a mods row is wide: read once a generation, not per server). */
const CATALOG_MOD = `SELECT name, size_bytes, image_url, version FROM mods WHERE workshop_id = ?`;
const SCANNED = `SELECT version FROM mod_item_scans WHERE workshop_id = ?`;
/** One mod version's items in the answer's order (the same as detailOf's within a mod). */
const ITEMS = `SELECT item_type, name, path, guid FROM mod_items WHERE workshop_id = ? AND version = ?`
  + ` ORDER BY item_type, name, path, item_key`;

/**
 * service.ts MOD_SELECT field by field after `position`: the catalog's size (0 when unknown),
 * image and version (null when empty), and whether the catalog knows the mod.
 */
function catalogMod(sqlite: Database, c: CatalogParts, wid: string): CatalogMod {
  const kept = c.peek(wid);
  if (kept) return kept;
  const r = stmt(sqlite, CATALOG_MOD).get(wid) as { name: string; size_bytes: number; image_url: string | null; version: string } | null;
  const scanned = (stmt(sqlite, SCANNED).all(wid) as { version: string }[]).map((s) => s.version);
  const m: CatalogMod = r
    ? {
        known: true,
        name: r.name,
        version: r.version,
        scanned,
        tail: encoder.encode(`,"size_bytes":${J(r.size_bytes)},"image_url":${J(r.image_url)},"latest_version":${J(r.version === "" ? null : r.version)},"in_catalog":true}`),
        items: [],
        parts: [],
      }
    : { known: false, name: "", version: null, scanned, tail: encoder.encode(`,"size_bytes":0,"image_url":null,"latest_version":null,"in_catalog":false}`), items: [], parts: [] };
  c.set(wid, m);
  return m;
}

const EMPTY = new Uint8Array(0);

/**
 * Variant `v`'s part: its `mods[]` object up to `"position":` (the name the server reports, else
 * the catalog's) and after it (the mod's tail), and the items of the version it runs when that was
 * scanned, else of the catalog's version (SQLite compares the versions as text, exactly), as the
 * answer lists them under its name (comma-joined UTF-8, empty when none).
 */
function partOf(sqlite: Database, c: CatalogParts, t: Variants, v: number): Part {
  const kept = c.parts[v];
  if (kept) return kept;
  const { wid, name: reported, version } = decodeVariant(t.keys[v]!);
  const m = catalogMod(sqlite, c, wid);
  const old = m.parts.find((p) => p.v === v);
  if (old) return (c.parts[v] = old);
  const name = reported !== "" ? reported : m.name;
  const head = encoder.encode(`{"workshop_id":${J(wid)},"name":${J(name)},"version":${J(version)},"position":`);
  const itemVersion = version !== null && m.scanned.includes(version) ? version : m.version;
  let items: Uint8Array = EMPTY;
  let next = m;
  if (itemVersion !== null) {
    const same = m.items.find((i) => i.version === itemVersion && i.name === name);
    if (same) items = same.bytes;
    else {
      const rows = stmt(sqlite, ITEMS).all(wid, itemVersion) as { item_type: string; name: string; path: string; guid: string | null }[];
      if (rows.length > 0) {
        items = encoder.encode(
          rows.map((i) => J({ workshop_id: wid, mod_name: name, version: itemVersion, type: i.item_type, name: i.name, path: i.path, guid: i.guid })).join(","),
        );
      }
      next = { ...next, items: [...next.items, { version: itemVersion, name, bytes: items }] };
    }
  }
  const part: Part = { v, head, tail: m.tail, items };
  // Replacing the mod drops its variants' parts from the array (CatalogParts.delete): set them after.
  c.set(wid, { ...next, parts: [...next.parts, part] });
  if (c.peek(wid)) for (const p of c.peek(wid)!.parts) c.parts[p.v] = p;
  return part;
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
  c: CatalogParts,
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
    const p = c.parts[v] ?? partOf(sqlite, c, table, v);
    heads[k] = p.head;
    tails[k] = p.tail;
    size += p.head.byteLength + digitsOf(positions ? positions[k]! : k) + p.tail.byteLength;
    if (p.items.byteLength > 0) {
      size += p.items.byteLength + (nItems > 0 ? 1 : 0);
      items[nItems++] = p.items;
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
  const parts = c ? c.parts.reduce((n, p) => n + (p ? 1 : 0), 0) : 0;
  return { servers: a?.lru.map.size ?? 0, bytes: a?.lru.bytes ?? 0, mods: c?.map.size ?? 0, modBytes: c?.bytes ?? 0, parts, lists, listBytes };
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
    if (!("sql" in mods)) for (let k = 0; k < mods.variants.length; k++) if (!c.parts[mods.variants[k]!]) partOf(sqlite, c, mods.table, mods.variants[k]!);
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
