// The templates feature's registry entry.
import type { FeatureModule } from "../feature-module";
import { templatesRoutes } from "./routes";

export const templatesFeature: FeatureModule = { name: "templates", routes: templatesRoutes };
