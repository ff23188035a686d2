// The catalog's registry entry (/mods endpoints, the mod metrics path) and what other features
// may use of it.
import type { FeatureModule } from "../feature-module";
import { catalogRoutes } from "./routes";

export const catalogFeature: FeatureModule = { name: "catalog", routes: catalogRoutes };

// What other features may read of the catalog's in-memory state (the platform's /metrics).
export { answerCacheCounts } from "./list";
export { peekCatalogOrders } from "./orders";
export { peekSearchIndex } from "./search-index";
