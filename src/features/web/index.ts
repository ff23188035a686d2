// The web app's registry entry: GET /assets/* and every page path (registered last).
import type { FeatureModule } from "../feature-module";
import { webRoutes } from "./routes";

export const webFeature: FeatureModule = { name: "web", routes: webRoutes };
