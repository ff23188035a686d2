// The communities feature's registry entry.
import type { FeatureModule } from "../feature-module";
import { communitiesRoutes } from "./routes";

export const communitiesFeature: FeatureModule = { name: "communities", routes: communitiesRoutes };
