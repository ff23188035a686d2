// The scraper: crawls the Workshop into the catalog's tables, reads items from mod files.
// Its registry entry (the scraper triggers, the scrape and growth jobs and their schedules) and
// what other features may use of it.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import type { FeatureModule } from "../feature-module";
import type { ScraperHooks } from "./hooks";
import { itemsTriggerRoutes, scraperRoutes } from "./routes";
import { queueFirstRun, scraperJobs, scraperSchedules } from "./jobs";
import { crawlWorkerSpec } from "./crawl-process";
import { superviseWorkerProcess } from "../../jobs/worker-process";
import { VERSION } from "../../version";

export type { ScraperHooks };

export const scraperFeature = (hooks: ScraperHooks): FeatureModule => ({
  name: "scraper",
  routes: (deps: Deps) => new Elysia().use(scraperRoutes(deps)).use(itemsTriggerRoutes(deps)),
  jobs: (deps: Deps) => scraperJobs(deps, hooks),
  schedules: scraperSchedules,
  start: (deps, { schedules }) => {
    // The crawl's jobs run in a child process started when they are due (docs/architecture.md
    // "The crawl's process"); handed off before the worker starts, so this process never claims one.
    const crawl = deps.config.LOADOUT_CRAWL_PROCESS === "child" ? superviseWorkerProcess(deps.jobs, deps.log, crawlWorkerSpec(), VERSION, deps.clock) : null;
    // A new install crawls the workshop (and scans the live servers) at once.
    if (schedules) queueFirstRun(deps, () => hooks.onFirstRun?.(deps) ?? "");
    return { stop: async () => void (await crawl?.stop()) };
  },
});

// What a crawl under way has done so far (the platform's /metrics).
export { crawlProgress, type CrawlProgress } from "./jobs";

// Queueing scraper work from other features: one mod's detail scrape (lists, live), an items
// scan (the deploy, after a successful SFTP deploy).
export { queueDetailScrape, queueItemsScan, JOB_ITEMS_SCAN } from "./queue";
// Items read from the data.pak files of an addons folder, any source (the servers feature
// hands in its SFTP servers), and an item diff between two versions (the catalog).
export { ADDON_DIR, localAddons, scanAddons, versionFromServerData, type AddonEntry, type AddonSource, type ItemsScanResult } from "./addons";
export { diffItems, type ExtractedItem, type ItemType } from "./items";
// The growth roll-up: its job type, its 3-hour buckets, the live window it counts usage in.
export { JOB_GROWTH } from "./jobs";
export { BUCKET_MS, bucketOf, bucketTime, LIVE_WINDOW_MS } from "./growth";
// The crawl's worker process (serve starts it; main.ts runs its side).
export { CRAWL_JOB_TYPES, CRAWL_WORKER_COMMAND, crawlWorkerSpec } from "./crawl-process";
