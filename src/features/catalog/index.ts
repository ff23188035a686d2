// The catalog's registry entry (/mods endpoints) and what other features may use of it.
import type { FeatureModule } from "../feature-module";
import { catalogRoutes } from "./routes";

export const catalogFeature: FeatureModule = { name: "catalog", routes: catalogRoutes };

// One mod: 404 `mod_not_found` unless the catalog knows it, its row, its dependency counts
// (the live feature's usage answers, live/mod-usage.ts).
export { requireModExists, getDependencyCounts, getModLabels } from "./service";
export { liveStats, workshopIdParams } from "./model";

// What other features may read of the catalog's in-memory state (the platform's /metrics).
export { answerCacheCounts } from "./list";
export { answerStoreCounts } from "./answers";
export { peekCatalogOrders } from "./orders";
export { peekSearchIndex } from "./search-index";
export { peekDepGraph } from "./graph";
