// The registry of features: each contributes routes, job handlers and schedules.
// Add one entry per feature (keep platform first). What an entry holds: feature-module.ts.
import type { FeatureModule } from "./feature-module";
import { jobsRoutes } from "./jobs/routes";
import { platformRoutes } from "./platform/routes";
import { authRoutes } from "./auth/routes";
import { usersRoutes } from "./users/routes";
import { listsRoutes } from "./lists/routes";
import { collaborationRoutes } from "./collaboration/routes";
import { serversFeature } from "./servers";
import { eventsFeature, recordModUpdated } from "./events";
import { tagsRoutes } from "./tags/routes";
import { foldersRoutes } from "./folders/routes";
import { communitiesRoutes } from "./communities/routes";
import { templatesRoutes } from "./templates/routes";
import { liveFeature } from "./live";
import { catalogFeature } from "./catalog";
import { scraperFeature } from "./scraper";
import { webRoutes } from "./web/routes";
import { backupFeature } from "./backup";

export const features: FeatureModule[] = [
  { name: "platform", routes: platformRoutes },
  { name: "jobs", routes: jobsRoutes },
  { name: "auth", routes: authRoutes },
  { name: "users", routes: usersRoutes },
  { name: "lists", routes: listsRoutes },
  { name: "collaboration", routes: collaborationRoutes },
  serversFeature,
  { name: "tags", routes: tagsRoutes },
  { name: "folders", routes: foldersRoutes },
  { name: "communities", routes: communitiesRoutes },
  { name: "templates", routes: templatesRoutes },
  eventsFeature,
  liveFeature,
  catalogFeature,
  // The scraper writes the catalog; a new version of a mod becomes `mod_updated` on every list holding it.
  scraperFeature({ onModVersionChanged: (tx, id, from, to) => void recordModUpdated(tx, id, from, to) }),
  backupFeature,
  // Last: its page wildcard answers only what no API, docs or metrics route does.
  { name: "web", routes: webRoutes },
];
