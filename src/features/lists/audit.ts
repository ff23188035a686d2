// The audit log of a list's mods and its undo: reverting one entry is itself a new, audited
// change made with the rights that change needs.
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { toIso } from "../../shared/time";
import { recordEvent } from "../../outbox/outbox";
import { type ListAccess, requireListOwner, requireListRight } from "./access";
import { replaceRemembered, restorePlan, restoreRevision, SERVER_CONFIG_ACTION } from "./remembered-config";
import * as repo from "./repository";
import { revertRequired, UPDATE_REQUIRED } from "./required";
import { inTransaction, listFull, MAX_MODS, parseJson } from "./rules";

export const AUDIT_LIMIT = 100;

const auditOut = (r: repo.AuditRow) => ({
  id: r.id,
  action: r.action,
  workshop_id: r.workshop_id,
  mod_name: r.mod_name,
  old_value: parseJson<Record<string, unknown>>(r.old_value),
  new_value: parseJson<Record<string, unknown>>(r.new_value),
  user_id: r.user_id,
  display_name: r.display_name,
  reverted: !!r.reverted,
  created_at: toIso(r.created_at),
});

export const auditLog = (deps: Deps, listId: string) => repo.auditEntries(deps.sqlite, listId, AUDIT_LIMIT).map(auditOut);

type RequiredChange = { workshop_id: string; name: string; old_required: boolean | null; new_required: boolean | null };
type ImportOld = {
  removed: { workshop_id: string; name: string; version: string | null; required?: boolean | null }[];
  version_changed: { workshop_id: string; name: string; old_version: string | null; new_version: string | null }[];
  required_changed?: RequiredChange[];
  order?: string[];
};
type ImportNew = {
  added: { workshop_id: string; name: string; version: string | null }[];
  version_changed: ImportOld["version_changed"];
  /** The import changed the remembered server config (by key); the config before it was kept. */
  config?: { keys: string[] };
};

/**
 * Undoes one audit entry as a new, audited change, and marks the entry reverted. Repeating it
 * is a no-op. 409 when later changes made the undo impossible.
 */
export function revertAudit(deps: Deps, a: ListAccess, entryId: string, userId: string): { ok: true } {
  const now = deps.clock.now();
  const listId = a.list.id;
  return inTransaction(deps, (t) => {
    const e = repo.auditEntry(deps.sqlite, listId, entryId);
    if (!e) throw new AppError("audit.not_found", "audit entry not found");
    if (e.reverted) return { ok: true as const };
    // The undo needs the rights of the change it makes.
    const needs: Record<string, ("add" | "remove")[]> = { add_mod: ["remove"], remove_mod: ["add"], update_version: ["add"], [UPDATE_REQUIRED]: ["add"], reorder: ["add"], import: ["add", "remove"] };
    for (const r of needs[e.action] ?? []) requireListRight(a, r);
    // Putting a remembered server config back changes its secrets: owners only.
    const touchesConfig = e.action === SERVER_CONFIG_ACTION || (e.action === "import" && parseJson<ImportNew>(e.new_value)?.config !== undefined);
    if (touchesConfig) requireListOwner(a);
    const wid = e.workshop_id!;
    const audit = (action: string, oldValue: unknown, newValue: unknown, name = e.mod_name) =>
      repo.insertAudit(deps.sqlite, { id: newId(), listId, action, workshopId: e.workshop_id, modName: name, oldValue, newValue, userId, at: now });
    switch (e.action) {
      case "add_mod": {
        const item = repo.getItem(deps.sqlite, listId, wid);
        if (!item) throw new AppError("audit.revert_conflict", `cannot revert: mod ${wid} is no longer in the list`);
        repo.deleteItem(deps.sqlite, listId, wid);
        audit("remove_mod", { version: item.pinned_version }, null);
        recordEvent(t, { kind: "mod_removed", listId, actorId: userId, data: { workshop_id: wid, name: e.mod_name, source: "revert" }, at: now });
        break;
      }
      case "remove_mod": {
        if (repo.getItem(deps.sqlite, listId, wid)) throw new AppError("audit.revert_conflict", `cannot revert: mod ${wid} is already in the list again`);
        const c = repo.countItems(deps.sqlite, listId);
        if (c.n >= MAX_MODS) throw listFull();
        const version = parseJson<{ version: string | null }>(e.old_value)?.version ?? null;
        repo.insertItem(deps.sqlite, { listId, workshopId: wid, name: e.mod_name ?? "", position: c.max_pos + 1, pinned: version, userId, at: now });
        audit("add_mod", null, null);
        recordEvent(t, { kind: "mod_added", listId, actorId: userId, data: { workshop_id: wid, name: e.mod_name, source: "revert" }, at: now });
        break;
      }
      case "update_version": {
        const item = repo.getItem(deps.sqlite, listId, wid);
        if (!item) throw new AppError("audit.revert_conflict", `cannot revert: mod ${wid} is no longer in the list`);
        const version = parseJson<{ version: string | null }>(e.old_value)?.version ?? null;
        if (item.pinned_version !== version) {
          repo.setPin(deps.sqlite, listId, wid, version);
          audit("update_version", { version: item.pinned_version }, { version });
          recordEvent(t, { kind: "version_changed", listId, actorId: userId, data: { workshop_id: wid, name: e.mod_name, old_version: item.pinned_version, new_version: version, source: "revert" }, at: now });
        }
        break;
      }
      case UPDATE_REQUIRED: {
        revertRequired(deps, e, userId, now);
        break;
      }
      case "reorder": {
        const old = parseJson<{ order: string[] }>(e.old_value)?.order ?? [];
        const current = repo.listItemKeys(deps.sqlite, listId).map((r) => r.workshop_id);
        const present = new Set(current);
        const restored = old.filter((id) => present.has(id));
        const rest = current.filter((id) => !old.includes(id));
        const order = [...restored, ...rest];
        if (order.some((id, i) => id !== current[i])) {
          repo.setOrder(deps.sqlite, listId, order);
          audit("reorder", { order: current }, { order });
        }
        break;
      }
      case SERVER_CONFIG_ACTION: {
        restoreRevision(deps, listId, e.id, userId);
        break;
      }
      case "import": {
        const oldV = parseJson<ImportOld>(e.old_value) ?? { removed: [], version_changed: [] };
        const newV = parseJson<ImportNew>(e.new_value) ?? { added: [], version_changed: [] };
        const items = repo.listItemKeys(deps.sqlite, listId);
        const byId = new Map(items.map((i) => [i.workshop_id, i]));
        // Undo: remove what the import added, re-add what it removed, restore changed pins.
        const removed: ImportOld["removed"] = [];
        for (const a of newV.added) {
          const it = byId.get(a.workshop_id);
          if (!it) continue; // already gone
          repo.deleteItem(deps.sqlite, listId, a.workshop_id);
          removed.push({ workshop_id: a.workshop_id, name: a.name, version: it.pinned_version, required: repo.requiredOf(it.required) });
          byId.delete(a.workshop_id);
        }
        const readd = oldV.removed.filter((r) => !byId.has(r.workshop_id));
        if (byId.size + readd.length > MAX_MODS) throw listFull();
        let pos = repo.countItems(deps.sqlite, listId).max_pos;
        for (const r of readd) {
          repo.insertItem(deps.sqlite, { listId, workshopId: r.workshop_id, name: r.name, position: ++pos, pinned: r.version, userId, at: now, required: r.required ?? null });
          byId.set(r.workshop_id, { workshop_id: r.workshop_id, name: r.name, pinned_version: r.version, required: r.required == null ? null : r.required ? 1 : 0, position: pos });
        }
        const versionChanged: ImportOld["version_changed"] = [];
        for (const v of oldV.version_changed) {
          const it = byId.get(v.workshop_id);
          if (!it || it.pinned_version === v.old_version) continue;
          repo.setPin(deps.sqlite, listId, v.workshop_id, v.old_version);
          versionChanged.push({ workshop_id: v.workshop_id, name: v.name, old_version: it.pinned_version, new_version: v.old_version });
        }
        const requiredChanged: RequiredChange[] = [];
        for (const r of oldV.required_changed ?? []) {
          const it = byId.get(r.workshop_id);
          if (!it || repo.requiredOf(it.required) === r.old_required) continue;
          repo.setRequired(deps.sqlite, listId, r.workshop_id, r.old_required);
          requiredChanged.push({ workshop_id: r.workshop_id, name: r.name, old_required: repo.requiredOf(it.required), new_required: r.old_required });
        }
        const before = items.map((i) => i.workshop_id);
        if (oldV.order) {
          const present = new Set(byId.keys());
          const order = [...oldV.order.filter((id) => present.has(id)), ...[...present].filter((id) => !oldV.order!.includes(id))];
          repo.setOrder(deps.sqlite, listId, order);
        }
        // The settings the import brought in go back to what they were, in the same undo entry.
        const config = newV.config ? restorePlan(deps, listId, e.id) : null;
        const undoId = newId();
        repo.insertAudit(deps.sqlite, {
          id: undoId,
          listId,
          action: "import",
          workshopId: null,
          modName: null,
          oldValue: { removed, version_changed: versionChanged, ...(requiredChanged.length ? { required_changed: requiredChanged } : {}), order: before },
          newValue: {
            added: readd.map((r) => ({ workshop_id: r.workshop_id, name: r.name, version: r.version })),
            version_changed: versionChanged,
            ...(requiredChanged.length ? { required_changed: requiredChanged } : {}),
            ...(config ? { config: { keys: config.keys } } : {}),
          },
          userId,
          at: now,
        });
        if (config) replaceRemembered(deps, listId, undoId, config.before, config.text, userId);
        recordEvent(t, { kind: "list_imported", listId, actorId: userId, data: { added: readd.length, removed: removed.length, version_changed: versionChanged.length, source: "revert" }, at: now });
        break;
      }
      default:
        throw new AppError("audit.not_revertible", `cannot revert an entry of type ${e.action}`);
    }
    repo.markReverted(deps.sqlite, entryId);
    repo.touchList(deps.sqlite, listId, now);
    return { ok: true as const };
  });
}
