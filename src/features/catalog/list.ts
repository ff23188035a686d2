// GET /mods and the autocomplete: list, search and sort over the catalog, answered from the
// orders and the search index in memory where they are built, else from SQL, behind small
// answer caches. The per-mod reads (detail, versions, items, dependencies, growth) stay in
// repository.ts.
import type { Database } from "bun:sqlite";
import { catalogOrders, pageOf, type OrderedSort } from "./orders";
import { searchIndex } from "./search-index";
import { matchRows, rankNameRows, rankRows } from "./search-rank";
import { catalogStatements, ftsQueryOf, searchWords, type AcRow, type ModSort, type ModSummaryRow, type SearchWord } from "./repository";
import { textBytes } from "./answers";
import { answersModel, type AnswersModel } from "../../db/read-models";
import { currentSummaries, summaryJson, summaryTexts } from "./summaries";

export interface ListModsParams {
  search?: string;
  tag?: string;
  sort: ModSort;
  page: number;
  limit: number;
}

/**
 * What these answers read: triggers move catalog_state's detail_gen on every write to a mods
 * column (a catalog entry added, removed, renamed, its state or image changed...), mods_gen on
 * every write to mod_tags, fts_gen on every change of what mods_fts holds (docs/catalog.md). Read
 * through `generation` (once per turn of the event loop and per write through the connection). A
 * write elsewhere (a scan's servers, the job queue, an API key's last use) keeps the answers.
 */
const CATALOG_COUNTERS = { table: "catalog_state", keys: ["detail_gen", "mods_gen", "fts_gen"] } as const;

/**
 * One page of GET /mods: its rows (the SQL path reads them whole) or its rowids (the in-memory
 * orders and search index pick them), the total, and once asked for, the answer's JSON text.
 */
interface Page {
  rows: ModSummaryRow[] | null;
  rowids: number[] | null;
  total: number;
  json?: string;
}
// Each answer's bytes, fixed when it is kept (a page's JSON text is added later, so a page counts
// PAGE_ROW_BYTES a mod for its rows, rowids and text together; a summary's JSON is ~0.5-1 KB).
const PAGE_ROW_BYTES = 1_536;
const keyBytes = (k: string) => k.length * 2 + 96;

/**
 * Small stores of recent answers (read models, src/db/read-models.ts), valid while the catalog's
 * generations stand: popular searches and first pages cost one lookup. At most 500 answers each,
 * their bytes counted into the shared answer budget (LOADOUT_CACHE_MB, src/shared/bytes-lru.ts)
 * with every other answer cache.
 */
const recent = <V>(name: string, sizeOf: (key: string, value: V) => number) =>
  answersModel<V>({ name: `catalog.${name}`, tables: ["mods", "mod_tags"], counters: CATALOG_COUNTERS, maxBytes: Number.MAX_SAFE_INTEGER, maxEntries: 500, sizeOf });
const listCache = recent<Page>("list", (k, p) => keyBytes(k) + 64 + (p.rows?.length ?? p.rowids?.length ?? 0) * PAGE_ROW_BYTES);
const countCache = recent<number>("count", (k) => keyBytes(k) + 16);
const rankCache = recent<Int32Array>("ranked", (k, r) => keyBytes(k) + 64 + r.byteLength);
const acCache = recent<string>("autocomplete", (k, t) => keyBytes(k) + textBytes(t));

/** Hits and misses of each answer cache of this database so far (the bench reports the hit rate). */
export function answerCacheCounts(sqlite: Database): { cache: "list" | "count" | "ranked" | "autocomplete"; hits: number; misses: number }[] {
  return (
    [
      ["list", listCache],
      ["count", countCache],
      ["ranked", rankCache],
      ["autocomplete", acCache],
    ] as const
  ).map(([cache, model]) => {
    const c = (model as AnswersModel<unknown>).peek(sqlite);
    return { cache, hits: c?.hits ?? 0, misses: c?.misses ?? 0 };
  });
}

function cachedPage(sqlite: Database, p: ListModsParams): Page {
  const key = JSON.stringify([p.search ?? null, p.tag ?? null, p.sort, p.page, p.limit]);
  return listCache.current(sqlite).get(key, () => listPage(sqlite, p));
}

export function listMods(sqlite: Database, p: ListModsParams): { rows: ModSummaryRow[]; total: number } {
  const page = cachedPage(sqlite, p);
  page.rows ??= summaries(sqlite, page.rowids!);
  return { rows: page.rows, total: page.total };
}

/**
 * GET /mods as JSON text (what the route sends): the same page as listMods, its mods joined from
 * summaries serialised once per catalog generation (summaryTexts), so a page costs no row reads
 * and no serialisation of rows already seen.
 */
export function listModsJson(sqlite: Database, p: ListModsParams): string {
  const page = cachedPage(sqlite, p);
  if (page.json === undefined) {
    const mods = page.rows ? page.rows.map(summaryJson) : summaryTexts(sqlite, page.rowids!);
    page.json = `{"mods":[${mods.join(",")}],"total":${page.total},"pages":${Math.ceil(page.total / p.limit)}}`;
  }
  return page.json;
}

/** GET /mods without the cache; plan "sql" skips the orders in memory (the tests' SQL truth path). */
export function listModsUncached(sqlite: Database, p: ListModsParams, plan: "auto" | "sql" = "auto"): { rows: ModSummaryRow[]; total: number } {
  const page = listPage(sqlite, p, plan);
  return { rows: page.rows ?? summaries(sqlite, page.rowids!), total: page.total };
}

function listPage(sqlite: Database, p: ListModsParams, plan: "auto" | "sql" = "auto"): Page {
  let q: string | null = null;
  let words: SearchWord[] | null = null;
  if (p.search !== undefined && p.search.trim() !== "") {
    words = searchWords(p.search);
    if (words === null) return { rows: [], rowids: null, total: 0 };
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
  const total = countCache.current(sqlite).get(JSON.stringify([q, p.tag ?? null]), () => {
    // Without placeholder rows, a tag's total is a covering-index count of mod_tags.
    if (q === null && p.tag && !cs.hasPlaceholders.get()) return cs.tagCount.get(p.tag)!.n;
    return (st.count.get(params as any) as { n: number }).n;
  });
  if (total === 0) return { rows: [], rowids: null, total };
  const rows = st.page.all({ ...params, limit: p.limit, offset: (p.page - 1) * p.limit } as any) as ModSummaryRow[];
  return { rows, rowids: null, total };
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
): Page {
  let candidates: Int32Array | null = null;
  if (words !== null) {
    const ix = searchIndex(sqlite);
    candidates = (ix && matchRows(ix, words)) ?? column(catalogStatements(sqlite).ftsRowids.values({ q: q! }) as unknown[][]);
  }
  const { rowids, total } = pageOf(orders, sort, candidates, p.tag, (p.page - 1) * p.limit, p.limit);
  return { rows: null, rowids, total };
}

/** A search's matches, best first (rank, then rowid, as the SQL path orders them). */
function rankedMatches(sqlite: Database, q: string): Int32Array {
  const cs = catalogStatements(sqlite);
  return rankCache.current(sqlite).get(q, () => {
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
): Page {
  const member = p.tag ? orders!.tags.get(p.tag)?.member : undefined;
  if (p.tag && !member) return { rows: [], rowids: null, total: 0 };
  const offset = (p.page - 1) * p.limit;
  const ix = searchIndex(sqlite);
  const top = ix && rankRows(ix, words, offset + p.limit, member ? (rid) => member[rid] === 1 : undefined);
  if (top) return { rows: null, rowids: Array.from(top.rowids.subarray(offset)), total: top.total };
  let ranked = rankedMatches(sqlite, q);
  if (member) ranked = ranked.filter((rid) => member[rid] === 1);
  return { rows: null, rowids: Array.from(ranked.subarray(offset, offset + p.limit)), total: ranked.length };
}

export { summaryOf } from "./summaries";

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
  return JSON.parse(autocompleteJson(sqlite, text));
}

/**
 * The same as JSON text (what the route sends), kept in the answer cache: a repeated prefix costs
 * one lookup, no serialisation.
 */
export function autocompleteJson(sqlite: Database, text: string): string {
  const t = text.trim().normalize("NFKC");
  if (!t) return "[]";
  const st = catalogStatements(sqlite);
  // Keyed as SQLite's NOCASE compares (ASCII letters folded, no others: "Ш" and "ш" find other
  // names starting with them, so they are other answers); FTS5 folds more, so both agree.
  const key = t.replace(/[A-Z]+/g, (c) => c.toLowerCase());
  return acCache.current(sqlite).get(key, () => {
    const out = st.acStarts.all({ lo: t, hi: t + "\u{10FFFF}" });
    const words = out.length >= 10 ? null : searchWords(t);
    if (words && /[\p{L}\p{N}]{2}/u.test(t)) {
      const seen = new Set(out.map((r) => r.workshop_id));
      for (const r of nameMatches(sqlite, words)) {
        if (out.length >= 10) break;
        if (!seen.has(r.workshop_id)) out.push(r);
      }
    }
    return JSON.stringify(out.map((r) => ({ workshop_id: r.workshop_id, name: r.name, image_url: r.image_url })));
  });
}

/**
 * The 20 best names with a word starting with each word of the text: FTS5's `name : (…)` query
 * ordered by its rank, then rowid. Ranked from the search index in memory when it is current
 * (rankNameRows: the same order; FTS5 took 5-12 ms for a prefix matching ~1,500-2,800 names at full
 * scale), the rows' id, name and image from the packed summaries; else SQL.
 */
function nameMatches(sqlite: Database, words: SearchWord[]): AcRow[] {
  const ix = searchIndex(sqlite);
  const top = ix && rankNameRows(ix, words, 20);
  if (!top) return catalogStatements(sqlite).autocomplete.all({ q: `name : (${ftsQueryOf(words)})` });
  const rowids = Array.from(top.rowids);
  const packed = currentSummaries(sqlite);
  const texts = rowids.map((rid) => packed?.texts.get(rid) ?? null);
  if (texts.every((x) => x !== null)) {
    return texts.map((x) => {
      const s = JSON.parse(x!) as AcRow;
      return { workshop_id: s.workshop_id, name: s.name, image_url: s.image_url };
    });
  }
  const byRowid = new Map<number, AcRow>();
  for (const r of catalogStatements(sqlite).summariesOf.all(JSON.stringify(rowids))) byRowid.set(r.rid, r);
  return rowids.flatMap((rid) => byRowid.get(rid) ?? []);
}
