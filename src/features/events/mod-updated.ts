// The catalog's `mod_updated` source: when the scraper stores a newer version of a mod, every
// list containing that mod gets a `mod_updated` event, recorded in the scraper's own write
// transaction (the scraper's onModVersionChanged hook, src/features/scraper/hooks.ts, wired in src/features/index.ts).
import type { Tx } from "../../db/client";
import { listItemsOfMod, modName } from "./repository";
import { recordEvent } from "../../outbox/outbox";

/** Records one `mod_updated` event per list holding the mod; returns how many were recorded. */
export function recordModUpdated(tx: Tx, workshopId: string, oldVersion: string, newVersion: string, at?: number): number {
  if (oldVersion === newVersion) return 0;
  const mod = modName(tx, workshopId);
  const rows = listItemsOfMod(tx, workshopId);
  for (const r of rows) {
    recordEvent(tx, {
      kind: "mod_updated",
      listId: r.list_id,
      actorId: null,
      data: {
        workshop_id: workshopId,
        mod_name: mod?.name || r.name || workshopId,
        old_version: oldVersion,
        new_version: newVersion,
        pinned_version: r.pinned_version,
      },
      at,
    });
  }
  return rows.length;
}
