// The platform's registry entry: /api/v1/health and /metrics.
import type { FeatureModule } from "../feature-module";
import { platformRoutes } from "./routes";

export const platformFeature: FeatureModule = { name: "platform", routes: platformRoutes };
