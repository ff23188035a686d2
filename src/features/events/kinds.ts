// The event kinds (docs/events.md "Event kinds and who hears of them"). Webhook `events` filters
// and notification preferences are keyed by these names.
import { EVENT_KINDS, type EventKind } from "../../outbox/outbox";

export { EVENT_KINDS, type EventKind };

/** Sent only by POST /settings/webhooks/:id/test; never filtered out by `events`. */
export const TEST_EVENT = "test";
/** A system notice to a webhook's owner; not subject to preferences. */
export const WEBHOOK_DISABLED_EVENT = "webhook_disabled";

export const isEventKind = (k: string): k is EventKind => (EVENT_KINDS as readonly string[]).includes(k);

/** What a webhook or notification is told about one event, before formatting. */
export interface EventEnvelope {
  id: string;
  kind: string;
  /** epoch ms */
  created_at: number;
  list: { id: string; name: string } | null;
  actor: { id: string; display_name: string } | null;
  data: Record<string, unknown>;
}
