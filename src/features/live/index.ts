// The live feature's registry entry: routes (the live servers and statistics, and what they make
// of a catalog mod: mod-usage-routes.ts), job handlers, schedules.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import type { FeatureModule } from "../feature-module";
import { liveRoutes } from "./routes";
import { modUsageRoutes } from "./mod-usage-routes";
import { liveJobs, liveSchedules } from "./jobs";
import { startDetailWarmer } from "./detail";

export const liveFeature: FeatureModule = {
  name: "live",
  routes: (deps: Deps) => new Elysia().use(liveRoutes(deps)).use(modUsageRoutes(deps)),
  jobs: liveJobs,
  schedules: liveSchedules,
  // While idle, online servers' details are prepared ahead (their mod lists, their mods' parts).
  start: (deps) => ({ stop: startDetailWarmer(deps.sqlite, (e) => deps.log.warn("server detail warming stopped", { error: String(e) })) }),
};

// A live scan queued now (a new install's first run, beside its first crawl).
export { enqueueScan } from "./jobs";

// What other features may read of the live feature's in-memory state (the platform's /metrics).
export { peekLiveSnapshot, searchIndexBytes as liveSearchIndexBytes } from "./snapshot";
export { seriesCacheStats } from "./series-cache";
export { detailCacheStats as liveDetailCacheStats } from "./detail";
