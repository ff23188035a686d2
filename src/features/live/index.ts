// The live feature's registry entry: routes, job handlers, schedules.
import type { FeatureModule } from "../feature-module";
import { liveRoutes } from "./routes";
import { liveJobs, liveSchedules } from "./jobs";

export const liveFeature: FeatureModule = { name: "live", routes: liveRoutes, jobs: liveJobs, schedules: liveSchedules };

// What other features may read of the live feature's in-memory state (the platform's /metrics).
export { peekLiveSnapshot, searchIndexBytes as liveSearchIndexBytes } from "./snapshot";
export { seriesCacheStats } from "./series-cache";
