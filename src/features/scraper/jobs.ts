// The scraper's job handlers and schedules. Network I/O happens outside transactions; each mod
// is written in one transaction; every handler is idempotent (re-running only re-checks).
//
//   scrape.full         walk every listing page; queue a detail scrape for new or changed mods,
//                       and for listed mods the crawl did not see (vanished / private / blocked)
//   scrape.incremental  the same walk without the unseen-mods step: the listing's `newest` sort
//                       may order by creation, so only a whole walk finds every mod whose
//                       currentVersionNumber or updatedAt changed (rows carry both)
//   scrape.detail_batch the detail scrapes of up to 128 new or changed mods (discovery queues one
//                       job per eight listing pages, not one per mod: ~330 jobs for a full crawl
//                       instead of 42,000), written in one transaction;
//                       a mod that fails gets its own scrape.detail job (retries, clear error);
//                       the unknown mods of its mods' dependency trees become dependency
//                       batches (`if_unknown`: mods known by the time they run are not read)
//   scrape.detail       one mod: metadata, versions, dependencies, scenarios, screenshots, tags,
//                       items of versions with a resource path list; its unknown dependencies
//                       get a scrape.detail each
//   catalog.growth      the 3-hourly growth snapshot and its 180-day retention
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Deps } from "../../deps";
import { PermanentJobError, type Job, type JobContext, type JobHandler } from "../../jobs/queue";
import type { ScheduleSpec } from "../feature-module";
import { JOB_SCRAPE_DETAIL } from "./queue";
import { VERSION } from "../../version";
import { normaliseWorkshopId } from "../../shared/schemas";
import { WorkshopClient, WorkshopHttpError, WorkshopNotFoundError, WorkshopRedirectError, WorkshopShapeError } from "./workshop-client";
import { DirectoryPathSource, extractItems, type ResourcePathSource } from "./items";
import * as repo from "./repository";
import type { ScraperHooks } from "./hooks";
import { rollupGrowth } from "./growth";
import { recordSourceError, recordSourceOk } from "../../status/source-status";
import { stmt } from "../../db/statements";

export const JOB_SCRAPE_FULL = "scrape.full";
export const JOB_SCRAPE_INCREMENTAL = "scrape.incremental";
export const JOB_GROWTH = "catalog.growth";
import { JOB_ITEMS_SCAN, queueItemsScan } from "./queue";
export { JOB_ITEMS_SCAN, queueItemsScan };
/** Detail scrapes of new/changed mods (up to 128, eight listing pages), queued by discovery. */
export const JOB_SCRAPE_DETAIL_BATCH = "scrape.detail_batch";
export { JOB_SCRAPE_DETAIL };

export type ScrapeMode = "full" | "incremental";
export const jobTypeForMode = (mode: ScrapeMode) => (mode === "full" ? JOB_SCRAPE_FULL : JOB_SCRAPE_INCREMENTAL);

/** Growth snapshots: every 3 hours (the spec's resolution). */
export const GROWTH_CRON = "0 */3 * * *";
/** The scheduled run is a full discovery when the last one is older than this. */
export const FULL_DISCOVERY_EVERY_MS = 24 * 3_600_000;
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
/** Details a batch has in flight at once (each still waits for its rate-limit slot). */
const BATCH_READ_AHEAD = 16;
/** Mods per dependency batch (`if_unknown`), queued by a detail batch for its unknown dependencies. */
const DEPENDENCY_BATCH = 16;

const clients = new WeakMap<Deps, WorkshopClient>();
/** One client per process (per Deps), so every job shares the one polite request rate. */
export function workshopClient(deps: Deps): WorkshopClient {
  let c = clients.get(deps);
  if (!c) {
    c = new WorkshopClient({
      baseUrl: deps.config.LOADOUT_WORKSHOP_URL,
      rps: deps.config.LOADOUT_WORKSHOP_RPS,
      userAgent: workshopUserAgent(deps),
      fetch: deps.fetch,
    });
    clients.set(deps, c);
  }
  return c;
}

/** `LOADOUT_WORKSHOP_USER_AGENT`, else `Loadout/<version> (+<LOADOUT_BASE_URL>)`. */
export const workshopUserAgent = (deps: Deps) => deps.config.LOADOUT_WORKSHOP_USER_AGENT ?? `Loadout/${VERSION} (+${deps.config.LOADOUT_BASE_URL})`;

/**
 * Errors that retrying will not mend fail the job at once with one clear line: a payload the
 * site changed, a redirect off the configured origin, or a 403 (the site or its CDN refuses
 * this client).
 */
function permanentIfHopeless(deps: Deps, err: unknown): unknown {
  if (err instanceof WorkshopShapeError || err instanceof WorkshopRedirectError) return new PermanentJobError(err.message);
  if (err instanceof WorkshopHttpError && (err.status === 403 || err.status === 401)) {
    return new PermanentJobError(
      `the workshop refused the request with HTTP ${err.status} (User-Agent "${workshopUserAgent(deps)}"); its CDN may refuse this client: set LOADOUT_WORKSHOP_USER_AGENT, or check LOADOUT_WORKSHOP_URL`,
    );
  }
  return err;
}

/** Resource path lists of mod versions: `<data dir>/resource-paths/<ID>/<version>.txt` (docs/catalog.md). */
export function resourcePathSource(deps: Deps): ResourcePathSource {
  return new DirectoryPathSource(join(deps.config.LOADOUT_DATA_DIR, "resource-paths"));
}

export interface DetailResult {
  workshop_id: string;
  status: "scraped" | "removed" | "not_found";
  version?: string;
  previous_version?: string | null;
  queued_dependencies?: number;
  item_versions_scanned?: number;
}

/** One mod read from the workshop (network and file I/O done), ready to be stored. */
type FetchedDetail =
  | { kind: "mod"; mod: repo.NormalisedMod; scans: repo.ItemScan[] }
  | { kind: "gone"; workshop_id: string };

/** Whether the data dir has resource path lists at all (a batch asks once, not once a mod). */
const hasPathLists = (deps: Deps) => existsSync(join(deps.config.LOADOUT_DATA_DIR, "resource-paths"));

/**
 * Reads one mod's detail (and its scenarios and item lists when needed): no database writes.
 * `pathLists` false: the caller found no resource path lists folder (no item lists to read).
 */
async function fetchDetail(deps: Deps, workshopId: string, signal?: AbortSignal, pathLists = true): Promise<FetchedDetail> {
  const client = workshopClient(deps);
  let detail: Awaited<ReturnType<WorkshopClient["detail"]>>;
  try {
    detail = await client.detail(workshopId, signal);
  } catch (err) {
    if (err instanceof WorkshopNotFoundError) return { kind: "gone", workshop_id: workshopId };
    throw permanentIfHopeless(deps, err);
  }
  let mod: repo.NormalisedMod;
  try {
    mod = repo.normaliseDetail(detail);
  } catch (err) {
    throw new PermanentJobError(`workshop detail ${workshopId} could not be read: ${(err as Error).message}`);
  }
  // Scenarios are on the detail page; the scenarios route is asked only when they are missing there.
  const current = mod.versions.find((v) => v.version === mod.version);
  if (mod.scenarios.length === 0 && (current?.scenarios_count ?? 0) > 0) {
    try {
      const sc = await client.scenarios(workshopId, signal);
      mod = repo.normaliseDetail({ ...detail, versionDetail: { ...detail.versionDetail, scenarios: sc.scenarios } });
    } catch (err) {
      if (!(err instanceof WorkshopNotFoundError)) throw permanentIfHopeless(deps, err);
    }
  }
  // Items of versions that have a path list and were not scanned yet (file reads, before the transaction).
  const source = resourcePathSource(deps);
  const known = new Set(mod.versions.map((v) => v.version));
  const scans: repo.ItemScan[] = [];
  const versions = pathLists ? await source.versionsFor(mod.workshop_id) : [];
  const scanned = versions.length ? repo.scannedVersions(deps.sqlite, mod.workshop_id) : new Set<string>();
  for (const version of versions) {
    if (!known.has(version) || scanned.has(version)) continue;
    const paths = await source.pathsFor(mod.workshop_id, version);
    if (paths) scans.push({ version, items: extractItems(paths) });
  }
  return { kind: "mod", mod, scans };
}

/**
 * Stores one fetched mod; runs inside the caller's transaction (or savepoint). The mods of its
 * dependency tree the catalog does not know get a detail scrape: their own `scrape.detail` job
 * each, or, when `unknownDeps` is given (a batch), they are added to it and the batch queues
 * them together once all its mods are stored.
 */
function storeDetail(deps: Deps, hooks: ScraperHooks, d: FetchedDetail, now: number, unknownDeps?: Set<string>): DetailResult {
  if (d.kind === "gone") {
    const removed = repo.markRemoved(deps.sqlite, d.workshop_id, now);
    return { workshop_id: d.workshop_id, status: removed ? "removed" : "not_found" };
  }
  const { mod, scans } = d;
  const { previousVersion } = repo.writeMod(deps.sqlite, mod, scans, now);
  if (previousVersion && previousVersion !== mod.version) {
    hooks.onModVersionChanged(deps.db, mod.workshop_id, previousVersion, mod.version);
  }
  const known = repo.knownModIds(deps.sqlite, mod.dependency_tree_ids);
  let queued = 0;
  for (const depId of mod.dependency_tree_ids) {
    if (known.has(depId)) continue;
    if (unknownDeps) unknownDeps.add(depId);
    // if_unknown: skipped when a batch of the same crawl stored the mod in the meantime.
    else deps.jobs.enqueue(JOB_SCRAPE_DETAIL, { workshop_id: depId, if_unknown: true }, { dedupeKey: `scrape:${depId}`, db: deps.db });
    queued++;
  }
  return {
    workshop_id: mod.workshop_id,
    status: "scraped",
    version: mod.version,
    previous_version: previousVersion || null,
    queued_dependencies: queued,
    item_versions_scanned: scans.length,
  };
}

/** Scrapes one mod and stores it (one transaction). Shape changes fail without retries. */
export async function scrapeDetail(deps: Deps, hooks: ScraperHooks, workshopId: string, signal?: AbortSignal): Promise<DetailResult> {
  const d = await fetchDetail(deps, workshopId, signal);
  return deps.sqlite.transaction(() => storeDetail(deps, hooks, d, deps.clock.now())).immediate();
}

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
async function discoverRecorded(deps: Deps, mode: ScrapeMode, ctx: JobContext): Promise<DiscoveryResult> {
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
  const any = deps.sqlite.query("SELECT 1 FROM mods WHERE state != 'unknown' LIMIT 1").get();
  if (any) return null;
  const crawl = queueDiscovery(deps, "full");
  const scan = enqueueLiveScan();
  deps.log.info("first run: the catalog is empty; queued a full workshop crawl and a live scan", { crawl_job_id: crawl, scan_job_id: scan });
  return { crawl, scan };
}

function queueDetailBatch(deps: Deps, ids: string[], ifUnknown = false): string {
  return deps.jobs.enqueue(JOB_SCRAPE_DETAIL_BATCH, ifUnknown ? { workshop_ids: ids, if_unknown: true } : { workshop_ids: ids }, { db: deps.db });
}

/**
 * `fn` in a savepoint of the caller's transaction, released when it returns and rolled back
 * when it throws: what a nested `sqlite.transaction(fn)()` does, from cached statements instead
 * of a transaction function (and its four wrappers) made for every mod.
 */
function inSavepoint<T>(deps: Deps, fn: () => T): T {
  stmt(deps.sqlite, "SAVEPOINT scrape_mod").run();
  try {
    const r = fn();
    stmt(deps.sqlite, "RELEASE scrape_mod").run();
    return r;
  } catch (err) {
    stmt(deps.sqlite, "ROLLBACK TO scrape_mod").run();
    stmt(deps.sqlite, "RELEASE scrape_mod").run();
    throw err;
  }
}

/** The dependency batch last queued by this process, which later batches fill up while it waits. */
const openDependencyBatch = new WeakMap<Deps, string>();

/**
 * Queues `ids` (unknown dependencies, each once) for reading in dependency batches of up to 16:
 * first into the room left in the dependency batch this process queued last, while it is still
 * queued (its payload rewritten in the caller's transaction), then in new batches. During a
 * crawl most batches name one or two unknown mods, most of them read by their listing batch by
 * the time the dependency batch runs: filled up, there are a fraction as many jobs, each checking
 * up to 16 mods, instead of one job (a claim and two commits) for every batch that named any.
 */
function queueDependencyBatches(deps: Deps, ids: string[]): void {
  let rest = ids;
  const openId = openDependencyBatch.get(deps);
  if (openId) {
    const row = stmt(deps.sqlite, "SELECT payload FROM jobs WHERE id = ? AND status = 'queued'").get(openId) as { payload: string } | null;
    const held: string[] = row ? (JSON.parse(row.payload).workshop_ids ?? []) : [];
    if (row && held.length < DEPENDENCY_BATCH) {
      const have = new Set(held);
      const fresh = rest.filter((id) => !have.has(id));
      const add = fresh.slice(0, DEPENDENCY_BATCH - held.length);
      if (add.length) {
        stmt(deps.sqlite, "UPDATE jobs SET payload = ? WHERE id = ? AND status = 'queued'").run(JSON.stringify({ workshop_ids: [...held, ...add], if_unknown: true }), openId);
      }
      rest = fresh.slice(add.length);
    } else if (row) rest = rest.filter((id) => !held.includes(id));
  }
  for (let i = 0; i < rest.length; i += DEPENDENCY_BATCH) {
    openDependencyBatch.set(deps, queueDetailBatch(deps, rest.slice(i, i + DEPENDENCY_BATCH), true));
  }
}

export interface BatchResult {
  scraped: number;
  removed: number;
  not_found: number;
  /** Mods that failed here and were handed to their own scrape.detail job. */
  deferred: { workshop_id: string; error: string }[];
  /** Mods a dependency scrape stored after the batch was queued: not read again. */
  already_scraped?: number;
  /** A dependency batch (`if_unknown`): its mods the catalog knew by the time it ran, not read. */
  already_known?: number;
  /** Unknown mods of the stored mods' dependency trees, queued as dependency batches. */
  queued_dependencies?: number;
}

/**
 * Scrapes the mods of a batch: every detail is read first (network I/O, no transaction open),
 * then all of them are written in one transaction (writeBatch: a savepoint a mod only once one
 * failed), so a mod that fails to store rolls back alone and never leaves half a mod. One commit
 * a batch instead of one a mod: a commit writes every B-tree page the mod touched (mods, its sort indexes, FTS5's new
 * segment, versions, tags) to the WAL, and consecutive mods share most of those pages.
 * A mod that fails gets its own scrape.detail job (retries, a clear error). Mods stored after
 * `queuedAt` (a dependency scrape of the same crawl reached them first) are not read again, nor,
 * in a dependency batch (`ifUnknown`), mods the catalog knows by now. The unknown mods of the
 * stored mods' dependency trees are queued as dependency batches of up to 16 in the same
 * transaction (once each, leaving out those the batch itself stored), instead of a job each.
 */
export async function scrapeDetailBatch(
  deps: Deps,
  hooks: ScraperHooks,
  ids: string[],
  ctx?: Pick<JobContext, "progress" | "signal">,
  queuedAt?: number,
  ifUnknown = false,
): Promise<BatchResult> {
  const out: BatchResult = { scraped: 0, removed: 0, not_found: 0, deferred: [] };
  const fresh = queuedAt === undefined ? new Set<string>() : repo.scrapedSince(deps.sqlite, ids, queuedAt);
  const known = ifUnknown ? repo.knownModIds(deps.sqlite, ids) : new Set<string>();
  const defer = (id: string, err: unknown) => {
    out.deferred.push({ workshop_id: id, error: (err as Error).message });
    deps.jobs.enqueue(JOB_SCRAPE_DETAIL, { workshop_id: id }, { dedupeKey: `scrape:${id}` });
  };
  const todo: string[] = [];
  for (const id of ids) {
    if (fresh.has(id)) out.already_scraped = (out.already_scraped ?? 0) + 1;
    else if (known.has(id)) out.already_known = (out.already_known ?? 0) + 1;
    else todo.push(id);
  }
  // Up to BATCH_READ_AHEAD details in flight (the client's rate limit still spaces them), read
  // back in the batch's order: the replies of a rate-limit window are taken in one wake.
  const pathLists = hasPathLists(deps);
  const results: ({ ok: FetchedDetail } | { err: unknown })[] = new Array(todo.length);
  let next = 0;
  const reader = async () => {
    while (next < todo.length && !ctx?.signal.aborted) {
      const i = next++;
      try {
        results[i] = { ok: await fetchDetail(deps, todo[i]!, ctx?.signal, pathLists) };
      } catch (err) {
        results[i] = { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_READ_AHEAD, todo.length) }, reader));
  if (ctx?.signal.aborted) throw ctx.signal.reason ?? new Error("aborted");
  const fetched: FetchedDetail[] = [];
  results.forEach((r, i) => ("ok" in r ? fetched.push(r.ok) : defer(todo[i]!, r.err)));
  const now = deps.clock.now();
  // Every mod in one transaction. First without a savepoint per mod: a savepoint makes FTS5 flush
  // its pending rows into a new segment of their own (and merge them later), ~50 µs a mod
  // (docs/performance.md, "The crawl's CPU"). Should any mod fail to store, that attempt is rolled
  // back whole and the batch is written again with a savepoint a mod, so the failing one rolls
  // back alone (its dependencies with it: they are added only once it is stored), as before.
  const failed = writeBatch(deps, hooks, fetched, now, false, out) ?? writeBatch(deps, hooks, fetched, now, true, out)!;
  for (const [id, err] of failed) defer(id, err);
  return out;
}

/** Thrown inside a batch's first attempt when a mod fails: rolls the attempt back whole. */
class ModFailed extends Error {}

/**
 * Writes a batch's fetched mods in one `IMMEDIATE` transaction, with their dependency batches, and
 * adds what it stored to `out`. `savepoints`: each mod in its own savepoint, and a mod that fails
 * is returned (with its error) instead of failing the others; without, the first mod that fails
 * rolls back everything this call wrote and it returns null.
 */
function writeBatch(
  deps: Deps,
  hooks: ScraperHooks,
  fetched: FetchedDetail[],
  now: number,
  savepoints: boolean,
  out: BatchResult,
): [string, unknown][] | null {
  const failed: [string, unknown][] = [];
  const stored = { scraped: 0, removed: 0, not_found: 0 };
  let queuedDependencies = 0;
  try {
    deps.sqlite
      .transaction(() => {
        const unknownDeps = new Set<string>();
        for (const d of fetched) {
          const mine = new Set<string>();
          let r: DetailResult;
          if (savepoints) {
            try {
              r = inSavepoint(deps, () => storeDetail(deps, hooks, d, now, mine));
            } catch (err) {
              failed.push([d.kind === "mod" ? d.mod.workshop_id : d.workshop_id, err]);
              continue;
            }
          } else {
            try {
              r = storeDetail(deps, hooks, d, now, mine);
            } catch (err) {
              throw new ModFailed("a mod of the batch failed to store", { cause: err });
            }
          }
          for (const id of mine) unknownDeps.add(id);
          stored[r.status]++;
        }
        if (unknownDeps.size) {
          // Mods this batch stored after the one that named them are known by now; those that
          // failed here get their own scrape.detail job (retried alone) afterwards.
          const known = repo.knownModIds(deps.sqlite, [...unknownDeps]);
          const ownJob = new Set([...out.deferred.map((x) => x.workshop_id), ...failed.map(([id]) => id)]);
          const toQueue = [...unknownDeps].filter((id) => !known.has(id) && !ownJob.has(id));
          queueDependencyBatches(deps, toQueue);
          queuedDependencies = toQueue.length;
        }
      })
      .immediate();
  } catch (err) {
    if (err instanceof ModFailed) return null;
    throw err;
  }
  out.scraped += stored.scraped;
  out.removed += stored.removed;
  out.not_found += stored.not_found;
  if (queuedDependencies) out.queued_dependencies = queuedDependencies;
  return failed;
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
  const row = deps.sqlite
    .query(
      `SELECT payload, status, progress, started_at FROM jobs
       WHERE dedupe_key IN ('scrape:full', 'scrape:incremental') AND status IN ('queued', 'running')
       ORDER BY status = 'running' DESC LIMIT 1`,
    )
    .get() as { payload: string; status: "queued" | "running"; progress: string | null; started_at: number | null } | null;
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

export const scraperJobs = (deps: Deps, hooks: ScraperHooks): Record<string, JobHandler> => ({
  [JOB_SCRAPE_DETAIL]: {
    concurrency: 4,
    maxAttempts: 5,
    run: async (job: Job<{ workshop_id?: string; if_unknown?: boolean }>, ctx) => {
      const id = normaliseWorkshopId(String(job.payload?.workshop_id ?? ""));
      if (!id) throw new PermanentJobError("payload.workshop_id: invalid workshop ID");
      if (job.payload.if_unknown && repo.knownModIds(deps.sqlite, [id]).has(id)) {
        return { workshop_id: id, status: "already_known" };
      }
      return scrapeDetail(deps, hooks, id, ctx.signal);
    },
  },
  [JOB_SCRAPE_DETAIL_BATCH]: {
    concurrency: 2,
    maxAttempts: 3,
    run: (job: Job<{ workshop_ids?: unknown; if_unknown?: boolean }>, ctx) => {
      const raw = Array.isArray(job.payload?.workshop_ids) ? job.payload.workshop_ids : [];
      const ids = raw.map((x) => normaliseWorkshopId(String(x))).filter((x): x is string => x !== null);
      return scrapeDetailBatch(deps, hooks, ids, ctx, job.created_at, job.payload?.if_unknown === true);
    },
  },
  [JOB_SCRAPE_FULL]: {
    concurrency: 1,
    maxAttempts: 3,
    run: (_job, ctx) => discoverRecorded(deps, "full", ctx),
  },
  [JOB_SCRAPE_INCREMENTAL]: {
    concurrency: 1,
    maxAttempts: 3,
    run: (_job, ctx) => discoverRecorded(deps, "incremental", ctx),
  },
  [JOB_GROWTH]: {
    concurrency: 1,
    maxAttempts: 3,
    run: () => rollupGrowth(deps.sqlite, deps.clock.now()),
  },
});

/** The scheduled run: full discovery once a day (or on a fresh catalog), else incremental. */
export function scheduledDiscoveryMode(deps: Deps): ScrapeMode {
  const last = repo.getScraperState(deps.sqlite, "last_full_discovery");
  return last === null || deps.clock.now() - last >= FULL_DISCOVERY_EVERY_MS ? "full" : "incremental";
}

export const scraperSchedules = (deps: Deps): ScheduleSpec[] => [
  {
    name: "workshop-scrape",
    cron: deps.config.LOADOUT_CRON_WORKSHOP,
    enqueue: () => {
      queueDiscovery(deps, scheduledDiscoveryMode(deps));
    },
  },
  {
    name: "items-scan",
    cron: deps.config.LOADOUT_CRON_ITEMS,
    enqueue: () => {
      queueItemsScan(deps, { scheduledOnly: true });
    },
  },
  {
    name: "catalog-growth",
    cron: GROWTH_CRON,
    enqueue: () => {
      deps.jobs.enqueue(JOB_GROWTH, {}, { dedupeKey: "catalog:growth" });
    },
  },
];
