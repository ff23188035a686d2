// Per-mod `required` of a list item: set by hand (audited as
// `update_required`, revertable) or by an import. What an unstated value means is the list's
// modsRequiredByDefault (server-config-store.ts).
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import * as repo from "./repository";

/** The audit action of a hand-set `required`; old and new values are `{required: boolean | null}`. */
export const UPDATE_REQUIRED = "update_required";

/** Sets (true/false) or clears (null) an item's stated `required`; the same value again is no change. */
export function setModRequired(deps: Pick<Deps, "db" | "sqlite" | "clock">, listId: string, userId: string, workshopId: string, required: boolean | null) {
  const now = deps.clock.now();
  const run = () => {
    const item = repo.getItem(deps.sqlite, listId, workshopId);
    if (!item) throw new AppError("list.mod_not_in_list", "mod not in list");
    const old = repo.requiredOf(item.required);
    if (old === required) return;
    repo.setRequired(deps.sqlite, listId, workshopId, required);
    repo.insertAudit(deps.sqlite, { id: newId(), listId, action: UPDATE_REQUIRED, workshopId, modName: item.name, oldValue: { required: old }, newValue: { required }, userId, at: now });
    repo.touchList(deps.sqlite, listId, now);
  };
  if (deps.sqlite.inTransaction) run();
  else deps.db.transaction(run, { behavior: "immediate" });
}

/**
 * The undo of an `update_required` entry, inside the revert's transaction: puts the old value
 * back as a new audited change (409 when the mod left the list).
 */
export function revertRequired(deps: Pick<Deps, "sqlite">, e: { list_id: string; workshop_id: string | null; mod_name: string | null; old_value: string | null }, userId: string, now: number) {
  const wid = e.workshop_id!;
  const item = repo.getItem(deps.sqlite, e.list_id, wid);
  if (!item) throw new AppError("audit.revert_conflict", `cannot revert: mod ${wid} is no longer in the list`);
  const want = e.old_value ? ((JSON.parse(e.old_value) as { required: boolean | null }).required ?? null) : null;
  const current = repo.requiredOf(item.required);
  if (current === want) return;
  repo.setRequired(deps.sqlite, e.list_id, wid, want);
  repo.insertAudit(deps.sqlite, { id: newId(), listId: e.list_id, action: UPDATE_REQUIRED, workshopId: wid, modName: e.mod_name, oldValue: { required: current }, newValue: { required: want }, userId, at: now });
}
