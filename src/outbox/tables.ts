// The transactional outbox's table (src/outbox/outbox.ts writes it, the events feature's
// dispatcher reads and marks it). It names a list but holds no foreign key.
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

/**
 * Transactional outbox: a mutation writes its event here in the same transaction as the
 * change, so an event is never lost and never sent for a change that rolled back.
 * The dispatcher job marks rows dispatched after fanning them out.
 */
export const eventOutbox = sqliteTable(
  "event_outbox",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    list_id: text("list_id"),
    actor_id: text("actor_id"),
    data: text("data").notNull().default("{}"),
    created_at: integer("created_at").notNull(),
    dispatched_at: integer("dispatched_at"),
  },
  (t) => [index("event_outbox_pending_idx").on(t.dispatched_at, t.created_at)],
);
