// Webhook delivery: one HTTP attempt per job run, from the job table. At least once; 10 s
// timeout; retries after about 30 s, 2 min, 10 min, 30 min, 2 h (6 attempts in all), or after
// the receiver's Retry-After when it sends one; 20 failed attempts in a row disable the
// webhook and tell its owner. Every attempt is written to the delivery log.
import type { Deps } from "../../deps";
import { openWebhookSecret } from "./service";
import { parseRetryAfter } from "../../shared/retry";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { safeFetch } from "../../shared/url-safety";
import { webhookSignatureHeaders } from "../../shared/webhook-signing";
import type { Job, JobHandler } from "../../jobs/queue";
import { PermanentJobError, RetryLaterError } from "../../jobs/queue";
import { DELIVERY_MAX_ATTEMPTS, type DeliveryPayload } from "./dispatch";
import { WEBHOOK_DISABLED_EVENT, type EventEnvelope } from "./kinds";
import { customWebhookBody, describeEvent, discordPayload } from "./render";
import * as repo from "./repository";
import type { Tx } from "../../db/client";

export const DELIVERY_TIMEOUT_MS = 10_000;
/** Delay before retry n (1-based): about 30 s, 2 min, 10 min, 30 min, 2 h. */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, 7_200_000];
export const AUTO_DISABLE_AFTER = 20;
/** A Retry-After is honoured within these bounds (a receiver cannot park a job for a week). */
const RETRY_AFTER_MIN_MS = 1_000;
const RETRY_AFTER_MAX_MS = 6 * 3_600_000;
const USER_AGENT = "Loadout-Webhooks/1";

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  duration_ms: number;
  /** From Retry-After (header, or Discord's JSON retry_after), when the receiver sent one. */
  retry_after_ms: number | null;
}

function renderRequest(wh: repo.WebhookRow, event: EventEnvelope, deps: Deps): { body: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": USER_AGENT };
  if (wh.type === "chat") {
    return { body: JSON.stringify(discordPayload(event, { baseUrl: deps.config.LOADOUT_BASE_URL })), headers };
  }
  const body = customWebhookBody(event);
  const secret = openWebhookSecret(deps, wh);
  if (secret) {
    Object.assign(headers, webhookSignatureHeaders({ id: event.id, timestamp: Math.floor(deps.clock.now() / 1000), body, secret }));
  }
  return { body, headers };
}

/** One HTTP attempt; never throws. */
export async function attemptDelivery(deps: Deps, wh: repo.WebhookRow, event: EventEnvelope, signal?: AbortSignal): Promise<AttemptResult> {
  let rendered: { body: string; headers: Record<string, string> };
  try {
    rendered = renderRequest(wh, event, deps);
  } catch (e) {
    // The signing secret cannot be opened with the configured key (the key was replaced
    // without `loadout rotate-key`): nothing is sent unsigned.
    return { ok: false, status: null, error: `cannot sign: ${e instanceof Error ? e.message : String(e)}`, duration_ms: 0, retry_after_ms: null };
  }
  const { body, headers } = rendered;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await safeFetch(
      wh.url,
      { method: "POST", headers, body, signal },
      { allowPrivate: deps.config.LOADOUT_ALLOW_PRIVATE_URLS, timeoutMs: DELIVERY_TIMEOUT_MS, fetchImpl: deps.fetch },
    );
    const ok = res.status >= 200 && res.status < 300;
    let retryAfter = parseRetryAfter(res.headers.get("retry-after"), deps.clock.now());
    let text = "";
    try {
      text = await res.text();
    } catch {
      text = "";
    }
    if (!ok && retryAfter === null && res.status === 429) {
      try {
        const j = JSON.parse(text) as { retry_after?: unknown };
        if (typeof j.retry_after === "number") retryAfter = Math.round(j.retry_after * 1000);
      } catch {
        // not JSON: no hint
      }
    }
    let error: string | null = null;
    if (!ok) {
      error = res.status >= 300 && res.status < 400 ? `HTTP ${res.status} (redirects are not followed)` : `HTTP ${res.status}`;
    }
    return { ok, status: res.status, error, duration_ms: elapsed(), retry_after_ms: ok ? null : retryAfter };
  } catch (err) {
    let error: string;
    if (err instanceof AppError) error = err.message; // url not allowed
    else if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) error = `timeout after ${DELIVERY_TIMEOUT_MS / 1000} s`;
    else error = err instanceof Error ? err.message || err.name : String(err);
    return { ok: false, status: null, error, duration_ms: elapsed(), retry_after_ms: null };
  }
}

export function retryDelayMs(attempt: number, retryAfterMs: number | null): number {
  if (retryAfterMs !== null) return Math.min(RETRY_AFTER_MAX_MS, Math.max(RETRY_AFTER_MIN_MS, retryAfterMs));
  return RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1]!;
}

/** One row of the delivery log (GET /settings/webhooks/:id/deliveries). */
function logAttempt(tx: Tx, wh: repo.WebhookRow, event: EventEnvelope, attempt: number, r: AttemptResult, nextRetryAt: number | null, now: number) {
  repo.insertDelivery(tx, {
    id: newId(),
    webhook_id: wh.id,
    event_id: event.id,
    event: event.kind,
    attempt,
    success: r.ok,
    response_status: r.status,
    error: r.ok ? null : r.error,
    duration_ms: r.duration_ms,
    next_retry_at: nextRetryAt,
    created_at: now,
  });
}

/** Records a failed attempt; disables the webhook and notifies its owner at the threshold. Returns true when disabled now. */
function recordFailure(deps: Deps, wh: repo.WebhookRow, event: EventEnvelope, attempt: number, r: AttemptResult, nextRetryAt: number | null): boolean {
  return deps.db.transaction(
    (tx) => {
      const now = deps.clock.now();
      logAttempt(tx, wh, event, attempt, r, nextRetryAt, now);
      const failures = repo.recordWebhookFailure(tx, wh.id, now, r.status);
      if (failures < AUTO_DISABLE_AFTER || !repo.disableWebhook(tx, wh.id, now)) return false;
      const data = { webhook_id: wh.id, url: wh.url, consecutive_failures: failures, last_error: r.error };
      const text = describeEvent({ id: wh.id, kind: WEBHOOK_DISABLED_EVENT, created_at: now, list: null, actor: null, data });
      repo.insertNotification(tx, {
        id: newId(),
        user_id: wh.user_id,
        event: WEBHOOK_DISABLED_EVENT,
        event_id: `webhook_disabled:${wh.id}:${now}`,
        title: text.title,
        body: text.body,
        list_id: wh.list_id,
        data: JSON.stringify(data),
        read: false,
        created_at: now,
      });
      return true;
    },
    { behavior: "immediate" },
  );
}

function recordSuccess(deps: Deps, wh: repo.WebhookRow, event: EventEnvelope, attempt: number, r: AttemptResult): void {
  deps.db.transaction(
    (tx) => {
      const now = deps.clock.now();
      logAttempt(tx, wh, event, attempt, r, null, now);
      repo.recordWebhookSuccess(tx, wh.id, now, r.status ?? 0);
    },
    { behavior: "immediate" },
  );
}

export function deliveryHandler(deps: Deps): JobHandler<DeliveryPayload> {
  return {
    maxAttempts: DELIVERY_MAX_ATTEMPTS,
    concurrency: 4,
    // The handler computes its own delay (schedule or Retry-After) and throws RetryLaterError.
    retryDelayMs: (attempt) => retryDelayMs(attempt, null),
    run: async (job: Job<DeliveryPayload>, ctx) => {
      const { webhook_id, event } = job.payload;
      const wh = repo.webhookById(deps.db, webhook_id);
      if (!wh) return { skipped: "webhook deleted" };
      if (!wh.enabled) return { skipped: "webhook disabled" };
      const attempt = job.attempts;
      const r = await attemptDelivery(deps, wh, event, ctx.signal);
      if (r.ok) {
        recordSuccess(deps, wh, event, attempt, r);
        return { status: r.status, attempt };
      }
      const last = attempt >= job.max_attempts;
      const delay = retryDelayMs(attempt, r.retry_after_ms);
      const disabled = recordFailure(deps, wh, event, attempt, r, last ? null : deps.clock.now() + delay);
      if (disabled) throw new PermanentJobError(`${r.error}; webhook disabled after ${AUTO_DISABLE_AFTER} consecutive failures`);
      if (last) throw new PermanentJobError(`${r.error}; giving up after ${attempt} attempts`);
      throw new RetryLaterError(r.error ?? "delivery failed", delay);
    },
  };
}

/** POST /settings/webhooks/:id/test: sends a `test` event now and reports what the receiver said. */
export async function sendTestEvent(deps: Deps, wh: repo.WebhookRow, actor: { id: string; display_name: string }) {
  const list = wh.list_id ? repo.listSummary(deps.db, wh.list_id) : null;
  const event: EventEnvelope = {
    id: newId(),
    kind: "test",
    created_at: deps.clock.now(),
    list: list ? { id: list.id, name: list.name } : null,
    actor,
    data: { webhook_id: wh.id, message: "Test delivery from Loadout" },
  };
  const r = await attemptDelivery(deps, wh, event);
  // Logged like any attempt, but a test never counts towards auto-disable.
  repo.insertDelivery(deps.db, {
    id: newId(),
    webhook_id: wh.id,
    event_id: event.id,
    event: "test",
    attempt: 1,
    success: r.ok,
    response_status: r.status,
    error: r.error,
    duration_ms: r.duration_ms,
    next_retry_at: null,
    created_at: deps.clock.now(),
  });
  return { ok: r.ok, status: r.status, error: r.error, duration_ms: r.duration_ms };
}
