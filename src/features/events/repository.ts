// The events feature's queries: outbox reads, webhooks, delivery log, notifications and
// preferences. Functions take a drizzle handle (the database or a transaction) so the
// dispatcher can do a whole fan-out in one transaction.
import { and, desc, eq, sql } from "drizzle-orm";
import type { Database, Statement } from "bun:sqlite";
import type { Tx } from "../../db/client";
import { statementSet } from "../../db/statements";
import { notificationPreferences, notifications, webhookDeliveries, webhooks } from "./tables";
import { eventOutbox } from "../../outbox/tables";
import { listItems, lists } from "../lists/tables";
import { mods } from "../catalog/tables";
import { listOwners } from "../collaboration/tables";
import { users } from "../users/tables";

export type WebhookRow = typeof webhooks.$inferSelect;
export type NewWebhook = typeof webhooks.$inferInsert;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;
export type OutboxRow = typeof eventOutbox.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Outbox

/** Forgets dispatched events older than `before` (epoch ms); the outbox is not an archive. */
export function pruneDispatched(db: Tx, before: number): number {
  return db
    .delete(eventOutbox)
    .where(sql`${eventOutbox.dispatched_at} IS NOT NULL AND ${eventOutbox.dispatched_at} < ${before}`)
    .returning({ id: eventOutbox.id })
    .all().length;
}

// ---------------------------------------------------------------------------------------------
// Lists and users as the events see them

export function listSummary(db: Tx, listId: string): { id: string; name: string; owner_id: string } | null {
  return db.select({ id: lists.id, name: lists.name, owner_id: lists.owner_id }).from(lists).where(eq(lists.id, listId)).get() ?? null;
}

/** Primary owner and co-owners of a list. */
export function listOwnerIds(db: Tx, listId: string): string[] {
  const primary = db.select({ id: lists.owner_id }).from(lists).where(eq(lists.id, listId)).get();
  if (!primary) return [];
  const co = db.select({ id: listOwners.user_id }).from(listOwners).where(eq(listOwners.list_id, listId)).all();
  return [...new Set([primary.id, ...co.map((r) => r.id)])];
}

export function isListOwner(db: Tx, listId: string, userId: string): boolean {
  return listOwnerIds(db, listId).includes(userId);
}

export function displayName(db: Tx, userId: string): string | null {
  return db.select({ n: users.display_name }).from(users).where(eq(users.id, userId)).get()?.n ?? null;
}

// ---------------------------------------------------------------------------------------------
// A mod's new version (mod-updated.ts)

/** The catalog's name of a mod, if the catalog has the mod. */
export function modName(db: Tx, workshopId: string): { name: string } | undefined {
  return db.select({ name: mods.name }).from(mods).where(eq(mods.workshop_id, workshopId)).get();
}

/** Every list item holding the mod: its list, the name the list keeps and its pinned version. */
export function listItemsOfMod(db: Tx, workshopId: string) {
  return db
    .select({ list_id: listItems.list_id, name: listItems.name, pinned_version: listItems.pinned_version })
    .from(listItems)
    .where(eq(listItems.workshop_id, workshopId))
    .all();
}

// ---------------------------------------------------------------------------------------------
// Webhooks

export function insertWebhook(db: Tx, row: NewWebhook): WebhookRow {
  return db.insert(webhooks).values(row).returning().get();
}

export function webhooksOfUser(db: Tx, userId: string): WebhookRow[] {
  return db.select().from(webhooks).where(eq(webhooks.user_id, userId)).orderBy(webhooks.created_at, webhooks.id).all();
}

export function webhookById(db: Tx, id: string): WebhookRow | null {
  return db.select().from(webhooks).where(eq(webhooks.id, id)).get() ?? null;
}

export function updateWebhook(db: Tx, id: string, patch: Partial<NewWebhook>): WebhookRow | null {
  return db.update(webhooks).set(patch).where(eq(webhooks.id, id)).returning().get() ?? null;
}

export function deleteWebhook(db: Tx, id: string): boolean {
  return db.delete(webhooks).where(eq(webhooks.id, id)).returning({ id: webhooks.id }).all().length > 0;
}

/** Counts a failed attempt; returns the new consecutive failure count. */
export function recordWebhookFailure(db: Tx, id: string, at: number, status: number | null): number {
  const r = db
    .update(webhooks)
    .set({ consecutive_failures: sql`${webhooks.consecutive_failures} + 1`, last_delivery_at: at, last_status: status })
    .where(eq(webhooks.id, id))
    .returning({ n: webhooks.consecutive_failures })
    .get();
  return r?.n ?? 0;
}

export function recordWebhookSuccess(db: Tx, id: string, at: number, status: number): void {
  db.update(webhooks).set({ consecutive_failures: 0, last_delivery_at: at, last_status: status }).where(eq(webhooks.id, id)).run();
}

/** Disables a webhook; false when it was already disabled (so the owner is told once). */
export function disableWebhook(db: Tx, id: string, at: number): boolean {
  return (
    db
      .update(webhooks)
      .set({ enabled: false, disabled_at: at, updated_at: at })
      .where(and(eq(webhooks.id, id), eq(webhooks.enabled, true)))
      .returning({ id: webhooks.id })
      .all().length > 0
  );
}

// ---------------------------------------------------------------------------------------------
// Delivery log

/** How many attempts are kept per webhook (the endpoint shows the last 50). */
const DELIVERY_LOG_KEEP = 200;

export function insertDelivery(db: Tx, row: typeof webhookDeliveries.$inferInsert): void {
  db.insert(webhookDeliveries).values(row).run();
  // Keep the log bounded: drop everything older than the newest DELIVERY_LOG_KEEP rows.
  db.run(sql`DELETE FROM webhook_deliveries WHERE webhook_id = ${row.webhook_id} AND id < (
    SELECT id FROM webhook_deliveries WHERE webhook_id = ${row.webhook_id} ORDER BY id DESC LIMIT 1 OFFSET ${DELIVERY_LOG_KEEP - 1})`);
}

export function recentDeliveries(db: Tx, webhookId: string, limit: number): DeliveryRow[] {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhook_id, webhookId))
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit)
    .all();
}

// ---------------------------------------------------------------------------------------------
// Notifications

/** Inserts unless this user already has a notification for this event (idempotent fan-out). */
export function insertNotification(db: Tx, row: typeof notifications.$inferInsert): boolean {
  const r = db.insert(notifications).values(row).onConflictDoNothing().returning({ id: notifications.id }).all();
  return r.length > 0;
}

export function inbox(db: Tx, userId: string, opts: { unreadOnly: boolean; limit: number }): NotificationRow[] {
  const where = opts.unreadOnly
    ? and(eq(notifications.user_id, userId), eq(notifications.read, false))
    : eq(notifications.user_id, userId);
  return db.select().from(notifications).where(where).orderBy(desc(notifications.id)).limit(opts.limit).all();
}

export function markNotificationRead(db: Tx, userId: string, id: string): boolean {
  return (
    db
      .update(notifications)
      .set({ read: true })
      .where(and(eq(notifications.id, id), eq(notifications.user_id, userId)))
      .returning({ id: notifications.id })
      .all().length > 0
  );
}

export function markAllNotificationsRead(db: Tx, userId: string): number {
  return db
    .update(notifications)
    .set({ read: true })
    .where(and(eq(notifications.user_id, userId), eq(notifications.read, false)))
    .returning({ id: notifications.id })
    .all().length;
}

// ---------------------------------------------------------------------------------------------
// Preferences

/** Explicit choices only (absent = enabled). */
export function preferencesOf(db: Tx, userId: string): Map<string, boolean> {
  const rows = db
    .select({ event: notificationPreferences.event, enabled: notificationPreferences.enabled })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.user_id, userId))
    .all();
  return new Map(rows.map((r) => [r.event, r.enabled]));
}

export function setPreferences(db: Tx, userId: string, prefs: Record<string, boolean>): void {
  for (const [event, enabled] of Object.entries(prefs)) {
    db.insert(notificationPreferences)
      .values({ user_id: userId, event, enabled })
      .onConflictDoUpdate({
        target: [notificationPreferences.user_id, notificationPreferences.event],
        set: { enabled },
      })
      .run();
  }
}

// ---------------------------------------------------------------------------------------------
// Hot path: unread count, polled by every open client. An index-only count over the partial
// index notifications_unread_idx, prepared once per connection.


const unreadStmt = statementSet((sqlite) => sqlite.prepare(`SELECT COUNT(*) AS n FROM notifications WHERE user_id = ? AND "read" = 0`));

export function unreadCount(sqlite: Database, userId: string): number {
  return (unreadStmt(sqlite).get(userId) as { n: number }).n;
}

// ---------------------------------------------------------------------------------------------
// Dispatcher hot path: every write to a list fans out one event, so at a busy moment the
// dispatcher runs hundreds of times a second. drizzle builds each query's SQL anew on every
// call (costs in docs/performance.md "Writes under load"); these are the same queries, prepared
// once per connection. They run on the raw handle, inside the caller's drizzle transaction
// (bun:sqlite transactions are per connection).

export interface DispatchStatements {
  /** One probe of the pending index (every worker tick). */
  hasPending(): boolean;
  pending(limit: number): OutboxRow[];
  markDispatched(id: string, at: number): boolean;
  listSummary(listId: string): { id: string; name: string; owner_id: string } | null;
  displayName(userId: string): string | null;
  /** Primary owner and co-owners of a list that exist as users (primary first). */
  ownerIds(listId: string): string[];
  userExists(userId: string): boolean;
  silenced(userId: string, event: string): boolean;
  insertNotification(row: {
    id: string;
    user_id: string;
    event: string;
    event_id: string;
    title: string;
    body: string;
    list_id: string | null;
    data: string;
    created_at: number;
  }): boolean;
  /** Enabled webhooks seeing this list's events (the rule of webhooksForList): id and event filter. */
  webhooksForList(listId: string): { id: string; events: string }[];
  /** Enabled global webhooks of a user: where events of their servers go (no list to route by). */
  globalWebhooksOf(userId: string): { id: string; events: string }[];
}

/** The dispatcher's statements on this connection (prepared once, held by the connection: db/statements.ts statementSet). */
export const dispatchStatements: (sqlite: Database) => DispatchStatements = statementSet(prepareDispatch);

function prepareDispatch(sqlite: Database): DispatchStatements {
  const q = <T>(sql: string) => sqlite.prepare(sql) as Statement<T, any[]>;
  const any = q<{ x: number }>(`SELECT 1 AS x FROM event_outbox WHERE dispatched_at IS NULL LIMIT 1`);
  const pending = q<OutboxRow>(
    `SELECT id, kind, list_id, actor_id, data, created_at, dispatched_at FROM event_outbox
     WHERE dispatched_at IS NULL ORDER BY created_at, id LIMIT ?`,
  );
  const mark = q<{ id: string }>(`UPDATE event_outbox SET dispatched_at = ? WHERE id = ? AND dispatched_at IS NULL RETURNING id`);
  const list = q<{ id: string; name: string; owner_id: string }>(`SELECT id, name, owner_id FROM lists WHERE id = ?`);
  const name = q<{ n: string }>(`SELECT display_name AS n FROM users WHERE id = ?`);
  const owners = q<{ id: string }>(
    `SELECT u.id FROM lists l JOIN users u ON u.id = l.owner_id WHERE l.id = $list
     UNION ALL
     SELECT u.id FROM list_owners o JOIN users u ON u.id = o.user_id
     WHERE o.list_id = $list AND o.user_id != (SELECT owner_id FROM lists WHERE id = $list)`,
  );
  const exists = q<{ id: string }>(`SELECT id FROM users WHERE id = ?`);
  const silenced = q<{ x: number }>(`SELECT 1 AS x FROM notification_preferences WHERE user_id = ? AND event = ? AND enabled = 0`);
  const notify = q<{ id: string }>(
    `INSERT INTO notifications (id, user_id, event, event_id, title, body, list_id, data, "read", created_at)
     VALUES ($id, $user_id, $event, $event_id, $title, $body, $list_id, $data, 0, $created_at)
     ON CONFLICT DO NOTHING RETURNING id`,
  );
  const hooks = q<{ id: string; events: string }>(
    `SELECT w.id, w.events FROM webhooks w
     WHERE w.enabled = 1 AND (w.scope = 'global' OR w.list_id = $list)
       AND (w.user_id = (SELECT owner_id FROM lists WHERE id = $list)
            OR EXISTS (SELECT 1 FROM list_owners o WHERE o.list_id = $list AND o.user_id = w.user_id))`,
  );
  const globalHooks = q<{ id: string; events: string }>(`SELECT w.id, w.events FROM webhooks w WHERE w.enabled = 1 AND w.scope = 'global' AND w.user_id = ?`);
  return {
    hasPending: () => any.get() !== null,
    pending: (limit) => pending.all(limit),
    markDispatched: (id, at) => mark.all(at, id).length > 0,
    listSummary: (listId) => list.get(listId) ?? null,
    displayName: (userId) => name.get(userId)?.n ?? null,
    ownerIds: (listId) => [...new Set(owners.all({ list: listId }).map((r) => r.id))],
    userExists: (userId) => exists.get(userId) !== null,
    silenced: (userId, event) => silenced.get(userId, event) !== null,
    insertNotification: (r) =>
      notify.all({
        id: r.id, user_id: r.user_id, event: r.event, event_id: r.event_id, title: r.title, body: r.body,
        list_id: r.list_id, data: r.data, created_at: r.created_at,
      }).length > 0,
    webhooksForList: (listId) => hooks.all({ list: listId }),
    globalWebhooksOf: (userId) => globalHooks.all(userId),
  };
}
