// Read side of the catalog: the prepared statements of the /mods endpoints and the per-mod reads
// (detail, versions, items, dependencies, growth); list, search and autocomplete are in list.ts.
// Hot paths use prepared bun:sqlite statements (cached per database handle); the FTS5 index
// and the sort indexes are in src/db/custom/30_catalog.sql.
import { Database, type Statement } from "bun:sqlite";
import { statementSet } from "../../db/statements";
import type { mods } from "./tables";
import { MOD_SORTS } from "./model";

/** The fixed orders of /mods: the sort names of the API (MOD_SORTS), relevance aside. */
export type OrderedSort = (typeof MOD_SORTS)[number];
export const ORDERED_SORTS: readonly OrderedSort[] = MOD_SORTS;

/** ORDER BY of each sort: the SQL path and the in-memory orders' build (orders.ts) use the same strings. */
export const MOD_ORDER: Record<OrderedSort, string> = {
  name_asc: "m.name COLLATE NOCASE ASC, m.workshop_id ASC",
  name_desc: "m.name COLLATE NOCASE DESC, m.workshop_id DESC",
  size_desc: "m.size_bytes DESC, m.workshop_id DESC",
  updated_desc: "m.updated_at DESC, m.workshop_id DESC",
};

/** Catalog entries only (placeholders of other features are not listed). */
export const VISIBLE = "m.state != 'unknown'";

export type ModSort = OrderedSort | "relevance";

/** bm25() column weights of the catalog search: name, author_name, summary, tags_json. */
export const BM25_WEIGHTS = { name: 10, author_name: 3, summary: 1, tags_json: 2 } as const;
/** The same weights as the arguments of SQL's bm25(mods_fts, …) (column order of mods_fts). */
export const BM25_ARGS = Object.values(BM25_WEIGHTS).map((w) => w.toFixed(1)).join(", ");
/** mods_fts's tokenizer (src/db/custom/30_catalog.sql). */
export const FTS_TOKENIZE = "unicode61 remove_diacritics 2";

/** A word of a search: matched as a prefix of a term, or (one-letter words) as a whole term. */
export interface SearchWord {
  text: string;
  prefix: boolean;
}

/** One node of a dependency closure, as the SQL path reads it (getDependencyClosure). */
export interface GraphNodeRow {
  workshop_id: string;
  /** Of a catalog entry; null for any other mod. */
  name: string | null;
  version: string | null;
  size_bytes: number | null;
  /** [depends_on_id, depends_on_name, version, size_bytes][], in rowid order. */
  edges: [string, string, string | null, number][];
}

/** One direct dependency with what the catalog knows of it (getDirectDependencies). */
export interface DirectDependencyRow {
  depends_on_id: string;
  depends_on_name: string;
  version: string | null;
  size_bytes: number;
  name: string | null;
  latest_version: string | null;
  latest_size: number | null;
}

export type ModSummaryRow = Pick<
  typeof mods.$inferSelect,
  "workshop_id" | "name" | "version" | "size_bytes" | "image_url" | "tags_json" | "author_name" | "rating" | "subscriber_count" | "updated_at"
>;

/** A row of mods as raw SQL reads it (`obsolete` as 0/1). */
export type ModRow = Omit<typeof mods.$inferSelect, "obsolete"> & { obsolete: number };

// Mods that were never scraped (placeholders other features may create) are not catalog
// entries: VISIBLE is the condition. ORDER BY of each sort: MOD_ORDER, shared with the
// in-memory orders; relevance is ranked by the FTS index (see list()).
const ORDER: Record<ModSort, string> = { ...MOD_ORDER, relevance: "" };

const SUMMARY_COLS = "m.workshop_id, m.name, m.version, m.size_bytes, m.image_url, m.tags_json, m.author_name, m.rating, m.subscriber_count, m.updated_at";

/**
 * The words of a free-text search: every word must match (AND), each as a prefix (words of one
 * letter as whole words: as prefixes they would match most of the catalog). At most 12.
 * Returns null when the text holds no searchable word.
 */
export function searchWords(text: string): SearchWord[] | null {
  const words = text
    .normalize("NFKC")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, 12);
  if (words.length === 0) return null;
  return words.map((w) => ({ text: w, prefix: w.length > 1 }));
}

/** The FTS5 query of a search's words. */
export function ftsQueryOf(words: readonly SearchWord[]): string {
  return words.map((w) => (w.prefix ? `"${w.text}"*` : `"${w.text}"`)).join(" AND ");
}

/** Builds an FTS5 query from free text (searchWords); null when it holds no searchable word. */
export function ftsQuery(text: string): string | null {
  const words = searchWords(text);
  return words && ftsQueryOf(words);
}

interface ListStatements {
  page: Statement<ModSummaryRow>;
  count: Statement<{ n: number }>;
}

export type AcRow = { workshop_id: string; name: string; image_url: string | null };

class CatalogStatements {
  private lists = new Map<string, ListStatements>();
  readonly mod: Statement<ModRow, [string]>;
  readonly modAt: Statement<ModRow, [number]>;
  readonly visible: Statement<{ state: string }, [string]>;
  readonly deps: Statement<DirectDependencyRow, [string]>;
  readonly autocomplete: Statement<AcRow, [{ q: string }]>;
  readonly versions: Statement<any, [string]>;
  readonly versionExists: Statement<{ version: string }, [string, string]>;
  readonly screenshots: Statement<{ url: string; width: number | null; height: number | null }, [string]>;
  readonly items: Statement<any, [{ id: string; version: string; type: string | null }]>;
  readonly itemVersions: Statement<any, [string]>;
  readonly latestItemVersion: Statement<{ version: string }, [string]>;
  readonly missions: Statement<any, [string, string]>;
  readonly latestMissionVersion: Statement<{ version: string }, [string]>;
  readonly depGraph: Statement<any, [string]>;
  readonly counts: Statement<{ deps: number; dependents: number }, [string, string]>;
  readonly growthBuckets: Statement<{ bucket: number }, [number, number]>;
  readonly growthRows: Statement<any, [{ id: string; from: number; to: number }]>;
  readonly growthOldest: Statement<{ b: number | null }, [string]>;
  readonly hasPlaceholders: Statement<{ x: number }, []>;
  readonly tagCount: Statement<{ n: number }, [string]>;
  readonly acStarts: Statement<AcRow, [{ lo: string; hi: string }]>;
  readonly ftsRowids: Statement<unknown, [{ q: string }]>;
  readonly ftsRanked: Statement<unknown, [{ q: string }]>;
  readonly summariesOf: Statement<ModSummaryRow & { rid: number }, [string]>;
  readonly allSummaries: Statement<ModSummaryRow & { rid: number }, []>;

  constructor(private readonly sqlite: Database) {
    const q = <R, P extends any = any>(sql: string) => sqlite.prepare(sql) as unknown as Statement<R, P extends any[] ? P : any>;
    this.mod = q(`SELECT m.* FROM mods m WHERE m.workshop_id = ? AND ${VISIBLE}`);
    this.modAt = q(`SELECT m.* FROM mods m WHERE m.rowid = ? AND ${VISIBLE}`);
    this.visible = q(`SELECT m.state FROM mods m WHERE m.workshop_id = ? AND ${VISIBLE}`);
    this.deps = q(`
      SELECT d.depends_on_id, d.depends_on_name, d.version, d.size_bytes,
             m.name AS name, m.version AS latest_version, m.size_bytes AS latest_size
      FROM mod_dependencies d LEFT JOIN mods m ON m.workshop_id = d.depends_on_id AND m.state != 'unknown'
      WHERE d.workshop_id = ? ORDER BY d.rowid`);
    // Names with a word starting with the text, best bm25 first (name column only).
    this.autocomplete = sqlite.prepare(`
      SELECT m.workshop_id, m.name, m.image_url FROM
        (SELECT rowid AS rid, rank AS rk FROM mods_fts WHERE mods_fts MATCH $q ORDER BY rank, rowid LIMIT 20) p
      JOIN mods m ON m.rowid = p.rid ORDER BY p.rk, p.rid`) as any;
    this.versions = q(`
      SELECT version, game_version, size_bytes, changelog, approved, published, scenarios_count, dependencies_count, created_at
      FROM mod_versions WHERE workshop_id = ? ORDER BY created_at DESC, version DESC`);
    this.versionExists = q("SELECT version FROM mod_versions WHERE workshop_id = ? AND version = ?");
    this.screenshots = q("SELECT url, width, height FROM mod_screenshots WHERE workshop_id = ? ORDER BY position");
    this.items = sqlite.prepare(`
      SELECT item_type, name, path, guid FROM mod_items
      WHERE workshop_id = $id AND version = $version AND ($type IS NULL OR item_type = $type)
      ORDER BY item_type, name, path`) as any;
    this.itemVersions = q(`
      SELECT s.version, s.item_count, s.scanned_at, v.created_at,
        (SELECT count(*) FROM mod_items i WHERE i.workshop_id = s.workshop_id AND i.version = s.version AND i.item_type = 'vehicle') AS vehicles,
        (SELECT count(*) FROM mod_items i WHERE i.workshop_id = s.workshop_id AND i.version = s.version AND i.item_type = 'weapon') AS weapons,
        (SELECT count(*) FROM mod_items i WHERE i.workshop_id = s.workshop_id AND i.version = s.version AND i.item_type = 'gear') AS gear
      FROM mod_item_scans s LEFT JOIN mod_versions v ON v.workshop_id = s.workshop_id AND v.version = s.version
      WHERE s.workshop_id = ? ORDER BY v.created_at DESC, s.version DESC`);
    this.latestItemVersion = q(`
      SELECT s.version FROM mod_item_scans s LEFT JOIN mod_versions v ON v.workshop_id = s.workshop_id AND v.version = s.version
      WHERE s.workshop_id = ? ORDER BY v.created_at DESC, s.version DESC LIMIT 1`);
    this.missions = q(`
      SELECT game_id, name, game_mode, player_count, description, image_url FROM mod_scenarios
      WHERE workshop_id = ? AND version = ? ORDER BY position, game_id`);
    this.latestMissionVersion = q(`
      SELECT s.version FROM mod_scenarios s LEFT JOIN mod_versions v ON v.workshop_id = s.workshop_id AND v.version = s.version
      WHERE s.workshop_id = ? ORDER BY v.created_at DESC, s.version DESC LIMIT 1`);
    // The transitive closure (UNION dedupes, so cycles terminate), then every edge inside it.
    this.depGraph = q(`
      WITH RECURSIVE walk(id) AS (
        SELECT ?1
        UNION
        SELECT d.depends_on_id FROM mod_dependencies d JOIN walk w ON d.workshop_id = w.id
      )
      SELECT w.id AS workshop_id, m.name, m.version, m.size_bytes,
        (SELECT json_group_array(json_array(e.depends_on_id, e.depends_on_name, e.version, e.size_bytes)) FROM
           (SELECT d.depends_on_id, d.depends_on_name, d.version, d.size_bytes FROM mod_dependencies d
            WHERE d.workshop_id = w.id ORDER BY d.rowid) e) AS edges
      FROM walk w LEFT JOIN mods m ON m.workshop_id = w.id AND m.state != 'unknown'`);
    this.counts = q(`
      SELECT (SELECT count(*) FROM mod_dependencies WHERE workshop_id = ?1) AS deps,
             (SELECT count(*) FROM mod_dependencies WHERE depends_on_id = ?2) AS dependents`);
    this.growthBuckets = q("SELECT bucket FROM mod_growth_buckets WHERE bucket >= ?1 AND bucket <= ?2 ORDER BY bucket");
    this.growthRows = sqlite.prepare(`
      SELECT bucket, used_by_servers, players_using, dependencies, dependents FROM mod_growth
      WHERE workshop_id = $id AND bucket <= $to AND bucket >= coalesce(
        (SELECT max(bucket) FROM mod_growth WHERE workshop_id = $id AND bucket <= $from), $from)
      ORDER BY bucket`) as any;
    this.growthOldest = q("SELECT min(bucket) AS b FROM mod_growth WHERE workshop_id = ?");
    this.hasPlaceholders = q("SELECT 1 AS x FROM mods WHERE state = 'unknown' LIMIT 1");
    this.tagCount = q("SELECT count(*) AS n FROM mod_tags WHERE tag = ?");
    // Names starting with the text (case-insensitive range on the partial NOCASE index).
    this.acStarts = sqlite.prepare(`
      SELECT m.workshop_id, m.name, m.image_url FROM mods m
      WHERE m.state != 'unknown' AND m.name >= $lo COLLATE NOCASE AND m.name < $hi COLLATE NOCASE
      ORDER BY m.name COLLATE NOCASE, m.workshop_id LIMIT 10`) as any;
    // The in-memory orders' inputs: which rows match (search, tag) and the page's rows.
    this.ftsRowids = sqlite.prepare(`SELECT rowid FROM mods_fts WHERE mods_fts MATCH $q`) as any;
    // Every match with its relevance, in one evaluation of the query (the SQL path evaluates it
    // twice, for the count and the page). bm25() called with the weights of the rank setting in
    // 30_catalog.sql gives the same numbers as rank, a third faster (no per-row lookup of the
    // configured rank function).
    this.ftsRanked = sqlite.prepare(`SELECT rowid, bm25(mods_fts, ${BM25_ARGS}) FROM mods_fts WHERE mods_fts MATCH $q`) as any;
    this.summariesOf = q(`SELECT ${SUMMARY_COLS}, m.rowid AS rid FROM mods m WHERE m.rowid IN (SELECT value FROM json_each(?))`);
    this.allSummaries = q(`SELECT ${SUMMARY_COLS}, m.rowid AS rid FROM mods m WHERE ${VISIBLE}`);
  }

  /**
   * GET /mods statements for one combination of filters and sort (few combinations: cached).
   * The page is chosen on narrow rowid subqueries (partial sort indexes, the FTS index with its
   * rank) and only the page's rows are read in full, so deep pages stay cheap.
   */
  list(search: boolean, tag: boolean, sort: ModSort): ListStatements {
    const key = `${search}|${tag}|${sort}`;
    let s = this.lists.get(key);
    if (!s) {
      const hasTag = "EXISTS (SELECT 1 FROM mod_tags t WHERE t.workshop_id = m.workshop_id AND t.tag = $tag)";
      let inner: string;
      let outerOrder: string;
      let count: string;
      if (search && sort === "relevance") {
        // rank is bm25 with the column weights set in 30_catalog.sql; only catalog entries are indexed.
        inner = tag
          ? `SELECT f.rowid AS rid, f.rank AS rk FROM mods_fts f WHERE mods_fts MATCH $q
               AND EXISTS (SELECT 1 FROM mods m WHERE m.rowid = f.rowid AND ${hasTag})
             ORDER BY f.rank, f.rowid LIMIT $limit OFFSET $offset`
          : `SELECT rowid AS rid, rank AS rk FROM mods_fts WHERE mods_fts MATCH $q ORDER BY rank, rowid LIMIT $limit OFFSET $offset`;
        outerOrder = "p.rk, p.rid";
        count = tag
          ? `SELECT count(*) AS n FROM mods_fts f JOIN mods m ON m.rowid = f.rowid WHERE mods_fts MATCH $q AND ${hasTag}`
          : "SELECT count(*) AS n FROM mods_fts WHERE mods_fts MATCH $q";
      } else {
        const order = ORDER[sort === "relevance" ? "name_asc" : sort];
        const where = [VISIBLE, search ? "m.rowid IN (SELECT rowid FROM mods_fts WHERE mods_fts MATCH $q)" : null, tag ? hasTag : null]
          .filter(Boolean)
          .join(" AND ");
        inner = `SELECT m.rowid AS rid FROM mods m WHERE ${where} ORDER BY ${order} LIMIT $limit OFFSET $offset`;
        outerOrder = order;
        count = `SELECT count(*) AS n FROM mods m WHERE ${where}`;
      }
      s = {
        page: this.sqlite.prepare(`SELECT ${SUMMARY_COLS} FROM (${inner}) p JOIN mods m ON m.rowid = p.rid ORDER BY ${outerOrder}`) as any,
        count: this.sqlite.prepare(count) as any,
      };
      this.lists.set(key, s);
    }
    return s;
  }
}

/** The catalog's statements on this connection (prepared once, held by the connection: db/statements.ts statementSet). */
export const catalogStatements: (sqlite: Database) => CatalogStatements = statementSet((sqlite) => new CatalogStatements(sqlite));

export function getMod(sqlite: Database, id: string): ModRow | null {
  return catalogStatements(sqlite).mod.get(id) ?? null;
}

/** The row at this rowid (a catalog entry's, as the dependency graph knows it), or null. */
export function getModAt(sqlite: Database, rowid: number): ModRow | null {
  return catalogStatements(sqlite).modAt.get(rowid) ?? null;
}

export function modExists(sqlite: Database, id: string): boolean {
  return !!catalogStatements(sqlite).visible.get(id);
}

export function getDirectDependencies(sqlite: Database, id: string): DirectDependencyRow[] {
  return catalogStatements(sqlite).deps.all(id);
}

export function getVersions(sqlite: Database, id: string) {
  return catalogStatements(sqlite).versions.all(id);
}

export function versionExists(sqlite: Database, id: string, version: string): boolean {
  return !!catalogStatements(sqlite).versionExists.get(id, version);
}

export function getScreenshots(sqlite: Database, id: string) {
  return catalogStatements(sqlite).screenshots.all(id);
}

export function getItems(sqlite: Database, id: string, version: string, type: string | null) {
  return catalogStatements(sqlite).items.all({ id, version, type }) as { item_type: string; name: string; path: string; guid: string | null }[];
}

export function getItemVersions(sqlite: Database, id: string) {
  return catalogStatements(sqlite).itemVersions.all(id) as {
    version: string;
    item_count: number;
    scanned_at: number;
    created_at: number | null;
    vehicles: number;
    weapons: number;
    gear: number;
  }[];
}

export function latestItemVersion(sqlite: Database, id: string): string | null {
  return catalogStatements(sqlite).latestItemVersion.get(id)?.version ?? null;
}

export function getMissions(sqlite: Database, id: string, version: string) {
  return catalogStatements(sqlite).missions.all(id, version) as {
    game_id: string;
    name: string;
    game_mode: string | null;
    player_count: number | null;
    description: string | null;
    image_url: string | null;
  }[];
}

export function latestMissionVersion(sqlite: Database, id: string): string | null {
  return catalogStatements(sqlite).latestMissionVersion.get(id)?.version ?? null;
}

export function getDependencyClosure(sqlite: Database, id: string): GraphNodeRow[] {
  return (catalogStatements(sqlite).depGraph.all(id) as any[]).map((r) => ({ ...r, edges: JSON.parse(r.edges) }));
}

export function getDependencyCounts(sqlite: Database, id: string): { deps: number; dependents: number } {
  return catalogStatements(sqlite).counts.get(id, id)!;
}

export function getGrowthBuckets(sqlite: Database, from: number, to: number): number[] {
  return catalogStatements(sqlite).growthBuckets.all(from, to).map((r) => r.bucket);
}

export function getGrowthRows(sqlite: Database, id: string, from: number, to: number) {
  return catalogStatements(sqlite).growthRows.all({ id, from, to }) as {
    bucket: number;
    used_by_servers: number;
    players_using: number;
    dependencies: number;
    dependents: number;
  }[];
}

export function getGrowthOldest(sqlite: Database, id: string): number | null {
  return catalogStatements(sqlite).growthOldest.get(id)?.b ?? null;
}

// ---------------------------------------------------------------------------------------------
// What the read models are built from (orders.ts, graph.ts, search-index.ts), each in the
// caller's one read transaction.

/** The sort orders' build: the largest rowid, each sort's catalog entries in order, and every (rowid, tag) pair of a catalog entry. */
export function ordersSource(sqlite: Database): { maxRow: number; orders: Record<OrderedSort, [number][]>; tags: [number, string][] } {
  const maxRow = (sqlite.query("SELECT coalesce(max(rowid), 0) AS r FROM mods").get() as { r: number }).r;
  const orders = {} as Record<OrderedSort, [number][]>;
  for (const sort of ORDERED_SORTS) orders[sort] = sqlite.query(`SELECT m.rowid FROM mods m WHERE ${VISIBLE} ORDER BY ${MOD_ORDER[sort]}`).values() as [number][];
  const tags = sqlite.query(`SELECT m.rowid, t.tag FROM mod_tags t JOIN mods m ON m.workshop_id = t.workshop_id WHERE ${VISIBLE}`).values() as [number, string][];
  return { maxRow, orders, tags };
}

/**
 * The dependency graph's build: every catalog entry (id, name, version, size, rowid) and every
 * edge in rowid order (a scan of the table: its primary key's index would cost a row lookup each).
 */
export function graphSource(sqlite: Database): { mods: [string, string, string, number, number][]; edges: [string, string, string, string | null, number][] } {
  const mods = sqlite.query(`SELECT m.workshop_id, m.name, m.version, m.size_bytes, m.rowid FROM mods m WHERE ${VISIBLE}`).values() as [string, string, string, number, number][];
  const edges = sqlite.query("SELECT workshop_id, depends_on_id, depends_on_name, version, size_bytes FROM mod_dependencies ORDER BY rowid").values() as [
    string,
    string,
    string,
    string | null,
    number,
  ][];
  return { mods, edges };
}

/**
 * The search index's build, from what FTS5 offers publicly: every instance of mods_fts's index
 * (an fts5vocab 'instance' table: term, row, column, in that order), which gives each term's rows
 * and each row's length in tokens; and the rows the index holds, the catalog entries (its triggers
 * index exactly those: 30_catalog.sql). bm25() reads the same inputs from FTS5's own records.
 */
export function searchSource(sqlite: Database): { rows: number; instances: [string, number, string][] } {
  const rows = (sqlite.query(`SELECT count(*) AS n FROM mods m WHERE ${VISIBLE}`).get() as { n: number }).n;
  const instances = sqlite.query("SELECT term, doc, col FROM temp.mods_fts_instances").values() as [string, number, string][];
  return { rows, instances };
}

/**
 * The fts5vocab table over mods_fts the search index reads (in this connection's temp schema:
 * made once, outside any transaction; a temp table is no part of the database file).
 */
export function ensureSearchVocab(sqlite: Database): void {
  sqlite.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.mods_fts_instances USING fts5vocab(main, 'mods_fts', 'instance')");
}

let tokenizer: { put: Statement; read: Statement; clear: Statement } | null = null;

/**
 * The terms mods_fts's tokenizer makes of a text (one per instance, as its vocab lists them):
 * through a private in-memory FTS5 table with the same tokenizer (made on first use; no part of
 * the database).
 */
export function tokenize(text: string): string[] {
  if (!tokenizer) {
    const db = new Database(":memory:");
    db.exec(`CREATE VIRTUAL TABLE f USING fts5(x, tokenize='${FTS_TOKENIZE}')`);
    db.exec("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'instance')");
    tokenizer = { put: db.prepare("INSERT INTO f(rowid, x) VALUES (1, ?)"), read: db.prepare("SELECT term FROM v"), clear: db.prepare("DELETE FROM f") };
  }
  tokenizer.put.run(text);
  const terms = (tokenizer.read.values() as [string][]).map((t) => t[0]);
  tokenizer.clear.run();
  return terms;
}
