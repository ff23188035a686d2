// The import diff: what applying a server.json to a list would change. Pure: the caller loads
// the list's items and one catalog lookup for the imported ids (set-based, no N+1).
import type { ExportItem, ImportEntry, ServerJsonMod } from "./server-json-format";
import type { ConfigPreview } from "./import-config";

/** A list item as the diff needs it (the export's view of an item), in the list's current order. */
export type CurrentItem = ExportItem;

/** What the catalog knows of an imported id (absent from the map = not in the catalog). */
export interface CatalogInfo {
  name: string;
  version: string;
  size_bytes: number;
}

export interface AddedElement {
  workshop_id: string;
  name: string;
  version: string;
  size_bytes: number;
  in_catalog: boolean;
  /** The file names a version: the mod comes in pinned to it (else it follows its newest). */
  pinned: boolean;
}
export interface RemovedElement {
  workshop_id: string;
  name: string;
}
export interface VersionChangedElement {
  workshop_id: string;
  name: string;
  old_version: string | null;
  new_version: string | null;
}
export interface OrderChangedElement {
  workshop_id: string;
  name: string;
  old_index: number;
  new_index: number;
}
export interface NotInCatalogElement {
  mod_id: string;
  name: string;
  version: string | null;
}

export interface RequiredChangedElement {
  workshop_id: string;
  name: string;
  old_required: boolean | null;
  new_required: boolean | null;
}
/** A file's pin equal to the newest version of a mod the list follows at its newest: kept unpinned. */
export interface KeptLatestElement {
  workshop_id: string;
  name: string;
  version: string;
}
export interface StalePinElement {
  workshop_id: string;
  name: string;
  version: string;
  /** Where the entry stood in the file ("game.mods[3]"). */
  entry: string;
  latest_version: string;
  in_list: boolean;
  resolution: "unpinned" | "skip" | null;
}

export interface ImportDiff {
  added: AddedElement[];
  removed: RemovedElement[];
  version_changed: VersionChangedElement[];
  order_changed: OrderChangedElement[];
  unchanged: ServerJsonMod[];
  not_in_catalog: NotInCatalogElement[];
  required_changed: RequiredChangedElement[];
  /**
   * Mods the list follows at their newest (no pin) whose entry in the file names that newest
   * version: no change, the mod stays unpinned and moves on with the next update.
   */
  kept_latest: KeptLatestElement[];
  /** Filled by the service (it asks the catalog): pins the catalog does not have. */
  stale_pins: StalePinElement[];
  notes: string[];
  config_changes: string[];
  /** Filled by the service: what the import does with the file's settings (import-config.ts). */
  config?: ConfigPreview;
}

/** What import-apply does, derived together with the diff so preview and apply agree. */
export interface ImportPlan {
  diff: ImportDiff;
  /** Every mod to insert (catalog-known and unknown), in file order, with the pin to set. */
  toAdd: { workshop_id: string; name: string; pinned_version: string | null; in_catalog: boolean; required: boolean | null }[];
  toRemove: string[];
  /** New pin per changed mod (null = unpin). */
  pinChanges: { workshop_id: string; pinned_version: string | null }[];
  /** New stated `required` per changed mod (null = not stated). */
  requiredChanges: { workshop_id: string; required: boolean | null }[];
  /** Final order of the list when check_order is on (the file's order), else null. */
  order: string[] | null;
}

/**
 * Compares a list with an imported file.
 * - `added` holds the new mods the catalog knows, `not_in_catalog` the new ones it does not
 *   (disjoint, so a client calling POST /lists/:id/mods for each of both adds every mod once).
 * - A version in the file pins that version; no version unpins. A file version equal to the
 *   latest version of an unpinned mod changes nothing (the mod already runs that version), so
 *   an `export?type=latest` file round-trips without changes as well as a `fixed` one; those
 *   mods are named in `kept_latest` (the preview says they stay unpinned).
 * - `order_changed` (only with check_order) compares each kept mod's index in the list with its
 *   index in the file, which is its index after apply.
 * - `unchanged` lists the file's entries (server.json shape) whose mod is kept as it is.
 */
export function computeImportPlan(
  current: readonly CurrentItem[],
  entries: readonly ImportEntry[],
  catalog: ReadonlyMap<string, CatalogInfo>,
  checkOrder: boolean,
): ImportPlan {
  const currentIndex = new Map<string, number>();
  for (let i = 0; i < current.length; i++) currentIndex.set(current[i].workshop_id, i);
  const imported = new Set<string>();

  const diff: ImportDiff = {
    added: [],
    removed: [],
    version_changed: [],
    order_changed: [],
    unchanged: [],
    not_in_catalog: [],
    required_changed: [],
    kept_latest: [],
    stale_pins: [],
    notes: [],
    config_changes: [],
  };
  const plan: ImportPlan = { diff, toAdd: [], toRemove: [], pinChanges: [], requiredChanges: [], order: checkOrder ? [] : null };

  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    imported.add(e.workshop_id);
    plan.order?.push(e.workshop_id);
    const at = currentIndex.get(e.workshop_id);
    if (at === undefined) {
      const info = catalog.get(e.workshop_id);
      if (info) {
        diff.added.push({
          workshop_id: e.workshop_id,
          name: info.name || e.name,
          version: e.version ?? info.version,
          size_bytes: info.size_bytes,
          in_catalog: true,
          pinned: e.version !== null,
        });
      } else {
        diff.not_in_catalog.push({ mod_id: e.workshop_id, name: e.name, version: e.version });
      }
      plan.toAdd.push({
        workshop_id: e.workshop_id,
        name: info?.name || e.name,
        pinned_version: e.version,
        in_catalog: info !== undefined,
        required: e.required ?? null,
      });
      continue;
    }
    const cur = current[at];
    const same =
      e.version === cur.pinned_version ||
      (cur.pinned_version === null && e.version !== null && e.version === cur.latest_version);
    if (same && cur.pinned_version === null && e.version !== null) diff.kept_latest.push({ workshop_id: e.workshop_id, name: cur.name, version: e.version });
    const oldRequired = cur.required ?? null;
    const newRequired = e.required ?? null;
    if (same && oldRequired === newRequired) {
      const entry: ServerJsonMod = { modId: e.workshop_id, name: e.name || cur.name };
      if (e.version !== null) entry.version = e.version;
      if (newRequired !== null) entry.required = newRequired;
      diff.unchanged.push(entry);
    }
    if (!same) {
      diff.version_changed.push({ workshop_id: e.workshop_id, name: cur.name, old_version: cur.pinned_version, new_version: e.version });
      plan.pinChanges.push({ workshop_id: e.workshop_id, pinned_version: e.version });
    }
    if (oldRequired !== newRequired) {
      diff.required_changed.push({ workshop_id: e.workshop_id, name: cur.name, old_required: oldRequired, new_required: newRequired });
      plan.requiredChanges.push({ workshop_id: e.workshop_id, required: newRequired });
    }
    if (checkOrder && at !== i) diff.order_changed.push({ workshop_id: e.workshop_id, name: cur.name, old_index: at, new_index: i });
  }

  for (const cur of current) {
    if (!imported.has(cur.workshop_id)) {
      diff.removed.push({ workshop_id: cur.workshop_id, name: cur.name });
      plan.toRemove.push(cur.workshop_id);
    }
  }
  return plan;
}
