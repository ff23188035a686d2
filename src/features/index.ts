// The registry of features: each contributes routes, job handlers, schedules, sealed columns and
// its own background work (start/stop).
// Add one entry per feature (keep platform first), imported from the feature's index.ts.
// What an entry holds: feature-module.ts.
import type { FeatureModule } from "./feature-module";
import type { SealedColumn } from "../db/sealed";
import { jobsFeature } from "./jobs";
import { platformFeature } from "./platform";
import { authFeature } from "./auth";
import { usersFeature } from "./users";
import { listsFeature } from "./lists";
import { collaborationFeature } from "./collaboration";
import { serversFeature } from "./servers";
import { eventsFeature, recordModUpdated } from "./events";
import { tagsFeature } from "./tags";
import { foldersFeature } from "./folders";
import { communitiesFeature } from "./communities";
import { templatesFeature } from "./templates";
import { enqueueScan, liveFeature } from "./live";
import { catalogFeature } from "./catalog";
import { scraperFeature } from "./scraper";
import { webFeature } from "./web";
import { backupFeature } from "./backup";

export const features: FeatureModule[] = [
  platformFeature,
  jobsFeature,
  authFeature,
  usersFeature,
  listsFeature,
  collaborationFeature,
  serversFeature,
  tagsFeature,
  foldersFeature,
  communitiesFeature,
  templatesFeature,
  eventsFeature,
  liveFeature,
  catalogFeature,
  // The scraper writes the catalog; a new version of a mod becomes `mod_updated` on every list
  // holding it; a new install's first crawl comes with a first live scan.
  scraperFeature({ onModVersionChanged: (tx, id, from, to) => void recordModUpdated(tx, id, from, to), onFirstRun: (deps) => enqueueScan(deps) }),
  backupFeature,
  // Last: its page wildcard answers only what no API, docs or metrics route does.
  webFeature,
];

// Who a credential is (the users feature's tables): what Deps.callers holds for the auth plugin.
export { callerSource } from "./users";

/** Every feature's sealed columns (src/db/sealed.ts): what rotate-key re-seals and restore opens. */
export const sealedColumns: readonly SealedColumn[] = features.flatMap((f) => f.sealed ?? []);
