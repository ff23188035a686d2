// Write side of the catalog: what the scraper stores. One mod is written in one transaction
// (mods, versions, dependencies, tags, screenshots, scenarios, items), so a failure leaves the
// previous state intact and never half a mod. Prepared statements: a full discovery writes
// ~42,000 mods and ~200,000 versions. What a workshop answer becomes before it is written:
// normalise.ts.
import type { Database } from "bun:sqlite";
import { insertRows, statementSet, stmt } from "../../../db/statements";
import type { ExtractedItem } from "../items";
import { itemKey } from "../items";
import { type NormalisedMod, stateOf } from "../normalise";
import type { AssetRow } from "../workshop-schemas";

export interface ItemScan {
  version: string;
  items: ExtractedItem[];
}

function prepare(sqlite: Database) {
  return {
    existing: sqlite.prepare<{ version: string; state: string; updated_at: number | null }, [string]>(
      "SELECT version, state, updated_at FROM mods WHERE workshop_id = ?",
    ),
    upsertMod: sqlite.prepare(`
      INSERT INTO mods (workshop_id, name, summary, description, author_id, author_name, type, license, version,
        size_bytes, image_url, game_version, rating, rating_count, subscriber_count, downloads_total, state, obsolete,
        tags_json, external_links_json, created_at, updated_at, listed_at, detail_scraped_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(workshop_id) DO UPDATE SET
        name = excluded.name, summary = excluded.summary, description = excluded.description,
        author_id = excluded.author_id, author_name = excluded.author_name, type = excluded.type,
        license = excluded.license, version = excluded.version, size_bytes = excluded.size_bytes,
        image_url = excluded.image_url, game_version = excluded.game_version, rating = excluded.rating,
        rating_count = excluded.rating_count, subscriber_count = excluded.subscriber_count,
        downloads_total = excluded.downloads_total, state = excluded.state, obsolete = excluded.obsolete,
        tags_json = excluded.tags_json, external_links_json = excluded.external_links_json,
        created_at = excluded.created_at, updated_at = excluded.updated_at,
        listed_at = excluded.listed_at, detail_scraped_at = excluded.detail_scraped_at`),
    deleteDeps: sqlite.prepare("DELETE FROM mod_dependencies WHERE workshop_id = ?"),
    deleteTags: sqlite.prepare("DELETE FROM mod_tags WHERE workshop_id = ?"),
    deleteShots: sqlite.prepare("DELETE FROM mod_screenshots WHERE workshop_id = ?"),
    deleteScenarios: sqlite.prepare("DELETE FROM mod_scenarios WHERE workshop_id = ? AND version = ?"),
    insertScenario: sqlite.prepare(
      "INSERT INTO mod_scenarios (workshop_id, version, game_id, name, game_mode, player_count, description, image_url, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    deleteItems: sqlite.prepare("DELETE FROM mod_items WHERE workshop_id = ? AND version = ?"),
    insertItem: sqlite.prepare(
      "INSERT INTO mod_items (workshop_id, version, item_key, item_type, name, path, guid) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ),
    upsertScan: sqlite.prepare(
      `INSERT INTO mod_item_scans (workshop_id, version, item_count, scanned_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(workshop_id, version) DO UPDATE SET item_count = excluded.item_count, scanned_at = excluded.scanned_at`,
    ),
    scannedVersions: sqlite.prepare<{ version: string }, [string]>("SELECT version FROM mod_item_scans WHERE workshop_id = ?"),
    knownIds: sqlite.prepare<{ workshop_id: string }, [string]>(
      "SELECT workshop_id FROM mods WHERE workshop_id IN (SELECT value FROM json_each(?)) AND state != 'unknown'",
    ),
    scrapedSince: sqlite.prepare<{ workshop_id: string }, [string, number]>(
      "SELECT workshop_id FROM mods WHERE workshop_id IN (SELECT value FROM json_each(?)) AND state != 'unknown' AND detail_scraped_at > ?",
    ),
    markRemoved: sqlite.prepare("UPDATE mods SET state = 'removed', detail_scraped_at = ? WHERE workshop_id = ? AND state != 'unknown'"),
    listingState: sqlite.prepare<{ workshop_id: string; version: string; updated_at: number | null; state: string }, [string]>(
      "SELECT workshop_id, version, updated_at, state FROM mods WHERE workshop_id IN (SELECT value FROM json_each(?))",
    ),
    touchListed: sqlite.prepare(
      `UPDATE mods SET subscriber_count = $subscriber_count, rating = $rating, rating_count = $rating_count, listed_at = $now
       WHERE workshop_id = $workshop_id AND state != 'unknown'
         AND (subscriber_count IS NOT $subscriber_count OR rating IS NOT $rating OR rating_count IS NOT $rating_count)`,
    ),
    unseenSince: sqlite.prepare<{ workshop_id: string }, [number]>(
      "SELECT workshop_id FROM mods WHERE state IN ('active', 'unlisted') AND (listed_at IS NULL OR listed_at < ?)",
    ),
    getState: sqlite.prepare<{ value: number }, [string]>("SELECT value FROM scraper_state WHERE key = ?"),
    setState: sqlite.prepare(
      "INSERT INTO scraper_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    ),
  };
}

type Statements = ReturnType<typeof prepare>;
/** The scraper's statements on this connection (prepared once, held by the connection: db/statements.ts statementSet). */
const stmts: (sqlite: Database) => Statements = statementSet(prepare);

/**
 * A mod's rows of one table (its versions, tags, dependencies, screenshots) go in as one
 * multi-row INSERT (insertRows, chunks of 32: a mod's versions are capped by the site) instead of
 * a statement each: the same rows in the same order, for fewer statement runs a mod.
 */
const MOD_ROWS_CHUNK = 32;

const VERSION_HEAD = `INSERT INTO mod_versions (workshop_id, version, game_version, size_bytes, changelog, approved, published,
        scenarios_count, dependencies_count, created_at)`;
const VERSION_TAIL = `ON CONFLICT(workshop_id, version) DO UPDATE SET
        game_version = excluded.game_version, size_bytes = excluded.size_bytes,
        changelog = COALESCE(excluded.changelog, mod_versions.changelog),
        approved = excluded.approved, published = excluded.published,
        scenarios_count = excluded.scenarios_count, dependencies_count = excluded.dependencies_count,
        created_at = excluded.created_at`;

export function getModVersion(sqlite: Database, workshopId: string): { version: string; state: string } | null {
  return stmts(sqlite).existing.get(workshopId) ?? null;
}

export function scannedVersions(sqlite: Database, workshopId: string): Set<string> {
  return new Set(stmts(sqlite).scannedVersions.all(workshopId).map((r) => r.version));
}

/** Of `ids`, the ones that are scraped catalog mods. */
export function knownModIds(sqlite: Database, ids: string[]): Set<string> {
  if (ids.length === 0) return new Set();
  const s = stmts(sqlite);
  // A mod's dependency tree is a few ids: a primary-key look-up each (~4 µs) costs less than
  // one json_each query (~30 µs). Same answer: rows that exist and are not placeholders.
  if (ids.length <= 16) {
    const out = new Set<string>();
    for (const id of ids) if ((s.existing.get(id)?.state ?? "unknown") !== "unknown") out.add(id);
    return out;
  }
  return new Set(s.knownIds.all(JSON.stringify(ids)).map((r) => r.workshop_id));
}

/** Of `ids`, the catalog mods whose detail was stored after `since` (epoch ms). */
export function scrapedSince(sqlite: Database, ids: string[], since: number): Set<string> {
  if (ids.length === 0) return new Set();
  return new Set(stmts(sqlite).scrapedSince.all(JSON.stringify(ids), since).map((r) => r.workshop_id));
}

/**
 * Writes one mod (must run inside the caller's transaction). Returns the previous version
 * ("" for a new or placeholder mod).
 */
export function writeMod(sqlite: Database, m: NormalisedMod, scans: ItemScan[], now: number): { previousVersion: string } {
  const s = stmts(sqlite);
  const prev = s.existing.get(m.workshop_id);
  // Positional, in the column order of the statement (listed_at and detail_scraped_at are both `now`).
  s.upsertMod.run(
    m.workshop_id,
    m.name,
    m.summary,
    m.description,
    m.author_id,
    m.author_name,
    m.type,
    m.license,
    m.version,
    m.size_bytes,
    m.image_url,
    m.game_version,
    m.rating,
    m.rating_count,
    m.subscriber_count,
    m.downloads_total,
    m.state,
    m.obsolete ? 1 : 0,
    JSON.stringify(m.tags),
    JSON.stringify(m.external_links),
    m.created_at,
    m.updated_at,
    now,
    now,
  );
  const id = m.workshop_id;
  insertRows(
    sqlite,
    VERSION_HEAD,
    10,
    m.versions.map((v) => [id, v.version, v.game_version, v.size_bytes, v.changelog, v.approved ? 1 : 0, v.published ? 1 : 0, v.scenarios_count, v.dependencies_count, v.created_at]),
    VERSION_TAIL,
    MOD_ROWS_CHUNK,
  );
  s.deleteDeps.run(id);
  insertRows(
    sqlite,
    "INSERT INTO mod_dependencies (workshop_id, depends_on_id, depends_on_name, version, size_bytes)",
    5,
    m.dependencies.map((d) => [id, d.workshop_id, d.name, d.version, d.size_bytes]),
    "",
    MOD_ROWS_CHUNK,
  );
  s.deleteTags.run(id);
  insertRows(sqlite, "INSERT INTO mod_tags (workshop_id, tag)", 2, m.tags.map((t) => [id, t]), "", MOD_ROWS_CHUNK);
  s.deleteShots.run(id);
  insertRows(
    sqlite,
    "INSERT INTO mod_screenshots (workshop_id, position, url, width, height)",
    5,
    m.screenshots.map((x, i) => [id, i, x.url, x.width, x.height]),
    "",
    MOD_ROWS_CHUNK,
  );
  // Scenarios belong to the current version; older versions keep what was scraped back then.
  s.deleteScenarios.run(m.workshop_id, m.version);
  m.scenarios.forEach((sc, i) =>
    s.insertScenario.run(m.workshop_id, m.version, sc.game_id, sc.name, sc.game_mode, sc.player_count, sc.description, sc.image_url, i),
  );
  for (const scan of scans) {
    s.deleteItems.run(m.workshop_id, scan.version);
    for (const it of scan.items) s.insertItem.run(m.workshop_id, scan.version, itemKey(it), it.type, it.name, it.path, it.guid);
    s.upsertScan.run(m.workshop_id, scan.version, scan.items.length, now);
  }
  return { previousVersion: prev?.version ?? "" };
}

/** Items of one (mod, version) read from another source (a data.pak): replaces what was there. */
export function writeItemScan(sqlite: Database, workshopId: string, scan: ItemScan, now: number) {
  const s = stmts(sqlite);
  s.deleteItems.run(workshopId, scan.version);
  for (const it of scan.items) s.insertItem.run(workshopId, scan.version, itemKey(it), it.type, it.name, it.path, it.guid);
  s.upsertScan.run(workshopId, scan.version, scan.items.length, now);
}

/** A scraped mod the workshop no longer serves keeps its data with state `removed`. */
export function markRemoved(sqlite: Database, workshopId: string, now: number): boolean {
  return stmts(sqlite).markRemoved.run(now, workshopId).changes > 0;
}

export type ListingDecision = "new" | "changed" | "unchanged";

/**
 * Compares a listing page with the catalog: rows that are new or changed need a detail scrape;
 * the others get their counters refreshed (one transaction for the page), and only when a
 * counter moved: a row the listing shows as it was is not written at all (a re-crawl of an
 * unchanged catalog writes nothing; the walk keeps the ids it saw for `modsUnseenSince`).
 */
export function reconcileListingPage(sqlite: Database, rows: AssetRow[], now: number): Map<string, ListingDecision> {
  const s = stmts(sqlite);
  const ids = rows.map((r) => r.id.toUpperCase());
  const known = new Map(s.listingState.all(JSON.stringify(ids)).map((r) => [r.workshop_id, r]));
  const out = new Map<string, ListingDecision>();
  sqlite.transaction(() => {
    for (const r of rows) {
      const id = r.id.toUpperCase();
      const k = known.get(id);
      let decision: ListingDecision;
      if (!k || k.state === "unknown") decision = "new";
      else if (k.version !== r.currentVersionNumber || k.updated_at !== Date.parse(r.updatedAt) || k.state !== stateOf(r)) decision = "changed";
      else decision = "unchanged";
      out.set(id, decision);
      if (decision !== "new") {
        s.touchListed.run({
          workshop_id: id,
          subscriber_count: r.subscriberCount ?? 0,
          rating: r.averageRating ?? null,
          rating_count: r.ratingCount ?? 0,
          now,
        });
      }
    }
  })();
  return out;
}

/**
 * Mods the catalog shows as listed that a complete crawl started at `since` did not see: not in
 * `seen` (the ids its walk read) and not stored since it started (a detail scrape of the same
 * crawl, e.g. of a dependency, wrote them).
 */
export function modsUnseenSince(sqlite: Database, since: number, seen: ReadonlySet<string>): string[] {
  return stmts(sqlite)
    .unseenSince.all(since)
    .map((r) => r.workshop_id)
    .filter((id) => !seen.has(id));
}

export function getScraperState(sqlite: Database, key: string): number | null {
  return stmts(sqlite).getState.get(key)?.value ?? null;
}

export function setScraperState(sqlite: Database, key: string, value: number): void {
  stmts(sqlite).setState.run(key, value);
}

/** Whether the catalog has any entry (not a placeholder): a new install's first run asks. */
export function hasCatalogEntries(sqlite: Database): boolean {
  return sqlite.query("SELECT 1 FROM mods WHERE state != 'unknown' LIMIT 1").get() !== null;
}

/**
 * `fn` in a savepoint of the caller's transaction, released when it returns and rolled back when
 * it throws: what a nested `sqlite.transaction(fn)()` does, from cached statements instead of a
 * transaction function (and its four wrappers) made for every mod.
 */
export function inSavepoint<T>(sqlite: Database, name: string, fn: () => T): T {
  stmt(sqlite, `SAVEPOINT ${name}`).run();
  try {
    const r = fn();
    stmt(sqlite, `RELEASE ${name}`).run();
    return r;
  } catch (err) {
    stmt(sqlite, `ROLLBACK TO ${name}`).run();
    stmt(sqlite, `RELEASE ${name}`).run();
    throw err;
  }
}

/** A job's payload while it is still queued (the job queue's table), else null. */
export function queuedJobPayload(sqlite: Database, id: string): { payload: string } | null {
  return stmt(sqlite, "SELECT payload FROM jobs WHERE id = ? AND status = 'queued'").get(id) as { payload: string } | null;
}

/** A job's payload replaced, if it is still queued. */
export function setQueuedJobPayload(sqlite: Database, id: string, payload: string): void {
  stmt(sqlite, "UPDATE jobs SET payload = ? WHERE id = ? AND status = 'queued'").run(payload, id);
}

/** The discovery queued or under way, if any (read through the dedupe index: cheap enough for GET /health). */
export function discoveryJob(sqlite: Database): { payload: string; status: "queued" | "running"; progress: string | null; started_at: number | null } | null {
  return sqlite
    .query(
      `SELECT payload, status, progress, started_at FROM jobs
       WHERE dedupe_key IN ('scrape:full', 'scrape:incremental') AND status IN ('queued', 'running')
       ORDER BY status = 'running' DESC LIMIT 1`,
    )
    .get() as { payload: string; status: "queued" | "running"; progress: string | null; started_at: number | null } | null;
}

/** The crawl's process closing its connection: what its WAL holds is checkpointed first (passive: never waits for a reader). */
export function checkpointAndClose(sqlite: Database): void {
  try {
    sqlite.exec("PRAGMA wal_checkpoint(PASSIVE)");
  } finally {
    sqlite.close();
  }
}

export { growthStatements } from "./growth";
