// The catalog's sort orders in memory (docs/catalog.md "Speed at scale"). GET /mods with a sort
// other than relevance pages from arrays instead of walking an index with OFFSET: a deep page (page
// 2,000 of name_asc) or a one-word search sorted by name (thousands of matches, each probed against
// the name index) cost SQLite time proportional to the offset or the matches; here they cost a
// typed-array sort of the matching rowids' ranks and one read of the page's rows.
//
// For each sort it holds the catalog entries' rowids in the order SQLite's own ORDER BY gives
// (same collation, same tie-breakers as the SQL path in repository.ts, which answers the same)
// and the inverse, rowid → position. The matching rows still come from SQLite on every request
// (the FTS index for a search, mod_tags for a tag) and so do the page's rows; only positions are
// remembered. Staleness: triggers move catalog_state.mods_gen on every write that can change an
// entry's position or visibility (src/db/custom/80_catalog_gen.sql); arrays of another generation
// are never used. They are rebuilt on a read at most once every REBUILD_MS (a crawl writes
// continuously: between rebuilds the SQL path answers, which is always right).
import type { Database } from "bun:sqlite";
import { structureModel } from "../../db/read-models";
import { ordersSource, ORDERED_SORTS, type OrderedSort } from "./repository";

export { MOD_ORDER, ORDERED_SORTS, VISIBLE, type OrderedSort } from "./repository";

export interface CatalogOrders {
  gen: number;
  builtAt: number;
  buildMs: number;
  /** Catalog entries. */
  count: number;
  /** rowids in the sort's order. */
  order: Readonly<Record<OrderedSort, Int32Array>>;
  /** rowid → position in order (−1: not a catalog entry). */
  rank: Readonly<Record<OrderedSort, Int32Array>>;
  /** tag → which rowids (catalog entries) carry it, and how many. */
  tags: ReadonlyMap<string, { member: Uint8Array; count: number }>;
  bytes: number;
}

/** Between two rebuilds at least this long passes (reads in between use SQL when stale). */
export const REBUILD_MS = 2_000;

export function buildOrders(sqlite: Database, gen: number): CatalogOrders {
  const t0 = performance.now();
  return sqlite.transaction(() => {
    const src = ordersSource(sqlite);
    const maxRow = src.maxRow;
    const order = {} as Record<OrderedSort, Int32Array>;
    const rank = {} as Record<OrderedSort, Int32Array>;
    let count = 0;
    for (const sort of ORDERED_SORTS) {
      const rows = src.orders[sort];
      const o = new Int32Array(rows.length);
      const r = new Int32Array(maxRow + 1).fill(-1);
      for (let i = 0; i < rows.length; i++) {
        const rid = rows[i]![0];
        o[i] = rid;
        r[rid] = i;
      }
      order[sort] = o;
      rank[sort] = r;
      count = rows.length;
    }
    const tags = new Map<string, { member: Uint8Array; count: number }>();
    for (const [rid, tag] of src.tags) {
      let t = tags.get(tag);
      if (!t) tags.set(tag, (t = { member: new Uint8Array(maxRow + 1), count: 0 }));
      if (!t.member[rid]) {
        t.member[rid] = 1;
        t.count++;
      }
    }
    return Object.freeze({
      gen,
      builtAt: Date.now(),
      buildMs: performance.now() - t0,
      count,
      order: Object.freeze(order),
      rank: Object.freeze(rank),
      tags,
      bytes: ORDERED_SORTS.length * 4 * (count + maxRow + 1) + tags.size * (maxRow + 1),
    });
  })();
}

/** The read model (docs/architecture.md "Derived reads"): the orders of one mods_gen, per connection. */
export const ordersModel = structureModel({
  name: "catalog.orders",
  tables: ["mods", "mod_tags"],
  counter: { table: "catalog_state", key: "mods_gen" },
  rebuildMs: REBUILD_MS,
  bound: { bytes: 16 * 2 ** 20 },
  build: buildOrders,
  size: (o) => ({ bytes: o.bytes, entries: o.count }),
});
const orders = ordersModel;

/**
 * The orders of the current generation, built now if allowed (first use, or the last build was
 * REBUILD_MS ago), or null: then the caller answers from SQL.
 */
export const catalogOrders: (sqlite: Database, now?: number) => CatalogOrders | null = orders.current;

/** The orders last built (for the metrics), whatever their generation. */
export const peekCatalogOrders: (sqlite: Database) => CatalogOrders | null = orders.peek;

/**
 * One page in the sort's order of the catalog entries that are among `candidates` (rowids, any
 * order; null: all) and carry `tag` (when given), and how many there are.
 */
export function pageOf(
  o: CatalogOrders,
  sort: OrderedSort,
  candidates: ArrayLike<number> | null,
  tag: string | undefined,
  offset: number,
  limit: number,
): { rowids: number[]; total: number } {
  const order = o.order[sort];
  const member = tag === undefined ? null : o.tags.get(tag)?.member;
  if (member === undefined) return { rowids: [], total: 0 }; // a tag no entry carries
  if (candidates === null && member === null) {
    return { rowids: Array.from(order.subarray(offset, offset + limit)), total: order.length };
  }
  if (candidates === null) {
    // A tag alone: walk the order, keeping its members, until the page is full.
    const rowids: number[] = [];
    let skip = offset;
    for (let i = 0; i < order.length && rowids.length < limit; i++) {
      const rid = order[i]!;
      if (!member![rid]) continue;
      if (skip > 0) skip--;
      else rowids.push(rid);
    }
    return { rowids, total: o.tags.get(tag!)!.count };
  }
  // Matches of a search (and a tag): sort their positions.
  const rank = o.rank[sort];
  const ranks = new Int32Array(candidates.length);
  let n = 0;
  for (let i = 0; i < candidates.length; i++) {
    const rid = candidates[i]!;
    const r = rid >= 0 && rid < rank.length ? rank[rid]! : -1;
    if (r >= 0 && (member === null || member[rid])) ranks[n++] = r;
  }
  const sorted = ranks.subarray(0, n).sort();
  const page = sorted.subarray(offset, offset + limit);
  const rowids = new Array<number>(page.length);
  for (let i = 0; i < page.length; i++) rowids[i] = order[page[i]!]!;
  return { rowids, total: n };
}
