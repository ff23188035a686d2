// The scraper's job handlers and schedules. Network I/O happens outside transactions; each mod
// is written in one transaction; every handler is idempotent (re-running only re-checks).
//
//   scrape.full         walk every listing page; queue a detail scrape for new or changed mods,
//                       and for listed mods the crawl did not see (vanished / private / blocked)
//   scrape.incremental  newest first; stop at the first page with nothing new or changed
//   scrape.detail_batch the detail scrapes of one listing page (discovery queues one job per
//                       page, not one per mod: 1,750 jobs for a full crawl instead of 42,000);
//                       a mod that fails gets its own scrape.detail job (retries, clear error)
//   scrape.detail       one mod: metadata, versions, dependencies, scenarios, screenshots, tags,
//                       items of versions with a resource path list
//   catalog.growth      the 3-hourly growth snapshot and its 180-day retention
import { join } from "node:path";
import type { Deps } from "../../deps";
import { PermanentJobError, type Job, type JobContext, type JobHandler } from "../jobs/queue";
import type { ScheduleSpec } from "../index";
import { JOB_SCRAPE_DETAIL } from "../catalog/service";
import { VERSION } from "../../version";
import { normaliseWorkshopId } from "../../shared/schemas";
import { WorkshopClient, WorkshopNotFoundError, WorkshopShapeError } from "./workshop-client";
import { DirectoryPathSource, extractItems, type ResourcePathSource } from "./items";
import * as repo from "./repository";
import { onModVersionChanged } from "./hooks";
import { rollupGrowth } from "./growth";

export const JOB_SCRAPE_FULL = "scrape.full";
export const JOB_SCRAPE_INCREMENTAL = "scrape.incremental";
export const JOB_GROWTH = "catalog.growth";
/** Detail scrapes of one listing page's new/changed mods, queued by discovery. */
export const JOB_SCRAPE_DETAIL_BATCH = "scrape.detail_batch";
export { JOB_SCRAPE_DETAIL };

export type ScrapeMode = "full" | "incremental";
export const jobTypeForMode = (mode: ScrapeMode) => (mode === "full" ? JOB_SCRAPE_FULL : JOB_SCRAPE_INCREMENTAL);

/** Growth snapshots: every 3 hours (the spec's resolution). */
export const GROWTH_CRON = "0 */3 * * *";
/** The scheduled run is a full discovery when the last one is older than this. */
export const FULL_DISCOVERY_EVERY_MS = 24 * 3_600_000;
const LISTING_PAGE_SIZE = 24;

const clients = new WeakMap<Deps, WorkshopClient>();
/** One client per process (per Deps), so every job shares the one polite request rate. */
export function workshopClient(deps: Deps): WorkshopClient {
  let c = clients.get(deps);
  if (!c) {
    c = new WorkshopClient({
      baseUrl: deps.config.LOADOUT_WORKSHOP_URL,
      rps: deps.config.LOADOUT_WORKSHOP_RPS,
      userAgent: `Loadout/${VERSION} (self-hosted Arma Reforger mod catalog)`,
      fetch: deps.fetch,
    });
    clients.set(deps, c);
  }
  return c;
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

/** Scrapes one mod and stores it (one transaction). Shape changes fail without retries. */
export async function scrapeDetail(deps: Deps, workshopId: string, signal?: AbortSignal): Promise<DetailResult> {
  const client = workshopClient(deps);
  let detail: Awaited<ReturnType<WorkshopClient["detail"]>>;
  try {
    detail = await client.detail(workshopId, signal);
  } catch (err) {
    if (err instanceof WorkshopNotFoundError) {
      const removed = deps.sqlite.transaction(() => repo.markRemoved(deps.sqlite, workshopId, deps.clock.now())).immediate();
      return { workshop_id: workshopId, status: removed ? "removed" : "not_found" };
    }
    if (err instanceof WorkshopShapeError) throw new PermanentJobError(err.message);
    throw err;
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
      if (err instanceof WorkshopShapeError) throw new PermanentJobError(err.message);
      if (!(err instanceof WorkshopNotFoundError)) throw err;
    }
  }
  // Items of versions that have a path list and were not scanned yet (file reads, before the transaction).
  const source = resourcePathSource(deps);
  const known = new Set(mod.versions.map((v) => v.version));
  const scanned = repo.scannedVersions(deps.sqlite, mod.workshop_id);
  const scans: repo.ItemScan[] = [];
  for (const version of await source.versionsFor(mod.workshop_id)) {
    if (!known.has(version) || scanned.has(version)) continue;
    const paths = await source.pathsFor(mod.workshop_id, version);
    if (paths) scans.push({ version, items: extractItems(paths) });
  }

  const now = deps.clock.now();
  return deps.sqlite
    .transaction((): DetailResult => {
      const { previousVersion } = repo.writeMod(deps.sqlite, mod, scans, now);
      if (previousVersion && previousVersion !== mod.version) {
        onModVersionChanged(deps.db, mod.workshop_id, previousVersion, mod.version);
      }
      // Dependencies (the whole tree) we have never scraped get their own detail scrape.
      const known = repo.knownModIds(deps.sqlite, mod.dependency_tree_ids);
      let queued = 0;
      for (const depId of mod.dependency_tree_ids) {
        if (known.has(depId)) continue;
        // if_unknown: skipped when a batch of the same crawl stored the mod in the meantime.
        deps.jobs.enqueue(JOB_SCRAPE_DETAIL, { workshop_id: depId, if_unknown: true }, { dedupeKey: `scrape:${depId}`, db: deps.db });
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
    })
    .immediate();
}

export interface DiscoveryResult {
  mode: ScrapeMode;
  pages: number;
  pages_total: number;
  rows: number;
  queued: number;
  unseen_queued: number;
  complete: boolean;
}

/** Walks the listing; queues detail scrapes for new and changed mods. */
export async function discover(deps: Deps, mode: ScrapeMode, ctx?: Pick<JobContext, "progress" | "signal">): Promise<DiscoveryResult> {
  const client = workshopClient(deps);
  const startedAt = deps.clock.now();
  const result: DiscoveryResult = { mode, pages: 0, pages_total: 0, rows: 0, queued: 0, unseen_queued: 0, complete: false };
  for (let page = 1; ; page++) {
    let listing;
    try {
      listing = await client.listing({ page, sort: "newest" }, ctx?.signal);
    } catch (err) {
      if (err instanceof WorkshopShapeError) throw new PermanentJobError(err.message);
      throw err;
    }
    result.pages = page;
    result.pages_total = Math.max(1, Math.ceil(listing.count / LISTING_PAGE_SIZE));
    result.rows += listing.rows.length;
    const decisions = repo.reconcileListingPage(deps.sqlite, listing.rows, deps.clock.now());
    const toScrape = [...decisions].filter(([, d]) => d !== "unchanged").map(([id]) => id);
    if (toScrape.length) {
      queueDetailBatch(deps, toScrape);
      result.queued += toScrape.length;
    }
    ctx?.progress({ mode, pages_done: page, pages_total: result.pages_total, queued: result.queued });
    const last = listing.rows.length < LISTING_PAGE_SIZE || page >= result.pages_total;
    if (mode === "incremental" && toScrape.length === 0) break;
    if (last) {
      result.complete = true;
      break;
    }
  }
  if (mode === "full" && result.complete) {
    // Listed mods this crawl did not see: one detail scrape each tells vanished from private.
    const unseen = repo.modsUnseenSince(deps.sqlite, startedAt);
    deps.sqlite.transaction(() => {
      for (let i = 0; i < unseen.length; i += LISTING_PAGE_SIZE) queueDetailBatch(deps, unseen.slice(i, i + LISTING_PAGE_SIZE));
      repo.setScraperState(deps.sqlite, "last_full_discovery", startedAt);
    })();
    result.unseen_queued = unseen.length;
  }
  repo.setScraperState(deps.sqlite, `last_${mode}_run`, startedAt);
  return result;
}

function queueDetailBatch(deps: Deps, ids: string[]): string {
  return deps.jobs.enqueue(JOB_SCRAPE_DETAIL_BATCH, { workshop_ids: ids }, { db: deps.db });
}

export interface BatchResult {
  scraped: number;
  removed: number;
  not_found: number;
  /** Mods that failed here and were handed to their own scrape.detail job. */
  deferred: { workshop_id: string; error: string }[];
}

/** Scrapes each mod of a batch in turn (one transaction each); a failing mod gets its own job. */
export async function scrapeDetailBatch(deps: Deps, ids: string[], ctx?: Pick<JobContext, "progress" | "signal">): Promise<BatchResult> {
  const out: BatchResult = { scraped: 0, removed: 0, not_found: 0, deferred: [] };
  for (const id of ids) {
    if (ctx?.signal.aborted) throw ctx.signal.reason ?? new Error("aborted");
    try {
      const r = await scrapeDetail(deps, id, ctx?.signal);
      out[r.status]++;
    } catch (err) {
      if (ctx?.signal.aborted) throw err;
      out.deferred.push({ workshop_id: id, error: (err as Error).message });
      deps.jobs.enqueue(JOB_SCRAPE_DETAIL, { workshop_id: id }, { dedupeKey: `scrape:${id}` });
    }
  }
  return out;
}

/** Queues a discovery run (deduplicated while one of that mode is queued or running). */
export function queueDiscovery(deps: Deps, mode: ScrapeMode, createdBy: string | null = null): string {
  return deps.jobs.enqueue(jobTypeForMode(mode), { mode }, { dedupeKey: `scrape:${mode}`, createdBy });
}

export const scraperJobs = (deps: Deps): Record<string, JobHandler> => ({
  [JOB_SCRAPE_DETAIL]: {
    concurrency: 4,
    maxAttempts: 5,
    run: async (job: Job<{ workshop_id?: string; if_unknown?: boolean }>, ctx) => {
      const id = normaliseWorkshopId(String(job.payload?.workshop_id ?? ""));
      if (!id) throw new PermanentJobError("payload.workshop_id: invalid workshop ID");
      if (job.payload.if_unknown && repo.knownModIds(deps.sqlite, [id]).has(id)) {
        return { workshop_id: id, status: "already_known" };
      }
      return scrapeDetail(deps, id, ctx.signal);
    },
  },
  [JOB_SCRAPE_DETAIL_BATCH]: {
    concurrency: 2,
    maxAttempts: 3,
    run: (job: Job<{ workshop_ids?: unknown }>, ctx) => {
      const raw = Array.isArray(job.payload?.workshop_ids) ? job.payload.workshop_ids : [];
      const ids = raw.map((x) => normaliseWorkshopId(String(x))).filter((x): x is string => x !== null);
      return scrapeDetailBatch(deps, ids, ctx);
    },
  },
  [JOB_SCRAPE_FULL]: {
    concurrency: 1,
    maxAttempts: 3,
    run: (_job, ctx) => discover(deps, "full", ctx),
  },
  [JOB_SCRAPE_INCREMENTAL]: {
    concurrency: 1,
    maxAttempts: 3,
    run: (_job, ctx) => discover(deps, "incremental", ctx),
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
    name: "catalog-growth",
    cron: GROWTH_CRON,
    enqueue: () => {
      deps.jobs.enqueue(JOB_GROWTH, {}, { dedupeKey: "catalog:growth" });
    },
  },
];
