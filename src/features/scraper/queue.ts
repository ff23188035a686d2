// Queueing scraper work from other features: a mod's detail scrape (lists and live queue one
// for a mod the catalog does not know) and an items scan (the deploy job queues one after a
// successful SFTP deploy). No imports of other features but the job queue, so anyone may call it
// without an import cycle; jobs.ts does the work. The scraper's job names are here too.
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { normaliseWorkshopId } from "../../shared/schemas";
import type { EnqueueOptions } from "../../jobs/queue";

export const JOB_SCRAPE_DETAIL = "scrape.detail";
export const JOB_SCRAPE_FULL = "scrape.full";
export const JOB_SCRAPE_INCREMENTAL = "scrape.incremental";
/** Detail scrapes of new/changed mods (up to 256, sixteen listing pages), queued by discovery. */
export const JOB_SCRAPE_DETAIL_BATCH = "scrape.detail_batch";
export const JOB_GROWTH = "catalog.growth";

export type ScrapeMode = "full" | "incremental";

/**
 * Queues a detail scrape of one mod. Deduplicated: while a scrape of the mod is queued or
 * running, its job id is returned. Pass `db` (a transaction) to enqueue together with the
 * caller's change. 400 for an invalid workshop id.
 */
export function queueDetailScrape(deps: Pick<Deps, "jobs">, workshopId: string, opts: { db?: EnqueueOptions["db"]; createdBy?: string | null } = {}): string {
  const id = normaliseWorkshopId(workshopId);
  if (!id) throw new AppError("invalid_workshop_id", "invalid workshop ID");
  return deps.jobs.enqueue(JOB_SCRAPE_DETAIL, { workshop_id: id }, { dedupeKey: `scrape:${id}`, db: opts.db, createdBy: opts.createdBy ?? null });
}

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
