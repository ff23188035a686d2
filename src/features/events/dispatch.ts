// The dispatcher: reads undispatched outbox rows and fans each one out, in ONE transaction per
// event, to (1) notifications for the list's owners and co-owners (and, for
// deploy_request_decided, the requester), minus users whose preferences silence that kind, and
// (2) one delivery job per matching webhook. The outbox row is marked dispatched in the same
// transaction, so a crash either leaves the event for the next run or has done all of it:
// nothing is lost and nothing is fanned out twice. Events of rolled-back changes never reach
// the outbox at all (recordEvent writes in the change's own transaction).
import type { Deps } from "../../deps";
import type { Tx } from "../../db/client";
import { newId } from "../../shared/ids";
import type { EventEnvelope } from "./kinds";
import { describeEvent } from "./render";
import * as repo from "./repository";

export const DISPATCH_JOB = "events.dispatch";
export const DELIVERY_JOB = "events.webhook_delivery";
export const DELIVERY_MAX_ATTEMPTS = 6;
/** Dispatched outbox rows are kept this long (debugging), then deleted. */
export const OUTBOX_RETENTION_MS = 7 * 24 * 3_600_000;

export interface DeliveryPayload {
  webhook_id: string;
  event: EventEnvelope;
}

/** data keys naming the user who asked for a deploy (deploy_request_decided notifies them too). */
const REQUESTER_KEYS = ["requester_id", "requested_by", "requester_user_id"];

function parseData(raw: string): Record<string, unknown> {
  try {
    const v = JSON.parse(raw);
    return v && typeof v === "object" && !Array.isArray(v) ? v : { value: v };
  } catch {
    return {};
  }
}

export function buildEnvelope(db: Tx, row: repo.OutboxRow): EventEnvelope {
  const data = parseData(row.data);
  const list = row.list_id ? repo.listSummary(db, row.list_id) : null;
  const actorName = row.actor_id ? repo.displayName(db, row.actor_id) : null;
  return {
    id: row.id,
    kind: row.kind,
    created_at: row.created_at,
    list: list
      ? { id: list.id, name: list.name }
      : row.list_id && typeof data.list_name === "string"
        ? { id: row.list_id, name: data.list_name }
        : null,
    actor: row.actor_id && actorName !== null ? { id: row.actor_id, display_name: actorName } : null,
    data,
  };
}

export interface DispatchOutcome {
  notified: number;
  webhooks: number;
}

/** Fans out one outbox row; null when another dispatcher already did. */
export function dispatchEvent(deps: Deps, row: repo.OutboxRow): DispatchOutcome | null {
  return deps.db.transaction(
    (tx) => {
      const now = deps.clock.now();
      if (!repo.markDispatched(tx, row.id, now)) return null;
      const envelope = buildEnvelope(tx, row);
      const outcome: DispatchOutcome = { notified: 0, webhooks: 0 };
      if (!row.list_id) return outcome; // every kind of decisions.md names a list; nothing to route by

      // Notifications
      const recipients = new Set(repo.listOwnerIds(tx, row.list_id));
      if (row.kind === "deploy_request_decided") {
        for (const k of REQUESTER_KEYS) {
          const v = envelope.data[k];
          if (typeof v === "string" && v) recipients.add(v);
        }
      }
      const candidates = repo.existingUserIds(tx, [...recipients]);
      const silenced = repo.usersSilencing(tx, candidates, row.kind);
      const text = describeEvent(envelope);
      for (const userId of candidates) {
        if (silenced.has(userId)) continue;
        const inserted = repo.insertNotification(tx, {
          id: newId(),
          user_id: userId,
          event: row.kind,
          event_id: row.id,
          title: text.title,
          body: text.body,
          list_id: envelope.list ? envelope.list.id : null,
          data: JSON.stringify(envelope.data),
          read: false,
          created_at: now,
        });
        if (inserted) outcome.notified++;
      }

      // Webhooks
      for (const wh of repo.webhooksForList(tx, row.list_id)) {
        if (!webhookWants(wh, row.kind)) continue;
        const payload: DeliveryPayload = { webhook_id: wh.id, event: envelope };
        deps.jobs.enqueue(DELIVERY_JOB, payload, { db: tx, maxAttempts: DELIVERY_MAX_ATTEMPTS });
        outcome.webhooks++;
      }
      return outcome;
    },
    { behavior: "immediate" },
  );
}

export function webhookWants(wh: repo.WebhookRow, kind: string): boolean {
  try {
    const events = JSON.parse(wh.events) as unknown;
    return Array.isArray(events) && events.includes(kind);
  } catch {
    return false;
  }
}

/**
 * Dispatches every pending event, oldest first. An event whose fan-out throws (a bug) is
 * logged and left in the outbox for the next run; the others still go out.
 */
export function dispatchPending(deps: Deps, batchSize = 100): { dispatched: number; failed: number; pruned: number } {
  const failed = new Set<string>();
  let dispatched = 0;
  for (;;) {
    const batch = repo.pendingEvents(deps.db, batchSize + failed.size).filter((r) => !failed.has(r.id));
    if (batch.length === 0) break;
    for (const row of batch) {
      try {
        if (dispatchEvent(deps, row)) dispatched++;
      } catch (error) {
        failed.add(row.id);
        deps.log.error("event dispatch failed", { event_id: row.id, kind: row.kind, error });
      }
    }
  }
  const pruned = repo.pruneDispatched(deps.db, deps.clock.now() - OUTBOX_RETENTION_MS);
  return { dispatched, failed: failed.size, pruned };
}
