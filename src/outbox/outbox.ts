import type { Tx } from "../db/client";
import { eventOutbox } from "./tables";
import { newId } from "../shared/ids";

export const EVENT_KINDS = [
  "mod_added",
  "mod_removed",
  "mod_updated",
  "version_changed",
  "list_imported",
  "suggestion_created",
  "suggestion_reviewed",
  "deploy_requested",
  "deploy_request_decided",
  "deployment_succeeded",
  "deployment_failed",
  // The restart loop (docs/deploy.md): these three are named with a dot (docs/events.md "Event
  // kinds").
  "deploy.restarting",
  "deploy.verified",
  "deploy.rolled_back",
  // A community's own servers (docs/rcon.md): no list; they go to the server's owner (and its
  // moderators), named in the event's data (`notify`).
  "server.rcon_lost",
  "server.rcon_restored",
  // Moderation on own servers (docs/rcon.md "Moderation").
  "player.kicked",
  "player.banned",
  "player.unbanned",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface EventInput {
  kind: EventKind;
  listId: string | null;
  actorId: string | null;
  data: Record<string, unknown>;
  /** Defaults to Date.now(); pass deps.clock.now() where a clock is at hand. */
  at?: number;
}

/** Records an event in the caller's transaction (transactional outbox). Returns the event id. */
export function recordEvent(tx: Tx, event: EventInput): string {
  const id = newId();
  tx.insert(eventOutbox)
    .values({
      id,
      kind: event.kind,
      list_id: event.listId,
      actor_id: event.actorId,
      data: JSON.stringify(event.data),
      created_at: event.at ?? Date.now(),
    })
    .run();
  return id;
}
