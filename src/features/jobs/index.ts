// The admin job endpoints' registry entry (the queue itself is platform: src/jobs/).
import type { FeatureModule } from "../feature-module";
import { jobsRoutes } from "./routes";

export const jobsFeature: FeatureModule = { name: "jobs", routes: jobsRoutes };
