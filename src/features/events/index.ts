// The events feature: webhooks, notifications and the dispatcher of the outbox (src/outbox/).
// Its registry entry and what other features may use of it.
import type { FeatureModule } from "../feature-module";
import { eventsRoutes } from "./routes";
import { eventsJobs } from "./jobs";

export const eventsFeature: FeatureModule = { name: "events", routes: eventsRoutes, jobs: eventsJobs };

// The scraper's onModVersionChanged hook (wired in the registry).
export { recordModUpdated } from "./mod-updated";
// Key rotation (servers) re-seals webhook secrets in its transaction.
export { reencryptWebhookSecrets } from "./service";
