// The live feature's registry entry: routes (the live servers and statistics, and what they make
// of a catalog mod: mod-usage-routes.ts), job handlers, schedules.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import type { FeatureModule } from "../feature-module";
import { liveRoutes } from "./routes";
import { modUsageRoutes } from "./mod-usage-routes";
import { liveJobs, liveSchedules } from "./jobs";

export const liveFeature: FeatureModule = {
  name: "live",
  routes: (deps: Deps) => new Elysia().use(liveRoutes(deps)).use(modUsageRoutes(deps)),
  jobs: liveJobs,
  schedules: liveSchedules,
};

// What other features may read of the live feature's in-memory state (the platform's /metrics).
export { peekLiveSnapshot, searchIndexBytes as liveSearchIndexBytes } from "./snapshot";
export { seriesCacheStats } from "./series-cache";
export { detailCacheStats as liveDetailCacheStats } from "./detail";
// What the server starts beside the app: the idle-time warming of server details.
export { startDetailWarmer } from "./detail";
