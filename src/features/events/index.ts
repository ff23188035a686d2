// The events feature: webhooks, notifications and the dispatcher of the outbox (src/outbox/).
// Its registry entry and what other features may use of it.
import type { FeatureModule } from "../feature-module";
import { eventsRoutes } from "./routes";
import { eventsJobs } from "./jobs";
import { webhookAad } from "./service";

export const eventsFeature: FeatureModule = {
  name: "events",
  routes: eventsRoutes,
  jobs: eventsJobs,
  // Webhook signing secrets (the webhook id in the additional authenticated data).
  sealed: [{ table: "webhooks", column: "secret", idColumn: "id", aad: webhookAad, label: "webhook secret" }],
};

// The scraper's onModVersionChanged hook (wired in the registry).
export { recordModUpdated } from "./mod-updated";
