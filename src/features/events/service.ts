// Rules of the webhooks and notifications endpoints. Knows nothing of HTTP; throws AppError.
import type { Deps } from "../../deps";
import { decryptSecret, encryptSecret } from "../../shared/crypto";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { toIso, toIsoOrNull } from "../../shared/time";
import { assertUrlAllowed } from "../../shared/url-safety";
import { generateWebhookSecret } from "../../shared/webhook-signing";
import { EVENT_KINDS } from "./kinds";
import type { CreateWebhookInput, UpdateWebhookInput, WebhookView } from "./model";
import * as repo from "./repository";

const WEBHOOK_NOT_FOUND = "webhook not found";
const NOTIFICATION_NOT_FOUND = "notification not found";
/** Per-user cap, so one account cannot fan every event out to thousands of URLs. */
export const MAX_WEBHOOKS_PER_USER = 50;

function parseEvents(raw: string): string[] {
  try {
    const v = JSON.parse(raw);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

export function webhookToView(w: repo.WebhookRow): WebhookView {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    type: w.type,
    events: parseEvents(w.events),
    scope: w.scope,
    list_id: w.list_id,
    enabled: w.enabled,
    consecutive_failures: w.consecutive_failures,
    disabled_at: toIsoOrNull(w.disabled_at),
    last_delivery_at: toIsoOrNull(w.last_delivery_at),
    last_status: w.last_status,
    created_at: toIso(w.created_at),
    updated_at: toIso(w.updated_at),
  };
}

/** A list-scoped webhook needs a list the caller owns or co-owns. */
function requireOwnedList(deps: Deps, listId: string | null | undefined, userId: string): string {
  if (!listId) throw new AppError("request.invalid", "list_id: required when scope is list");
  const list = repo.listSummary(deps.db, listId);
  if (!list) throw new AppError("list.not_found", "list not found");
  if (!repo.isListOwner(deps.db, listId, userId)) throw new AppError("list.forbidden", "no permission");
  return listId;
}

const defaultName = (url: string) => {
  try {
    return new URL(url).host.slice(0, 100) || "webhook";
  } catch {
    return "webhook";
  }
};

export async function createWebhook(deps: Deps, userId: string, input: CreateWebhookInput) {
  await assertUrlAllowed(input.url, { allowPrivate: deps.config.LOADOUT_ALLOW_PRIVATE_URLS });
  const listId = input.scope === "list" ? requireOwnedList(deps, input.list_id, userId) : null;
  if (repo.webhooksOfUser(deps.db, userId).length >= MAX_WEBHOOKS_PER_USER) {
    throw new AppError("webhook.limit_reached", `maximum number of webhooks (${MAX_WEBHOOKS_PER_USER}) reached`);
  }
  const now = deps.clock.now();
  const secret = input.type === "custom" ? generateWebhookSecret() : null;
  const id = newId();
  const row = repo.insertWebhook(deps.db, {
    id,
    user_id: userId,
    name: input.name ?? defaultName(input.url),
    url: input.url,
    type: input.type,
    events: JSON.stringify(input.events ?? [...EVENT_KINDS]),
    scope: input.scope,
    list_id: listId,
    // Sealed at rest with the credential key (shown in clear once, in this answer).
    secret: secret ? sealWebhookSecret(deps, id, secret) : null,
    enabled: true,
    consecutive_failures: 0,
    created_at: now,
    updated_at: now,
  });
  return { ...webhookToView(row), ...(secret ? { secret } : {}) };
}

/** The additional authenticated data of a webhook's sealed secret (also its `sealed` declaration in index.ts). */
export const webhookAad = (id: string) => `webhook:${id}`;

/** Seals a signing secret with the credential key (AES-256-GCM, the webhook id as AAD). */
export function sealWebhookSecret(deps: Pick<Deps, "secrets">, webhookId: string, secret: string): string {
  return encryptSecret(secret, deps.secrets.credentialKey, webhookAad(webhookId));
}

/** The signing secret of a webhook, or null for chat webhooks. Throws CredentialCryptoError when the key cannot open it. */
export function openWebhookSecret(deps: Pick<Deps, "secrets">, wh: Pick<repo.WebhookRow, "id" | "secret">): string | null {
  if (!wh.secret) return null;
  return decryptSecret(wh.secret, deps.secrets.credentialKey, webhookAad(wh.id));
}

/** The caller's webhook; someone else's is 404 like a missing one (ids are not revealed). */
export function ownWebhook(deps: Deps, userId: string, id: string): repo.WebhookRow {
  const w = repo.webhookById(deps.db, id);
  if (!w || w.user_id !== userId) throw new AppError("webhook.not_found", WEBHOOK_NOT_FOUND);
  return w;
}

export async function updateWebhook(deps: Deps, userId: string, id: string, input: UpdateWebhookInput): Promise<WebhookView> {
  const current = ownWebhook(deps, userId, id);
  if (input.url !== undefined) await assertUrlAllowed(input.url, { allowPrivate: deps.config.LOADOUT_ALLOW_PRIVATE_URLS });
  const scope = input.scope ?? current.scope;
  let listId: string | null = null;
  if (scope === "list") {
    const wanted = input.list_id !== undefined && input.list_id !== null ? input.list_id : current.list_id;
    listId = requireOwnedList(deps, wanted, userId);
  }
  const now = deps.clock.now();
  const patch: Partial<repo.NewWebhook> = { scope, list_id: listId, updated_at: now };
  if (input.url !== undefined) patch.url = input.url;
  if (input.events !== undefined) patch.events = JSON.stringify(input.events);
  if (input.name !== undefined) patch.name = input.name;
  if (input.enabled === true && !current.enabled) Object.assign(patch, { enabled: true, disabled_at: null, consecutive_failures: 0 });
  if (input.enabled === false && current.enabled) Object.assign(patch, { enabled: false, disabled_at: now });
  const row = repo.updateWebhook(deps.db, id, patch);
  if (!row) throw new AppError("webhook.not_found", WEBHOOK_NOT_FOUND);
  return webhookToView(row);
}

export function deleteWebhook(deps: Deps, userId: string, id: string): void {
  ownWebhook(deps, userId, id);
  repo.deleteWebhook(deps.db, id);
}

export function listDeliveries(deps: Deps, userId: string, id: string) {
  ownWebhook(deps, userId, id);
  return repo.recentDeliveries(deps.db, id, 50).map((d) => ({
    id: d.id,
    event_id: d.event_id,
    event: d.event,
    attempt: d.attempt,
    success: d.success,
    response_status: d.response_status,
    error: d.error,
    duration_ms: d.duration_ms,
    next_retry_at: toIsoOrNull(d.next_retry_at),
    created_at: toIso(d.created_at),
  }));
}

// ---------------------------------------------------------------------------------------------
// Notifications

function parseObject(raw: string): Record<string, unknown> {
  try {
    const v = JSON.parse(raw);
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

export function inbox(deps: Deps, userId: string, opts: { unreadOnly: boolean; limit: number }) {
  return repo.inbox(deps.db, userId, opts).map((n) => ({
    id: n.id,
    event: n.event,
    title: n.title,
    body: n.body,
    list_id: n.list_id,
    data: parseObject(n.data),
    read: n.read,
    created_at: toIso(n.created_at),
  }));
}

export function markRead(deps: Deps, userId: string, id: string): void {
  if (!repo.markNotificationRead(deps.db, userId, id)) throw new AppError("notification.not_found", NOTIFICATION_NOT_FOUND);
}

export function markAllRead(deps: Deps, userId: string): number {
  return repo.markAllNotificationsRead(deps.db, userId);
}

/** Every event kind with its setting; default true. */
export function preferences(deps: Deps, userId: string): Record<string, boolean> {
  const stored = repo.preferencesOf(deps.db, userId);
  return Object.fromEntries(EVENT_KINDS.map((k) => [k, stored.get(k) ?? true]));
}

export function setPreferences(deps: Deps, userId: string, events: Record<string, boolean>): Record<string, boolean> {
  deps.db.transaction((tx) => repo.setPreferences(tx, userId, events), { behavior: "immediate" });
  return preferences(deps, userId);
}

export function listWebhooks(deps: Deps, userId: string): WebhookView[] {
  return repo.webhooksOfUser(deps.db, userId).map(webhookToView);
}
