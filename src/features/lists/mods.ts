// The mods of a list, one change at a time: add (with dependencies), remove, pin a version,
// reorder, rescrape. Every change writes its audit entry and its event in the same transaction.
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { recordEvent } from "../../outbox/outbox";
import * as repo from "./repository";
import { checkAge, inTransaction, listFull, MAX_MODS, queueScrape } from "./rules";

export interface AddModsInput {
  listId: string;
  userId: string | null;
  workshopIds: string[];
  /** Where the add came from (`manual`, `suggestion`, `template`, ...), kept in the event data. */
  source: string;
  /** Also add the transitive dependencies of these mods that the list lacks. */
  withDependencies?: boolean;
  /** Versions to pin for some of the added mods. */
  pins?: Record<string, string | null>;
}

export interface AddModsResult {
  added: { workshop_id: string; name: string; in_catalog: boolean }[];
}

/**
 * Adds mods to a list in one transaction: 409 at the 1000 limit or for a mod already in the
 * list, 422 by the age rule; unknown mods are added by id and a detail scrape is queued. One
 * `add_mod` audit entry and one `mod_added` event per mod.
 */
export function addModsToList(deps: Deps, input: AddModsInput): AddModsResult {
  const ids = [...new Set(input.workshopIds.map((w) => w.toUpperCase()))];
  const now = deps.clock.now();
  return inTransaction(deps, (t) => {
    const list = repo.listAgeRule(deps.sqlite, input.listId);
    if (!list) throw new AppError("list.not_found", "list not found");
    const present = new Set(repo.listItemKeys(deps.sqlite, input.listId).map((r) => r.workshop_id));
    for (const id of ids) if (present.has(id)) throw new AppError("mod_in_list", `mod ${id} is already in the list`);
    let toAdd = ids;
    if (input.withDependencies) {
      const closure = repo.dependencyClosure(deps.sqlite, ids);
      toAdd = [...ids, ...closure.filter((id) => !present.has(id) && !ids.includes(id))];
    }
    if (present.size + toAdd.length > MAX_MODS) throw listFull();
    const rows = repo.catalogLookup(deps.sqlite, toAdd);
    checkAge(list, rows, now);
    let pos = repo.countItems(deps.sqlite, input.listId).max_pos;
    const added: AddModsResult["added"] = [];
    for (const r of rows) {
      const name = r.name || r.workshop_id;
      repo.insertItem(deps.sqlite, {
        listId: input.listId,
        workshopId: r.workshop_id,
        name: r.name,
        position: ++pos,
        pinned: input.pins?.[r.workshop_id] ?? null,
        userId: input.userId,
        at: now,
      });
      repo.insertAudit(deps.sqlite, { id: newId(), listId: input.listId, action: "add_mod", workshopId: r.workshop_id, modName: name, oldValue: null, newValue: null, userId: input.userId, at: now });
      recordEvent(t, { kind: "mod_added", listId: input.listId, actorId: input.userId, data: { workshop_id: r.workshop_id, name, source: input.source }, at: now });
      if (!r.in_catalog) queueScrape(deps, t, r.workshop_id, input.userId);
      added.push({ workshop_id: r.workshop_id, name, in_catalog: !!r.in_catalog });
    }
    repo.touchList(deps.sqlite, input.listId, now);
    return { added };
  });
}

/** Removes the mod; returns the id of its `remove_mod` audit entry (what an undo reverts). */
export function removeMod(deps: Deps, listId: string, userId: string, workshopId: string): string {
  const now = deps.clock.now();
  return inTransaction(deps, (t) => {
    const item = repo.getItem(deps.sqlite, listId, workshopId);
    if (!item) throw new AppError("list.mod_not_in_list", "mod not in list");
    repo.deleteItem(deps.sqlite, listId, workshopId);
    const auditId = newId();
    repo.insertAudit(deps.sqlite, { id: auditId, listId, action: "remove_mod", workshopId, modName: item.name, oldValue: { version: item.pinned_version }, newValue: null, userId, at: now });
    recordEvent(t, { kind: "mod_removed", listId, actorId: userId, data: { workshop_id: workshopId, name: item.name }, at: now });
    repo.touchList(deps.sqlite, listId, now);
    return auditId;
  });
}

/** Pins (or with null unpins) a version; the version must exist when the catalog knows the mod's versions. */
export function setModVersion(deps: Deps, listId: string, userId: string, workshopId: string, version: string | null) {
  const now = deps.clock.now();
  inTransaction(deps, (t) => {
    const item = repo.getItem(deps.sqlite, listId, workshopId);
    if (!item) throw new AppError("list.mod_not_in_list", "mod not in list");
    if (version !== null) {
      const k = repo.versionKnown(deps.sqlite, workshopId, version);
      if (k.catalogKnows && !k.exists) throw new AppError("mod.version_unknown", `version ${version} does not exist for mod ${workshopId}`);
    }
    if (item.pinned_version === version) return;
    repo.setPin(deps.sqlite, listId, workshopId, version);
    repo.insertAudit(deps.sqlite, { id: newId(), listId, action: "update_version", workshopId, modName: item.name, oldValue: { version: item.pinned_version }, newValue: { version }, userId, at: now });
    recordEvent(t, { kind: "version_changed", listId, actorId: userId, data: { workshop_id: workshopId, name: item.name, old_version: item.pinned_version, new_version: version }, at: now });
    repo.touchList(deps.sqlite, listId, now);
  });
}

/** Saves a manual order; `order` must be a permutation of the list's mods (400 otherwise). Audited as `reorder`. */
export function reorderMods(deps: Deps, listId: string, userId: string, order: string[]) {
  const now = deps.clock.now();
  const wanted = order.map((w) => w.toUpperCase());
  inTransaction(deps, () => {
    const current = repo.listItemKeys(deps.sqlite, listId).map((r) => r.workshop_id);
    const set = new Set(current);
    const seen = new Set<string>();
    for (const id of wanted) {
      if (!set.has(id)) throw new AppError("request.invalid", `order: mod ${id} is not in the list`);
      if (seen.has(id)) throw new AppError("request.invalid", `order: mod ${id} appears twice`);
      seen.add(id);
    }
    if (seen.size !== set.size) throw new AppError("request.invalid", `order: must list all ${set.size} mods of the list exactly once (got ${seen.size})`);
    if (current.every((id, i) => id === wanted[i])) return;
    repo.setOrder(deps.sqlite, listId, wanted);
    repo.insertAudit(deps.sqlite, { id: newId(), listId, action: "reorder", workshopId: null, modName: null, oldValue: { order: current }, newValue: { order: wanted }, userId, at: now });
    repo.touchList(deps.sqlite, listId, now);
  });
}

/** Queues one detail scrape per mod of the list; returns how many jobs were queued. */
export function rescrapeList(deps: Deps, listId: string, userId: string): { ok: true; queued: number; job_ids: string[] } {
  return inTransaction(deps, (t) => {
    const ids = repo.listItemKeys(deps.sqlite, listId).map((r) => r.workshop_id);
    const jobIds = ids.map((id) => queueScrape(deps, t, id, userId));
    return { ok: true as const, queued: jobIds.length, job_ids: jobIds };
  });
}
