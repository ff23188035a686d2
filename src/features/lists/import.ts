// Importing a server.json into a list: parse (server-json-format.ts), diff against the list
// (diff.ts), preview, and apply in one transaction with exactly one `import` audit entry.
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { recordEvent } from "../../outbox/outbox";
import { computeImportPlan, type CatalogInfo, type CurrentItem, type ImportDiff } from "./diff";
import { toExportItem } from "./export";
import * as repo from "./repository";
import { checkAge, inTransaction, listFull, MAX_MODS, queueScrape } from "./rules";
import { entryLabel, ImportFormatError, parseImportBody, type ImportEntry, type ImportShape, type ParsedImport } from "./server-json-format";
import { resolveImport, unresolvedError } from "./import-problems";
import { splitConfig, type JsonObject, type SplitConfig } from "./server-config";
import { saveConfig } from "./server-config-store";

function parseBody(raw: string): ParsedImport {
  try {
    return parseImportBody(raw);
  } catch (e) {
    if (e instanceof ImportFormatError) throw new AppError(400, e.message);
    throw e;
  }
}

function planFor(deps: Deps, listId: string, entries: readonly ImportEntry[], checkOrder: boolean) {
  const items = repo.listItems(deps.sqlite, listId);
  const current: CurrentItem[] = items.map(toExportItem);
  const present = new Set(items.map((i) => i.workshop_id));
  const newIds = entries.filter((e) => !present.has(e.workshop_id)).map((e) => e.workshop_id);
  const rows = newIds.length ? repo.catalogLookup(deps.sqlite, newIds) : [];
  const catalog = new Map<string, CatalogInfo>();
  for (const r of rows) if (r.in_catalog) catalog.set(r.workshop_id, { name: r.name, version: r.version, size_bytes: r.size_bytes });
  return { plan: computeImportPlan(current, entries, catalog, checkOrder), rows, items };
}

/**
 * An imported pin must be a version the catalog knows, as `PUT …/version` demands: a pin to a
 * version that does not exist is 400 naming the entry, in the preview and in the apply (which
 * then changes nothing). Mods whose versions the catalog does not know yet are taken as given.
 */
function checkImportedPins(deps: Deps, plan: ReturnType<typeof planFor>["plan"], entries: readonly ImportEntry[], shape: ImportShape) {
  const pins = new Map<string, string>();
  for (const a of plan.toAdd) if (a.pinned_version) pins.set(a.workshop_id, a.pinned_version);
  for (const c of plan.pinChanges) if (c.pinned_version) pins.set(c.workshop_id, c.pinned_version);
  if (!pins.size) return;
  entries.forEach((e, i) => {
    const version = pins.get(e.workshop_id);
    if (!version) return;
    const k = repo.versionKnown(deps.sqlite, e.workshop_id, version);
    if (k.catalogKnows && !k.exists) {
      throw new AppError(400, `${entryLabel(shape, i)}.version: version ${version} does not exist for mod ${e.workshop_id}`);
    }
  });
}

/** The file read, its stale pins resolved as chosen (`resolve`), and the plan for it. */
function prepareImport(deps: Deps, listId: string, raw: string, checkOrder: boolean, resolve?: string) {
  const parsed = parseBody(raw);
  const current = repo.listItemKeys(deps.sqlite, listId);
  const r = resolveImport(deps, listId, parsed, resolve, current, (entries) => planFor(deps, listId, entries, checkOrder).plan);
  return { parsed, ...r };
}

/** The diff, with every stale pin (and its chosen resolution), notes and settings changes. */
export function importPreview(deps: Deps, listId: string, raw: string, checkOrder: boolean, resolve?: string): ImportDiff {
  return prepareImport(deps, listId, raw, checkOrder, resolve).plan.diff;
}

/** Applies a file: 400 naming every unresolved stale pin; a full config's settings are remembered. */
export function importApplyText(deps: Deps, listId: string, userId: string, raw: string, checkOrder: boolean, resolve?: string) {
  const { parsed, entries, stale } = prepareImport(deps, listId, raw, checkOrder, resolve);
  const refused = unresolvedError(stale);
  if (refused) throw refused;
  const config = parsed.config ? splitConfig(parsed.config as JsonObject) : undefined;
  return applyImport(deps, { listId, userId, entries, checkOrder, checkPinsOf: parsed.shape, config });
}

export interface ApplyImportInput {
  listId: string;
  userId: string | null;
  entries: readonly ImportEntry[];
  checkOrder: boolean;
  /** Event source label (`import`, `copy-from-server`, `template`, `revert`). */
  source?: string;
  /** A user's import in this shape: refuse pins to versions the catalog does not have (checkImportedPins). */
  checkPinsOf?: ImportShape;
  /** A full config's other settings, remembered for export/game (replacing what the list had). */
  config?: SplitConfig;
}

export interface ApplyImportResult {
  ok: true;
  added: number;
  removed: number;
  version_changed: number;
}

/**
 * Makes the list equal to `entries` (and, with checkOrder, in their order) in one transaction
 * with exactly one `import` audit entry; nothing changes when anything fails.
 */
export function applyImport(deps: Deps, input: ApplyImportInput): ApplyImportResult {
  const now = deps.clock.now();
  return inTransaction(deps, (t) => {
    const list = repo.listAgeRule(deps.sqlite, input.listId);
    if (!list) throw new AppError(404, "list not found");
    if (input.entries.length > MAX_MODS) throw listFull();
    const { plan, rows, items } = planFor(deps, input.listId, input.entries, input.checkOrder);
    if (input.checkPinsOf) checkImportedPins(deps, plan, input.entries, input.checkPinsOf);
    checkAge(list, rows, now);
    const byId = new Map(items.map((i) => [i.workshop_id, i]));
    const removedSet = new Set(plan.toRemove);
    for (const id of plan.toRemove) repo.deleteItem(deps.sqlite, input.listId, id);
    for (const c of plan.pinChanges) repo.setPin(deps.sqlite, input.listId, c.workshop_id, c.pinned_version);
    for (const c of plan.requiredChanges) repo.setRequired(deps.sqlite, input.listId, c.workshop_id, c.required);
    if (input.config) saveConfig(deps, input.listId, input.config, input.userId);
    let pos = repo.countItems(deps.sqlite, input.listId).max_pos;
    for (const a of plan.toAdd) {
      repo.insertItem(deps.sqlite, { listId: input.listId, workshopId: a.workshop_id, name: a.name, position: ++pos, pinned: a.pinned_version, userId: input.userId, at: now, required: a.required });
      if (!a.in_catalog) queueScrape(deps, t, a.workshop_id, input.userId);
    }
    const oldOrder = items.map((i) => i.workshop_id);
    let orderChanged = false;
    if (plan.order) {
      const kept = oldOrder.filter((id) => !removedSet.has(id));
      const natural = [...kept, ...plan.toAdd.map((a) => a.workshop_id)];
      orderChanged = natural.some((id, i) => id !== plan.order![i]);
      if (orderChanged) repo.setOrder(deps.sqlite, input.listId, plan.order);
    }
    const d = plan.diff;
    const changed = plan.toAdd.length + plan.toRemove.length + plan.pinChanges.length + plan.requiredChanges.length > 0 || orderChanged;
    if (input.config && !changed) repo.touchList(deps.sqlite, input.listId, now);
    if (changed) {
      const removed = plan.toRemove.map((id) => {
        const it = byId.get(id)!;
        return { workshop_id: id, name: it.name, version: it.pinned_version, required: repo.requiredOf(it.required) };
      });
      const requiredChanged = d.required_changed.map((r) => ({ workshop_id: r.workshop_id, name: r.name, old_required: r.old_required, new_required: r.new_required }));
      const versionChanged = d.version_changed.map((v) => ({ workshop_id: v.workshop_id, name: v.name, old_version: v.old_version, new_version: v.new_version }));
      const added = plan.toAdd.map((a) => ({ workshop_id: a.workshop_id, name: a.name || a.workshop_id, version: a.pinned_version }));
      repo.insertAudit(deps.sqlite, {
        id: newId(),
        listId: input.listId,
        action: "import",
        workshopId: null,
        modName: null,
        oldValue: {
          removed,
          version_changed: versionChanged,
          ...(requiredChanged.length ? { required_changed: requiredChanged } : {}),
          ...(orderChanged || removed.length ? { order: oldOrder } : {}),
        },
        newValue: { added, version_changed: versionChanged, ...(requiredChanged.length ? { required_changed: requiredChanged } : {}) },
        userId: input.userId,
        at: now,
      });
      recordEvent(t, {
        kind: "list_imported",
        listId: input.listId,
        actorId: input.userId,
        data: { added: added.length, removed: removed.length, version_changed: versionChanged.length, source: input.source ?? "import" },
        at: now,
      });
      repo.touchList(deps.sqlite, input.listId, now);
    }
    return { ok: true as const, added: plan.toAdd.length, removed: plan.toRemove.length, version_changed: plan.pinChanges.length };
  });
}
