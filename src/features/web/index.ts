// The web app's registry entry: GET /assets/* and every page path (registered last).
import type { FeatureModule } from "../feature-module";
import { webRoutes } from "./routes";
import { webAssets } from "./assets";

export const webFeature: FeatureModule = {
  name: "web",
  routes: webRoutes,
  // The web app's files are read at start, in the background (the compiled binary: ~80 embedded
  // blobs; from source: a build), so the first page does not wait for them.
  start: (deps) => void webAssets().catch((e) => deps.log.warn("web app files could not be loaded", { error: String(e) })),
};
