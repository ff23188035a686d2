// Discovery (scrape.full, scrape.incremental): the walk of the workshop's listing that queues
// detail batches for new and changed mods (and, on a full crawl, for listed mods it did not see),
// a new install's first run, and the progress GET /health shows.
import type { Deps } from "../../deps";
import type { JobContext } from "../../jobs/queue";
import * as repo from "./repository";
import { recordSourceError, recordSourceOk } from "../../status/source-status";
import { JOB_SCRAPE_FULL, JOB_SCRAPE_INCREMENTAL, type ScrapeMode } from "./queue";
import { queueDetailBatch } from "./detail-scrape";
import { permanentIfHopeless, workshopClient } from "./workshop";

/**
 * Mods per scrape.detail_batch job that discovery queues (any number works): sixteen listing pages
 * of 16. A batch's mods are written in one transaction, and a commit writes every B-tree page it
 * dirtied to the WAL; most of a mod's index entries (its id, name, size and date in the sort
 * indexes, its versions', tags' and dependencies' keys) land on pages no other mod of the batch
 * touches, so the pages written a mod fall from ~13 in batches of 16 to ~9 at 64 and ~6.5 at 128
 * (write-only trials, 15,000 mods into a fresh database); at 42,000 mods a 128-mod commit wrote
 * ~13.7 WAL frames a mod and a 256-mod one ~12 (docs/performance.md "The crawl's CPU"). The write
 * transaction of 256 mods holds the write lock about as long as one of 128 did when a mod's write
 * cost more (~40 ms; 512 would hold it twice as long). At the default 2 requests
 * a second a batch reads for about two minutes (its lease is renewed while it runs).
 */
const LISTING_BATCH = 256;

export const jobTypeForMode = (mode: ScrapeMode) => (mode === "full" ? JOB_SCRAPE_FULL : JOB_SCRAPE_INCREMENTAL);

export interface DiscoveryResult {
  mode: ScrapeMode;
  pages: number;
  /** Estimated from `count` and the first page's size (the site serves 16 a page today). */
  pages_total: number;
  rows: number;
  /** Rows that failed their schema: skipped (a warn log line names each), their page stored. */
  skipped_rows: number;
  queued: number;
  unseen_queued: number;
  complete: boolean;
}

/** A walk stops here whatever the site says: 16 rows a page would be 80,000 mods. */
const MAX_LISTING_PAGES = 5000;

/**
 * Walks the whole listing and queues detail scrapes for new and changed mods. It relies on no
 * page size: the walk ends on an empty page, or once it has seen `count` rows.
 */
export async function discover(deps: Deps, mode: ScrapeMode, ctx?: Pick<JobContext, "progress" | "signal">): Promise<DiscoveryResult> {
  const client = workshopClient(deps);
  const startedAt = deps.clock.now();
  const result: DiscoveryResult = { mode, pages: 0, pages_total: 0, rows: 0, skipped_rows: 0, queued: 0, unseen_queued: 0, complete: false };
  let pageSize = 0;
  // New and changed mods wait here until a batch is full (or the walk ends, however it ends).
  let pending: string[] = [];
  // Every id the walk read (the unseen step's "seen": unchanged rows are not written, so
  // listed_at no longer marks them).
  const seen = new Set<string>();
  const flush = () => {
    if (pending.length) queueDetailBatch(deps, pending);
    pending = [];
  };
  try {
    for (let page = 1; page <= MAX_LISTING_PAGES; page++) {
      let listing;
      try {
        listing = await client.listing({ page, sort: "newest" }, ctx?.signal);
      } catch (err) {
        throw permanentIfHopeless(deps, err);
      }
      const onPage = listing.rows.length + listing.skipped.length;
      if (onPage === 0) {
        result.complete = true;
        break;
      }
      pageSize ||= onPage;
      result.pages = page;
      result.pages_total = Math.max(page, Math.ceil(listing.count / pageSize));
      result.rows += listing.rows.length;
      result.skipped_rows += listing.skipped.length;
      for (const sk of listing.skipped) deps.log.warn("workshop listing row skipped", { page, workshop_id: sk.id, error: sk.error });
      const decisions = repo.reconcileListingPage(deps.sqlite, listing.rows, deps.clock.now());
      for (const [id, d] of decisions) {
        seen.add(id);
        if (d === "unchanged") continue;
        pending.push(id);
        result.queued++;
        if (pending.length >= LISTING_BATCH) flush();
      }
      ctx?.progress({ mode, pages_done: page, pages_total: result.pages_total, queued: result.queued, skipped_rows: result.skipped_rows });
      if (result.rows + result.skipped_rows >= listing.count) {
        result.complete = true;
        break;
      }
    }
  } finally {
    flush();
  }
  if (mode === "full" && result.complete) {
    // Listed mods this crawl did not see: one detail scrape each tells vanished from private.
    const unseen = repo.modsUnseenSince(deps.sqlite, startedAt, seen);
    deps.sqlite.transaction(() => {
      for (let i = 0; i < unseen.length; i += LISTING_BATCH) queueDetailBatch(deps, unseen.slice(i, i + LISTING_BATCH));
      repo.setScraperState(deps.sqlite, "last_full_discovery", startedAt);
    })();
    result.unseen_queued = unseen.length;
  }
  repo.setScraperState(deps.sqlite, `last_${mode}_run`, startedAt);
  return result;
}

/** A discovery run whose outcome is the workshop's line in GET /health (`sources.workshop`). */
export async function discoverRecorded(deps: Deps, mode: ScrapeMode, ctx: JobContext): Promise<DiscoveryResult> {
  try {
    const r = await discover(deps, mode, ctx);
    recordSourceOk(deps.sqlite, "workshop", deps.clock.now());
    return r;
  } catch (err) {
    if (!ctx.signal.aborted) recordSourceError(deps.sqlite, "workshop", deps.clock.now(), (err as Error).message);
    throw err;
  }
}

/**
 * A new install: on a database whose catalog is empty, a full crawl and a live scan are queued
 * at start (when schedules are on), so data shows within minutes instead of after the first
 * 6-hour tick. Returns the queued job ids, or null when the catalog has mods.
 */
export function queueFirstRun(deps: Deps, enqueueLiveScan: () => string): { crawl: string; scan: string } | null {
  if (repo.hasCatalogEntries(deps.sqlite)) return null;
  const crawl = queueDiscovery(deps, "full");
  const scan = enqueueLiveScan();
  deps.log.info("first run: the catalog is empty; queued a full workshop crawl and a live scan", { crawl_job_id: crawl, scan_job_id: scan });
  return { crawl, scan };
}

/** Queues a discovery run (deduplicated while one of that mode is queued or running). */
export function queueDiscovery(deps: Deps, mode: ScrapeMode, createdBy: string | null = null): string {
  return deps.jobs.enqueue(jobTypeForMode(mode), { mode }, { dedupeKey: `scrape:${mode}`, createdBy });
}

export interface CrawlProgress {
  mode: ScrapeMode;
  status: "queued" | "running";
  /** Listing pages read so far and about how many there are (null until the first page). */
  pages_done: number | null;
  pages_total: number | null;
  started_at: string | null;
}

/** The workshop discovery queued or under way, if any (read through the dedupe index: cheap enough for GET /health). */
export function crawlProgress(deps: Pick<Deps, "sqlite">): CrawlProgress | null {
  const row = repo.discoveryJob(deps.sqlite);
  if (!row) return null;
  let progress: { pages_done?: number; pages_total?: number } = {};
  try {
    progress = row.progress ? JSON.parse(row.progress) : {};
  } catch {}
  let mode: ScrapeMode = "full";
  try {
    mode = JSON.parse(row.payload).mode === "incremental" ? "incremental" : "full";
  } catch {}
  return {
    mode,
    status: row.status,
    pages_done: typeof progress.pages_done === "number" ? progress.pages_done : null,
    pages_total: typeof progress.pages_total === "number" ? progress.pages_total : null,
    started_at: row.started_at === null ? null : new Date(row.started_at).toISOString(),
  };
}

