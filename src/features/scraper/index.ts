// The scraper: crawls the Workshop into the catalog's tables, reads items from mod files.
// Its registry entry (the scraper triggers, the scrape and growth jobs and their schedules) and
// what other features may use of it.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import type { FeatureModule } from "../feature-module";
import type { ScraperHooks } from "./hooks";
import { itemsTriggerRoutes, scraperRoutes } from "./routes";
import { scraperJobs, scraperSchedules } from "./jobs";

export type { ScraperHooks };

export const scraperFeature = (hooks: ScraperHooks): FeatureModule => ({
  name: "scraper",
  routes: (deps: Deps) => new Elysia().use(scraperRoutes(deps)).use(itemsTriggerRoutes(deps)),
  jobs: (deps: Deps) => scraperJobs(deps, hooks),
  schedules: scraperSchedules,
});

// What a crawl under way has done so far (the platform's /metrics).
export { crawlProgress, type CrawlProgress } from "./jobs";
