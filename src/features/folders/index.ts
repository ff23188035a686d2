// The folders feature's registry entry.
import type { FeatureModule } from "../feature-module";
import { foldersRoutes } from "./routes";

export const foldersFeature: FeatureModule = { name: "folders", routes: foldersRoutes };
