// The catalog's registry entry: /mods endpoints, the mod metrics path, the scraper triggers,
// the scraper and growth job handlers and their schedules.
import { Elysia } from "elysia";
import type { FeatureModule } from "../feature-module";
import type { Deps } from "../../deps";
import { catalogRoutes } from "./routes";
import { itemsTriggerRoutes, scraperRoutes } from "../scraper/routes";
import { scraperJobs, scraperSchedules } from "../scraper/jobs";

export const catalogFeature: FeatureModule = {
  name: "catalog",
  routes: (deps: Deps) => new Elysia().use(catalogRoutes(deps)).use(scraperRoutes(deps)).use(itemsTriggerRoutes(deps)),
  jobs: scraperJobs,
  schedules: scraperSchedules,
};

// What other features may read of the catalog's in-memory state (the platform's /metrics).
export { answerCacheCounts } from "./list";
export { answerStoreCounts } from "./answers";
export { peekCatalogOrders } from "./orders";
export { peekSearchIndex } from "./search-index";
