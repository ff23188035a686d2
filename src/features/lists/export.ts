// A list's items on their way out as server.json entries: the one mapping of an item to what the
// export writes, used by the export routes, the import diff and templates.
import type { Database } from "bun:sqlite";
import type { Deps } from "../../deps";
import { listItems, requiredOf, type ItemRow } from "./repository";
import { listRequiredDefault } from "./remembered-config";
import { exportMods, type ExportItem, type ExportType, type ServerJsonMod } from "./server-json-format";

/** A list item as the export (and the import diff) sees it. */
export const toExportItem = (i: ItemRow): ExportItem => ({
  workshop_id: i.workshop_id,
  name: i.name,
  pinned_version: i.pinned_version,
  latest_version: i.version,
  required: requiredOf(i.required),
});

/** The list's items as the export needs them, in list order. */
export const exportItems = (sqlite: Database, listId: string): ExportItem[] => listItems(sqlite, listId).map(toExportItem);

/**
 * The list's mods as server.json entries, in list order (`fixed`: pins; `latest`: latest known),
 * with `required` where it says something to a file whose default is the game's.
 */
export function listModsForExport(deps: Pick<Deps, "sqlite">, listId: string, type: ExportType): ServerJsonMod[] {
  return exportMods(exportItems(deps.sqlite, listId), type, { list: listRequiredDefault(deps.sqlite, listId) });
}
