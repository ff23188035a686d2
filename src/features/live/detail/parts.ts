// The catalog's side of online servers' details (docs/live.md "The live list from memory", *Server detail*): every
// variant (workshop id, reported name, reported version) numbered per connection, and the UTF-8
// pieces each variant's answer is copied from, packed per catalog generation (PartStore).
import type { Database } from "bun:sqlite";
import { BytesLru } from "../../../shared/bytes-lru";
import { detailRepo } from "../repository/detail";

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
const J = JSON.stringify;

/**
 * Every variant seen, by number: its key (SQLite's json_array of the three values, written by the
 * mod-list read itself: one string a row, and no two variants share one), decoded when its part is
 * rendered; a table is started anew (with the catalog caches) past MAX_VARIANTS.
 */
export interface Variants {
  index: Map<string, number>;
  keys: string[];
}
/** Past this many variants a table starts anew (with the catalog parts numbered by it). */
export const MAX_VARIANTS = 200_000;

export const newVariants = (): Variants => ({ index: new Map(), keys: [] });

export function variantOf(t: Variants, key: string): number {
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
export class PartStore {
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
  const r = detailRepo.catalogMod(sqlite, wid);
  const scanned = detailRepo.scannedVersions(sqlite, wid);
  return r
    ? {
        facts: { name: r.name, version: r.version, scanned },
        tail: `,"size_bytes":${J(r.size_bytes)},"image_url":${J(r.image_url)},"latest_version":${J(r.version === "" ? null : r.version)},"in_catalog":true}`,
      }
    : { facts: { name: "", version: null, scanned }, tail: `,"size_bytes":0,"image_url":null,"latest_version":null,"in_catalog":false}` };
}

export const EMPTY = new Uint8Array(0);

/** One variant's pieces, rendered for one request when the store is full (not kept). */
export const spare: { head: Uint8Array; tail: Uint8Array; items: Uint8Array } = { head: EMPTY, tail: EMPTY, items: EMPTY };

/**
 * Prepares variant `v`: its `mods[]` object up to `"position":` (the name the server reports, else
 * the catalog's) and after it (the mod's tail), and the items of the version it runs when that was
 * scanned, else of the catalog's version (SQLite compares the versions as text, exactly), as the
 * answer lists them under its name (comma-joined UTF-8, empty when none). Kept in the store; when
 * the store is full, left in `spare` for the request alone (returns false).
 */
export function partOf(sqlite: Database, c: PartStore, t: Variants, v: number): boolean {
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
      const text = detailRepo.itemsText(sqlite, wid, itemVersion, name);
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
