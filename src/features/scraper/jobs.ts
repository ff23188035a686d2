// The scraper's job handlers and schedules (the work itself: discovery.ts, detail-scrape.ts, with
// the workshop client of workshop.ts). Network I/O happens outside transactions; each mod is
// written in one transaction; every handler is idempotent (re-running only re-checks).
//
//   scrape.full         walk every listing page; queue a detail scrape for new or changed mods,
//                       and for listed mods the crawl did not see (vanished / private / blocked)
//   scrape.incremental  the same walk without the unseen-mods step: the listing's `newest` sort
//                       may order by creation, so only a whole walk finds every mod whose
//                       currentVersionNumber or updatedAt changed (rows carry both)
//   scrape.detail_batch the detail scrapes of up to 256 new or changed mods (discovery queues one
//                       job per sixteen listing pages, not one per mod: ~165 jobs for a full
//                       crawl instead of 42,000), written in one transaction;
//                       a mod that fails gets its own scrape.detail job (retries, clear error);
//                       the unknown mods of its mods' dependency trees become dependency
//                       batches (`if_unknown`: mods known by the time they run are not read)
//   scrape.detail       one mod: metadata, versions, dependencies, scenarios, screenshots, tags,
//                       items of versions with a resource path list; its unknown dependencies
//                       get a scrape.detail each
//   catalog.growth      the 3-hourly growth snapshot and its 180-day retention
import type { Deps } from "../../deps";
import { PermanentJobError, type Job, type JobHandler } from "../../jobs/queue";
import type { ScheduleSpec } from "../feature-module";
import { JOB_GROWTH, JOB_ITEMS_SCAN, JOB_SCRAPE_DETAIL, JOB_SCRAPE_DETAIL_BATCH, JOB_SCRAPE_FULL, JOB_SCRAPE_INCREMENTAL, queueItemsScan, type ScrapeMode } from "./queue";
import { normaliseWorkshopId } from "../../shared/schemas";
import * as repo from "./repository";
import type { ScraperHooks } from "./hooks";
import { rollupGrowth } from "./growth";
import { scrapeDetail, scrapeDetailBatch } from "./detail-scrape";
import { discoverRecorded, queueDiscovery } from "./discovery";

export { JOB_GROWTH, JOB_ITEMS_SCAN, JOB_SCRAPE_DETAIL, JOB_SCRAPE_DETAIL_BATCH, JOB_SCRAPE_FULL, JOB_SCRAPE_INCREMENTAL, queueItemsScan, type ScrapeMode };
export { scrapeDetail, scrapeDetailBatch, type BatchResult, type DetailResult } from "./detail-scrape";
export { crawlProgress, discover, jobTypeForMode, queueDiscovery, queueFirstRun, type CrawlProgress, type DiscoveryResult } from "./discovery";
export { resourcePathSource, workshopClient, workshopUserAgent } from "./workshop";

/** Growth snapshots: every 3 hours (the spec's resolution). */
export const GROWTH_CRON = "0 */3 * * *";
/** The scheduled run is a full discovery when the last one is older than this. */
export const FULL_DISCOVERY_EVERY_MS = 24 * 3_600_000;

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
