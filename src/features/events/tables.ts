import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { users } from "../users/tables";
import { lists } from "../lists/tables";

// ---------------------------------------------------------------------------------------------
// Webhooks, their delivery log, the notification inbox and preferences (docs/events.md).

export const webhooks = sqliteTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull().default(""),
    url: text("url").notNull(),
    type: text("type", { enum: ["chat", "custom"] }).notNull(),
    /** JSON array of event kinds; an empty array means every kind. */
    events: text("events").notNull().default("[]"),
    scope: text("scope", { enum: ["global", "list"] }).notNull(),
    list_id: text("list_id").references(() => lists.id, { onDelete: "cascade" }),
    /** `whsec_...` for custom webhooks (needed in clear to sign); null for chat webhooks. */
    secret: text("secret"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    consecutive_failures: integer("consecutive_failures").notNull().default(0),
    disabled_at: integer("disabled_at"),
    last_delivery_at: integer("last_delivery_at"),
    last_status: integer("last_status"),
    created_at: integer("created_at").notNull(),
    updated_at: integer("updated_at").notNull(),
  },
  (t) => [index("webhooks_user_idx").on(t.user_id), index("webhooks_list_idx").on(t.list_id)],
);

/** One row per delivery attempt (the log behind GET /settings/webhooks/:id/deliveries). */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    webhook_id: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    event_id: text("event_id").notNull(),
    event: text("event").notNull(),
    attempt: integer("attempt").notNull(),
    success: integer("success", { mode: "boolean" }).notNull(),
    response_status: integer("response_status"),
    error: text("error"),
    duration_ms: integer("duration_ms").notNull(),
    next_retry_at: integer("next_retry_at"),
    created_at: integer("created_at").notNull(),
  },
  (t) => [index("webhook_deliveries_webhook_idx").on(t.webhook_id, t.id)],
);

export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    /** The outbox event this came from: fan-out is idempotent per (user, event). */
    event_id: text("event_id"),
    title: text("title").notNull(),
    body: text("body").notNull(),
    list_id: text("list_id").references(() => lists.id, { onDelete: "set null" }),
    data: text("data").notNull().default("{}"),
    read: integer("read", { mode: "boolean" }).notNull().default(false),
    created_at: integer("created_at").notNull(),
  },
  (t) => [
    index("notifications_inbox_idx").on(t.user_id, t.id),
    // unread-count is an index-only count over this partial index
    index("notifications_unread_idx").on(t.user_id).where(sql`"read" = 0`),
    uniqueIndex("notifications_event_idx").on(t.user_id, t.event_id),
  ],
);

/** Only explicit choices are stored; a missing row means enabled. */
export const notificationPreferences = sqliteTable(
  "notification_preferences",
  {
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.event] })],
);
