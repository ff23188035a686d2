// The tags feature's registry entry.
import type { FeatureModule } from "../feature-module";
import { tagsRoutes } from "./routes";

export const tagsFeature: FeatureModule = { name: "tags", routes: tagsRoutes };
