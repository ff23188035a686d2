// The platform's registry entry: /api/v1/health and /metrics.
import type { FeatureModule } from "../feature-module";
import { platformRoutes } from "./routes";
import { startIdleCollector } from "../../shared/idle-gc";

export const platformFeature: FeatureModule = {
  name: "platform",
  routes: platformRoutes,
  // After a load, once idle, one full collection gives the load's garbage back (src/shared/idle-gc.ts).
  start: (deps) => ({
    stop: startIdleCollector((ms, step) => deps.log.debug(step === "collect" ? "idle garbage collection" : "idle footprint shrink", { ms: Math.round(ms) })),
  }),
};
