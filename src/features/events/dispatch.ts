// The dispatcher: reads undispatched outbox rows and fans each one out, each event in a
// transaction of its own (a savepoint of its batch's transaction), to (1) notifications for the
// list's owners and co-owners (and, for deploy_request_decided, the requester), minus users whose
// preferences silence that kind, and (2) one delivery job per matching webhook. The outbox row is
// marked dispatched in the same transaction, so a crash either leaves the event for the next run or has done all of it:
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

/** What a webhook or notification is told about one outbox row. */
export function buildEnvelope(st: repo.DispatchStatements, row: repo.OutboxRow): EventEnvelope {
  const data = parseData(row.data);
  const list = row.list_id ? st.listSummary(row.list_id) : null;
  const actorName = row.actor_id ? st.displayName(row.actor_id) : null;
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

/**
 * Fans out one outbox row inside the caller's transaction `tx`; null when another dispatcher
 * already did.
 */
function fanOut(deps: Deps, st: repo.DispatchStatements, tx: Tx, row: repo.OutboxRow, now: number): DispatchOutcome | null {
  if (!st.markDispatched(row.id, now)) return null;
  const envelope = buildEnvelope(st, row);
  const outcome: DispatchOutcome = { notified: 0, webhooks: 0 };
  // An event of a server (no list) names who hears of it in its data (`notify`: the server's owner
  // and moderators); a list's event goes to the list's owners.
  const named = !row.list_id && Array.isArray(envelope.data.notify) ? (envelope.data.notify as unknown[]).filter((v): v is string => typeof v === "string") : null;
  if (!row.list_id && !named) return outcome;
  delete envelope.data.notify; // who hears of it is not part of what they hear

  // Notifications: owners and co-owners (and, for a decided deploy request, the requester)
  // that exist, minus those who silenced this kind.
  const recipients = named ? [...new Set(named)].filter((u) => st.userExists(u)) : st.ownerIds(row.list_id!);
  if (row.kind === "deploy_request_decided") {
    for (const k of REQUESTER_KEYS) {
      const v = envelope.data[k];
      if (typeof v === "string" && v && !recipients.includes(v) && st.userExists(v)) recipients.push(v);
    }
  }
  const text = describeEvent(envelope);
  const data = JSON.stringify(envelope.data);
  for (const userId of recipients) {
    if (st.silenced(userId, row.kind)) continue;
    const inserted = st.insertNotification({
      id: newId(),
      user_id: userId,
      event: row.kind,
      event_id: row.id,
      title: text.title,
      body: text.body,
      list_id: envelope.list ? envelope.list.id : null,
      data,
      created_at: now,
    });
    if (inserted) outcome.notified++;
  }

  // Webhooks: the list's, or the global ones of those named.
  const hooks = named ? recipients.flatMap((u) => st.globalWebhooksOf(u)) : st.webhooksForList(row.list_id!);
  for (const wh of hooks) {
    if (!webhookWants(wh, row.kind)) continue;
    const payload: DeliveryPayload = { webhook_id: wh.id, event: envelope };
    deps.jobs.enqueue(DELIVERY_JOB, payload, { db: tx, maxAttempts: DELIVERY_MAX_ATTEMPTS });
    outcome.webhooks++;
  }
  return outcome;
}

/** Fans out one outbox row in its own transaction; null when another dispatcher already did. */
export function dispatchEvent(deps: Deps, row: repo.OutboxRow): DispatchOutcome | null {
  const st = repo.dispatchStatements(deps.sqlite);
  return deps.db.transaction((tx) => fanOut(deps, st, tx, row, deps.clock.now()), { behavior: "immediate" });
}

export function webhookWants(wh: { events: string }, kind: string): boolean {
  try {
    const events = JSON.parse(wh.events) as unknown;
    return Array.isArray(events) && events.includes(kind);
  } catch {
    return false;
  }
}

/** Events fanned out in one turn of the event loop at most (one transaction). */
export const DISPATCH_BATCH = 50;
/** A turn ends early once its fan-out has taken this long (ms), whatever the count. */
export const DISPATCH_SLICE_MS = 8;

export interface DispatchOptions {
  /** Events per turn (default DISPATCH_BATCH). */
  batchSize?: number;
  /** Ends a turn early after this many ms (default DISPATCH_SLICE_MS). */
  sliceMs?: number;
  /** Waits between turns (default: a macrotask, so sockets and timers run between batches). */
  yieldTurn?: () => Promise<void>;
}

/** Hands the event loop back: requests that arrived meanwhile are answered before the next batch. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Dispatches every pending event, oldest first, in bounded batches: each batch is one
 * IMMEDIATE transaction of at most `batchSize` events (or `sliceMs` of work), each event in a
 * savepoint of its own, and between batches the event loop runs (requests, timers, other jobs).
 * So a burst of thousands of events (a busy evening of list writes) never holds the process for
 * longer than one batch, and a crash leaves each event either wholly fanned out or pending.
 * An event whose fan-out throws (a bug) is rolled back to its savepoint, logged and left in the
 * outbox for the next run; the others still go out.
 */
export async function dispatchPending(
  deps: Deps,
  opts: DispatchOptions = {},
): Promise<{ dispatched: number; failed: number; pruned: number; batches: number }> {
  const batchSize = opts.batchSize ?? DISPATCH_BATCH;
  const sliceMs = opts.sliceMs ?? DISPATCH_SLICE_MS;
  const yieldTurn = opts.yieldTurn ?? yieldToEventLoop;
  const st = repo.dispatchStatements(deps.sqlite);
  const failed = new Set<string>();
  let dispatched = 0;
  let batches = 0;
  for (;;) {
    const batch = st.pending(batchSize + failed.size).filter((r) => !failed.has(r.id)).slice(0, batchSize);
    if (batch.length === 0) break;
    if (batches > 0) await yieldTurn();
    batches++;
    const started = performance.now();
    deps.db.transaction(
      (tx) => {
        const now = deps.clock.now();
        for (const row of batch) {
          try {
            if (tx.transaction((sp) => fanOut(deps, st, sp, row, now))) dispatched++;
          } catch (error) {
            failed.add(row.id);
            deps.log.error("event dispatch failed", { event_id: row.id, kind: row.kind, error });
          }
          if (performance.now() - started >= sliceMs) break;
        }
      },
      { behavior: "immediate" },
    );
  }
  const pruned = repo.pruneDispatched(deps.db, deps.clock.now() - OUTBOX_RETENTION_MS);
  return { dispatched, failed: failed.size, pruned, batches };
}
