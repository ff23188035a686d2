// Queueing an items scan (addons.ts does the work): no imports of other features, so the deploy
// job can queue one after a successful SFTP deploy without an import cycle.
import type { Deps } from "../../deps";
import type { EnqueueOptions } from "../jobs/queue";

/** Items from the data.pak files of a local addons folder and the SFTP servers. */
export const JOB_ITEMS_SCAN = "items.scan";

/** Queues an items scan: one server (after its deploy), or every source (admin, schedule). */
export function queueItemsScan(
  deps: Pick<Deps, "jobs">,
  o: { serverId?: string; scheduledOnly?: boolean; createdBy?: string | null; db?: EnqueueOptions["db"] } = {},
): string {
  return deps.jobs.enqueue(
    JOB_ITEMS_SCAN,
    { server_id: o.serverId ?? null, scheduled_only: !!o.scheduledOnly },
    {
      dedupeKey: `items:${o.serverId ?? (o.scheduledOnly ? "scheduled" : "all")}`,
      createdBy: o.createdBy ?? null,
      // after the server's deploy job, never beside it
      lane: o.serverId ? `server:${o.serverId}` : undefined,
      db: o.db,
    },
  );
}
