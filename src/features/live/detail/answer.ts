// GET /game-servers/:id of an online server (docs/live.md "The live list from memory", *Server detail*), copied
// together from parts made ahead, without SQL, objects or JSON.stringify per request. The answer
// is `{server, mods, mod_items}`:
// - `server`: the server's list entry (its UTF-8 JSON, encoded once per snapshot for the list,
//   snapshot/pages.ts `entryJson`) and five more fields.
// - `mods`: per mod the server runs, in its order, `{workshop_id, name, version, position, ...}`.
//   What comes before `position` depends on the mod, the name and the version the server reports
//   (a *variant*: ~24,000 at full scale, against ~193,000 (server, mod) rows), what comes after on
//   the catalog's side of the mod alone (size, image, latest version, in catalog); both are kept
//   as UTF-8 per catalog generation (parts.ts), the position's digits written per request.
// - `mod_items`: mod by mod in the server's order, the catalog's items of the version the server
//   runs (when that version was scanned, else the catalog's latest) sorted by type and name,
//   serialised once per catalog generation per (mod, item version, mod name) (~8,700 at full scale).
// A server's mod list (its variants by number, in position order, and the positions unless 0, 1, …)
// is read from SQLite once per mod-list version (game_server_mods_ver, moved by every write to the
// server's mod rows) and kept with the snapshot's list of that version, which the next snapshot
// carries over while the version stays: between scans, and across scans for unchanged servers, a
// request reads no SQL but the two generations (one statement a turn of the event loop,
// db/statements). Whole answers of 64 KB or more are also kept per live snapshot and catalog
// generation (least recently used out), so a busy server's 105 KB answer is sent as is. While the
// process is idle, all of this is prepared ahead for every online server (warm.ts).
//
// Exactness: service.ts `detailOf` (the SQL path, and the tests' truth) orders the items by
// (position, type, name, path, item_key), so a server's items are its mods' fragments in the
// order of their positions; a server whose mods share a position (no scan writes that, raw SQL
// can), or whose positions are not 32-bit integers, is answered by the SQL path.
// detail.test.ts and snapshot-edges.test.ts check the text against the SQL answer as time passes and after each kind
// of raw catalog and live write and after scans.
import type { Database } from "bun:sqlite";
import { BytesLru } from "../../../shared/bytes-lru";
import { toIso } from "../../../shared/time";
import { entryJson, type LiveSnapshot } from "../snapshot";
import type { ServerRow } from "../repository/servers";
import { detailRepo } from "../repository/detail";
import { partOf, spare, variantOf, type PartStore, type Variants } from "./parts";
import { answersOf, catalogCache, detailState, readCatalogGen, variantTable, type ServerMods } from "./store";

/** Whole answers kept a snapshot (UTF-8 bytes), of at least KEEP_FROM_BYTES each. */
export const DETAIL_CACHE_BYTES = 8 * 2 ** 20;
/** The size from which a whole answer is kept (~4 % of the full-scale bench's online servers, the 130-mod one's 105 KB among them). */
export const KEEP_FROM_BYTES = 64 * 1024;

const encoder = new TextEncoder();
const sizeOf = (k: string, v: Uint8Array) => v.byteLength + k.length * 2 + 64;
const J = JSON.stringify;
const NO_MODS = { variants: new Int32Array(0), positions: null };

/** A server's mods as it reported them (detailRepo.serverMods), numbered by variant; kept with the snapshot's list of that version. */
export function modsOf(sqlite: Database, s: LiveSnapshot, sid: number): ServerMods {
  const table = variantTable(sqlite);
  const list = s.modLists.get(sid);
  const kept = list?.detail as ServerMods | undefined;
  if (kept && ("sql" in kept || kept.table === table)) return kept;
  if (list && list.ver === null) return { table, ...NO_MODS };
  const rows = detailRepo.serverMods(sqlite, sid);
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
  if (list && rows.length > 0 && rows[0]![2] === list.ver) list.detail = out;
  return out;
}

/**
 * The answer of an online server (its row from the snapshot `s`, `online` its online flag at
 * this time), as UTF-8 JSON: kept per snapshot and catalog generation, else copied together from
 * the parts above; `sql` answers (the SQL path's object) when the server's positions are not
 * distinct 32-bit integers.
 */
export function onlineDetailBytes(sqlite: Database, s: LiveSnapshot, r: ServerRow, row: number, online: boolean, sql: () => unknown): Uint8Array {
  const gen = readCatalogGen(sqlite);
  detailState(sqlite).snapshot = s;
  const a = answersOf.of(s, () => ({ gen, lru: new BytesLru<Uint8Array>(DETAIL_CACHE_BYTES, sizeOf) }));
  if (a.gen !== gen) {
    a.lru.clear();
    a.gen = gen;
  }
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
