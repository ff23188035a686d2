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
import { planImportConfig, type ConfigChoice } from "./import-config";
import { changedKeys, loadRemembered, replaceRemembered } from "./remembered-config";
import { parseJsonDocument } from "../../shared/jsonc";

function parseBody(raw: string): ParsedImport {
  try {
    return parseImportBody(raw, MAX_MODS);
  } catch (e) {
    if (e instanceof ImportFormatError) throw new AppError("import.unreadable", e.message);
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
      throw new AppError("mod.version_unknown", `${entryLabel(shape, i)}.version: version ${version} does not exist for mod ${e.workshop_id}`);
    }
  });
}

/** How an import is asked for: the file's text, and what to do with its pins, order and settings. */
export interface ImportRequest {
  raw: string;
  checkOrder: boolean;
  /** `resolve`: what to do with each pin the catalog does not have */
  resolve?: string;
  /** `config`: keep (default) or replace the remembered settings with the file's (owners) */
  config?: ConfigChoice;
  /** Whether the caller may change the remembered config and read its secrets (owners) */
  mayReplaceConfig: boolean;
}

/** The file read, its stale pins resolved as chosen (`resolve`), the plan for it, and what happens to its settings. */
function prepareImport(deps: Deps, listId: string, req: ImportRequest) {
  const parsed = parseBody(req.raw);
  const current = repo.listItemKeys(deps.sqlite, listId);
  const r = resolveImport(deps, listId, parsed, req.resolve, current, (entries) => planFor(deps, listId, entries, req.checkOrder).plan);
  const config = planImportConfig(deps, listId, parsed, { mayReplace: req.mayReplaceConfig }, req.config);
  const p = config.preview;
  r.plan.diff.config = p;
  r.plan.diff.config_changes = [...p.changed, ...p.added, ...p.removed, ...p.secrets.filter((s) => s.state === "changed").map((s) => s.path)];
  r.plan.diff.notes.push(...config.notes);
  return { parsed, ...r, config };
}

/** The diff, with every stale pin (and its chosen resolution), notes and what happens to the file's settings. */
export function importPreview(deps: Deps, listId: string, req: ImportRequest): ImportDiff {
  return prepareImport(deps, listId, req).plan.diff;
}

/** Applies a file: 400 naming every unresolved stale pin; a full config's settings are remembered or replace the remembered ones as the preview says. */
export function importApplyText(deps: Deps, listId: string, userId: string, req: ImportRequest) {
  const { parsed, entries, stale, config } = prepareImport(deps, listId, req);
  const refused = unresolvedError(stale);
  if (refused) throw refused;
  return applyImport(deps, { listId, userId, entries, checkOrder: req.checkOrder, checkPinsOf: parsed.shape, config: config.store ?? undefined });
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
  /** A full config's text, remembered for export/game (replacing what the list had; audited with the import). */
  config?: string;
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
    if (!list) throw new AppError("list.not_found", "list not found");
    if (input.entries.length > MAX_MODS) throw listFull();
    const { plan, rows, items } = planFor(deps, input.listId, input.entries, input.checkOrder);
    if (input.checkPinsOf) checkImportedPins(deps, plan, input.entries, input.checkPinsOf);
    checkAge(list, rows, now);
    const byId = new Map(items.map((i) => [i.workshop_id, i]));
    const removedSet = new Set(plan.toRemove);
    for (const id of plan.toRemove) repo.deleteItem(deps.sqlite, input.listId, id);
    for (const c of plan.pinChanges) repo.setPin(deps.sqlite, input.listId, c.workshop_id, c.pinned_version);
    for (const c of plan.requiredChanges) repo.setRequired(deps.sqlite, input.listId, c.workshop_id, c.required);
    // The remembered config, read in this transaction: what the audit entry names and keeps.
    const before = input.config !== undefined ? loadRemembered(deps, input.listId) : null;
    const configKeys = input.config !== undefined ? changedKeys(before?.doc ?? null, parseJsonDocument(input.config)) : [];
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
    const modsChanged = plan.toAdd.length + plan.toRemove.length + plan.pinChanges.length + plan.requiredChanges.length > 0 || orderChanged;
    const configChanged = input.config !== undefined && (before?.text !== input.config);
    if (modsChanged || configChanged) {
      const removed = plan.toRemove.map((id) => {
        const it = byId.get(id)!;
        return { workshop_id: id, name: it.name, version: it.pinned_version, required: repo.requiredOf(it.required) };
      });
      const requiredChanged = d.required_changed.map((r) => ({ workshop_id: r.workshop_id, name: r.name, old_required: r.old_required, new_required: r.new_required }));
      const versionChanged = d.version_changed.map((v) => ({ workshop_id: v.workshop_id, name: v.name, old_version: v.old_version, new_version: v.new_version }));
      const added = plan.toAdd.map((a) => ({ workshop_id: a.workshop_id, name: a.name || a.workshop_id, version: a.pinned_version }));
      const auditId = newId();
      repo.insertAudit(deps.sqlite, {
        id: auditId,
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
        newValue: {
          added,
          version_changed: versionChanged,
          ...(requiredChanged.length ? { required_changed: requiredChanged } : {}),
          // The settings' change by key, never by value; the config before it is kept sealed for the undo.
          ...(configChanged ? { config: { keys: configKeys } } : {}),
        },
        userId: input.userId,
        at: now,
      });
      if (configChanged) replaceRemembered(deps, input.listId, auditId, before, input.config!, input.userId);
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
