// GET /mods and the autocomplete: list, search and sort over the catalog, answered from the
// orders and the search index in memory where they are built, else from SQL, behind small
// answer caches. The per-mod reads (detail, versions, items, dependencies, growth) stay in
// repository.ts.
import type { Database } from "bun:sqlite";
import { catalogOrders, pageOf, type OrderedSort } from "./orders";
import { matchRows, rankRows, searchIndex, type SearchWord } from "./search-index";
import { catalogStatements, ftsQuery, ftsQueryOf, searchWords, type AcRow, type ModSort, type ModSummaryRow } from "./repository";

export interface ListModsParams {
  search?: string;
  tag?: string;
  sort: ModSort;
  page: number;
  limit: number;
}

/**
 * A small LRU of recent answers, valid while nothing was written through the connection
 * (total_changes() unchanged): popular searches and first pages cost one lookup.
 */
class AnswerCache<T> {
  private map = new Map<string, T>();
  private at = -1;
  /** Lookups answered from the cache, and computed (loadout_catalog_cache_lookups_total). */
  hits = 0;
  misses = 0;
  constructor(private readonly max = 500) {}
  get(changes: number, key: string, compute: () => T): T {
    if (changes !== this.at) {
      this.map.clear();
      this.at = changes;
    }
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.hits++;
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    this.misses++;
    const v = compute();
    this.map.set(key, v);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
    return v;
  }
}
const listCache = new WeakMap<Database, AnswerCache<{ rows: ModSummaryRow[]; total: number }>>();
const countCache = new WeakMap<Database, AnswerCache<number>>();
const rankCache = new WeakMap<Database, AnswerCache<Int32Array>>();
const acCache = new WeakMap<Database, AnswerCache<{ workshop_id: string; name: string; image_url: string | null }[]>>();
function cacheFor<T>(map: WeakMap<Database, AnswerCache<T>>, sqlite: Database): AnswerCache<T> {
  let c = map.get(sqlite);
  if (!c) {
    c = new AnswerCache<T>();
    map.set(sqlite, c);
  }
  return c;
}

/** Hits and misses of each answer cache of this database so far (the bench reports the hit rate). */
export function answerCacheCounts(sqlite: Database): { cache: "list" | "count" | "ranked" | "autocomplete"; hits: number; misses: number }[] {
  return (
    [
      ["list", listCache],
      ["count", countCache],
      ["ranked", rankCache],
      ["autocomplete", acCache],
    ] as const
  ).map(([cache, map]) => {
    const c = map.get(sqlite as Database) as AnswerCache<unknown> | undefined;
    return { cache, hits: c?.hits ?? 0, misses: c?.misses ?? 0 };
  });
}

export function listMods(sqlite: Database, p: ListModsParams): { rows: ModSummaryRow[]; total: number } {
  const key = JSON.stringify([p.search ?? null, p.tag ?? null, p.sort, p.page, p.limit]);
  return cacheFor(listCache, sqlite).get(catalogStatements(sqlite).changes(), key, () => listModsUncached(sqlite, p));
}

/** GET /mods without the cache; plan "sql" skips the orders in memory (the tests' SQL truth path). */
export function listModsUncached(sqlite: Database, p: ListModsParams, plan: "auto" | "sql" = "auto"): { rows: ModSummaryRow[]; total: number } {
  let q: string | null = null;
  let words: SearchWord[] | null = null;
  if (p.search !== undefined && p.search.trim() !== "") {
    words = searchWords(p.search);
    if (words === null) return { rows: [], total: 0 };
    q = ftsQueryOf(words);
  }
  // Every sort but relevance (a search's bm25 rank) pages from the in-memory orders when they are
  // of the current generation (relevance without a search lists by name, as the SQL path does).
  const ordered: OrderedSort | null = p.sort !== "relevance" ? p.sort : q === null ? "name_asc" : null;
  const orders = ordered && plan === "auto" ? catalogOrders(sqlite) : null;
  if (ordered && orders) return listFromOrders(sqlite, orders, ordered, q, words, p);
  if (words !== null && p.sort === "relevance" && plan === "auto") {
    // Relevance: ranked in memory (search-index.ts) when the index is current; otherwise the
    // query's matches ranked once by FTS5 and kept while nothing changes (the next page of the
    // same search costs no FTS work). A tag filters through the orders' membership.
    const tagged = p.tag ? catalogOrders(sqlite) : null;
    if (!p.tag || tagged) return listRanked(sqlite, q!, words, p, tagged);
  }
  const st = catalogStatements(sqlite).list(q !== null, !!p.tag, p.sort);
  const params: Record<string, unknown> = {};
  if (q !== null) params.q = q;
  if (p.tag) params.tag = p.tag;
  const cs = catalogStatements(sqlite);
  // The total does not depend on sort or page: computed once per filter while nothing changes.
  const total = cacheFor(countCache, sqlite).get(cs.changes(), JSON.stringify([q, p.tag ?? null]), () => {
    // Without placeholder rows, a tag's total is a covering-index count of mod_tags.
    if (q === null && p.tag && !cs.hasPlaceholders.get()) return cs.tagCount.get(p.tag)!.n;
    return (st.count.get(params as any) as { n: number }).n;
  });
  if (total === 0) return { rows: [], total };
  const rows = st.page.all({ ...params, limit: p.limit, offset: (p.page - 1) * p.limit } as any) as ModSummaryRow[];
  return { rows, total };
}

const column = (rows: unknown[][]): Int32Array => {
  const a = new Int32Array(rows.length);
  for (let i = 0; i < rows.length; i++) a[i] = rows[i]![0] as number;
  return a;
};

function listFromOrders(
  sqlite: Database,
  orders: NonNullable<ReturnType<typeof catalogOrders>>,
  sort: OrderedSort,
  q: string | null,
  words: SearchWord[] | null,
  p: ListModsParams,
): { rows: ModSummaryRow[]; total: number } {
  let candidates: Int32Array | null = null;
  if (words !== null) {
    const ix = searchIndex(sqlite);
    candidates = (ix && matchRows(ix, words)) ?? column(catalogStatements(sqlite).ftsRowids.values({ q: q! }) as unknown[][]);
  }
  const { rowids, total } = pageOf(orders, sort, candidates, p.tag, (p.page - 1) * p.limit, p.limit);
  return { rows: summaries(sqlite, rowids), total };
}

/** A search's matches, best first (rank, then rowid, as the SQL path orders them). */
function rankedMatches(sqlite: Database, q: string): Int32Array {
  const cs = catalogStatements(sqlite);
  return cacheFor(rankCache, sqlite).get(cs.changes(), q, () => {
    const rows = cs.ftsRanked.values({ q }) as [number, number][];
    rows.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    const out = new Int32Array(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = rows[i]![0];
    return out;
  });
}

function listRanked(
  sqlite: Database,
  q: string,
  words: SearchWord[],
  p: ListModsParams,
  orders: ReturnType<typeof catalogOrders>,
): { rows: ModSummaryRow[]; total: number } {
  const member = p.tag ? orders!.tags.get(p.tag)?.member : undefined;
  if (p.tag && !member) return { rows: [], total: 0 };
  const offset = (p.page - 1) * p.limit;
  const ix = searchIndex(sqlite);
  const top = ix && rankRows(ix, words, offset + p.limit, member ? (rid) => member[rid] === 1 : undefined);
  if (top) return { rows: summaries(sqlite, Array.from(top.rowids.subarray(offset))), total: top.total };
  let ranked = rankedMatches(sqlite, q);
  if (member) ranked = ranked.filter((rid) => member[rid] === 1);
  return { rows: summaries(sqlite, Array.from(ranked.subarray(offset, offset + p.limit))), total: ranked.length };
}

/** The summary rows of these rowids, in this order. */
function summaries(sqlite: Database, rowids: number[]): ModSummaryRow[] {
  if (rowids.length === 0) return [];
  const byRowid = new Map<number, ModSummaryRow>();
  for (const r of catalogStatements(sqlite).summariesOf.all(JSON.stringify(rowids))) {
    const { rid, ...row } = r;
    byRowid.set(rid, row);
  }
  const rows: ModSummaryRow[] = [];
  for (const rid of rowids) {
    const r = byRowid.get(rid);
    if (r) rows.push(r);
  }
  return rows;
}

/**
 * Up to 10 mods for a name prefix: names starting with the text first (alphabetically), then
 * names with a later word starting with it (by relevance).
 */
export function autocomplete(sqlite: Database, text: string): AcRow[] {
  const t = text.trim().normalize("NFKC");
  if (!t) return [];
  const st = catalogStatements(sqlite);
  return cacheFor(acCache, sqlite).get(st.changes(), t.toLowerCase(), () => {
    const out = st.acStarts.all({ lo: t, hi: t + "\u{10FFFF}" });
    if (out.length >= 10) return out;
    const words = ftsQuery(t);
    if (!words || !/[\p{L}\p{N}]{2}/u.test(t)) return out;
    const seen = new Set(out.map((r) => r.workshop_id));
    for (const r of st.autocomplete.all({ q: `name : (${words})` })) {
      if (out.length >= 10) break;
      if (!seen.has(r.workshop_id)) out.push(r);
    }
    return out;
  });
}
