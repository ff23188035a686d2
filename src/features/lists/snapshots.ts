// Snapshots (versions) of a list: the list's mods with their versions at one moment, plus the
// `live` pseudo-snapshot of the list as it is now.
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { toIso } from "../../shared/time";
import type { ListRow } from "./access";
import * as repo from "./repository";
import type { SnapshotRow } from "./repository";

const snapshotOut = (r: SnapshotRow) => ({
  id: r.id,
  list_id: r.list_id,
  version_name: r.version_name,
  tag: r.tag,
  notes: r.notes,
  is_release: !!r.is_release,
  snapshot_json: JSON.parse(r.snapshot_json) as { modId: string; name: string; version: string }[],
  created_by: r.created_by,
  created_at: toIso(r.created_at),
});

/** The list as snapshot entries; version is the pin, else the latest known, else "". */
function liveEntries(deps: Deps, listId: string) {
  return repo.listItems(deps.sqlite, listId).map((i) => ({ modId: i.workshop_id, name: i.name, version: i.pinned_version ?? i.version ?? "" }));
}

export interface SnapshotInput {
  version_name?: string | null;
  tag?: string | null;
  notes?: string | null;
  is_release?: boolean;
}

export function createSnapshot(deps: Deps, listId: string, userId: string, input: SnapshotInput) {
  const row: SnapshotRow = {
    id: newId(),
    list_id: listId,
    version_name: input.version_name ?? null,
    tag: input.tag ?? null,
    notes: input.notes ?? null,
    is_release: input.is_release ? 1 : 0,
    snapshot_json: JSON.stringify(liveEntries(deps, listId)),
    created_by: userId,
    created_at: deps.clock.now(),
  };
  repo.insertSnapshot(deps.sqlite, row);
  return snapshotOut(row);
}

export function listSnapshots(deps: Deps, listId: string) {
  return repo.snapshotsOf(deps.sqlite, listId).map(snapshotOut);
}

export function liveSnapshot(deps: Deps, l: ListRow) {
  return {
    id: "live",
    list_id: l.id,
    version_name: "live",
    tag: null,
    notes: null,
    is_release: false,
    snapshot_json: liveEntries(deps, l.id),
    created_by: null,
    created_at: toIso(deps.clock.now()),
  };
}

function snapshotRow(deps: Deps, listId: string, id: string): SnapshotRow {
  const r = repo.snapshot(deps.sqlite, listId, id);
  if (!r) throw new AppError("snapshot.not_found", "snapshot not found");
  return r;
}

export const getSnapshot = (deps: Deps, listId: string, id: string) => snapshotOut(snapshotRow(deps, listId, id));

export function updateSnapshot(deps: Deps, listId: string, id: string, input: SnapshotInput) {
  const r = snapshotRow(deps, listId, id);
  const next = {
    ...r,
    version_name: input.version_name !== undefined ? input.version_name : r.version_name,
    tag: input.tag !== undefined ? input.tag : r.tag,
    notes: input.notes !== undefined ? input.notes : r.notes,
    is_release: input.is_release !== undefined ? (input.is_release ? 1 : 0) : r.is_release,
  };
  repo.updateSnapshot(deps.sqlite, next);
  return snapshotOut(next);
}

export function deleteSnapshot(deps: Deps, listId: string, id: string) {
  snapshotRow(deps, listId, id);
  repo.deleteSnapshot(deps.sqlite, id);
}
