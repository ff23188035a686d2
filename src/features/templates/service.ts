// Templates: a named copy of a list's mods that lists subscribe to. Importing a template into a
// list adds its mods (and subscribes the list); pushing re-reads the template from its source
// list and applies it to every subscribed list, one audited `import` change per list.
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { toIso } from "../../shared/time";
import { listModsForExport, applyImport, type ApplyImportResult, inTransaction, listExists, listItemKeys, type ImportEntry } from "../lists";
import * as repo from "./repository";
import type { TemplateRow } from "./repository";

function modsOf(deps: Deps, ids: string[]) {
  const rows = repo.templateModRows(deps.sqlite, ids);
  const by = new Map<string, { workshop_id: string; name: string; version: string | null }[]>();
  for (const r of rows) {
    let a = by.get(r.template_id);
    if (!a) by.set(r.template_id, (a = []));
    a.push({ workshop_id: r.workshop_id, name: r.name, version: r.version });
  }
  return by;
}

function view(t: TemplateRow, mods: { workshop_id: string; name: string; version: string | null }[]) {
  return { ...t, created_at: toIso(t.created_at), updated_at: toIso(t.updated_at), mod_count: mods.length, mods };
}

export function listTemplates(deps: Deps) {
  const rows = repo.templateRows(deps.sqlite);
  const mods = modsOf(deps, rows.map((r) => r.id));
  return rows.map((r) => view(r, mods.get(r.id) ?? []));
}

export function getTemplate(deps: Deps, id: string) {
  const t = repo.templateRow(deps.sqlite, id);
  if (!t) throw new AppError("template.not_found", "template not found");
  return t;
}

/** Replaces the template's mods with the list's current mods (pinned versions kept). */
function copyMods(deps: Deps, templateId: string, listId: string) {
  repo.replaceTemplateMods(deps.sqlite, templateId, listModsForExport(deps, listId, "fixed"));
}

export function createTemplate(deps: Deps, userId: string, input: { list_id: string; name: string; description?: string }) {
  const now = deps.clock.now();
  const row: TemplateRow = { id: newId(), name: input.name, description: input.description ?? "", owner_id: userId, source_list_id: input.list_id, created_at: now, updated_at: now };
  inTransaction(
    deps,
    () => {
      repo.insertTemplate(deps.sqlite, row);
      copyMods(deps, row.id, input.list_id);
    },
  );
  return view(row, modsOf(deps, [row.id]).get(row.id) ?? []);
}

export function deleteTemplate(deps: Deps, id: string) {
  if (!repo.deleteTemplate(deps.sqlite, id)) throw new AppError("template.not_found", "template not found");
}

/** The list's current mods plus the template's: missing mods added, template pins applied. */
function mergedEntries(deps: Deps, listId: string, mods: { workshop_id: string; name: string; version: string | null }[]): ImportEntry[] {
  const current = listItemKeys(deps.sqlite, listId);
  const tmpl = new Map(mods.map((m) => [m.workshop_id, m]));
  const entries: ImportEntry[] = current.map((c) => {
    const t = tmpl.get(c.workshop_id);
    return { workshop_id: c.workshop_id, name: c.name, version: t?.version ?? c.pinned_version };
  });
  const present = new Set(current.map((c) => c.workshop_id));
  for (const m of mods) if (!present.has(m.workshop_id)) entries.push({ workshop_id: m.workshop_id, name: m.name, version: m.version });
  return entries;
}

/** Adds all template mods to the list (one `import` audit entry) and subscribes the list. */
export function importTemplate(deps: Deps, listId: string, templateId: string, userId: string): ApplyImportResult {
  getTemplate(deps, templateId);
  const mods = modsOf(deps, [templateId]).get(templateId) ?? [];
  return inTransaction(
    deps,
    () => {
      const r = applyImport(deps, { listId, userId, entries: mergedEntries(deps, listId, mods), checkOrder: false, source: "template" });
      repo.insertTemplateLink(deps.sqlite, listId, templateId, deps.clock.now());
      return r;
    },
  );
}

/**
 * Refreshes the template from its source list (when it still exists) and applies it to every
 * subscribed list. A list that refuses (limit, age rule) is reported and left unchanged.
 */
export function pushTemplate(deps: Deps, templateId: string, userId: string) {
  const t = getTemplate(deps, templateId);
  if (t.source_list_id && listExists(deps.sqlite, t.source_list_id)) {
    inTransaction(deps, () => {
      copyMods(deps, t.id, t.source_list_id!);
      repo.touchTemplate(deps.sqlite, t.id, deps.clock.now());
    });
  }
  const mods = modsOf(deps, [templateId]).get(templateId) ?? [];
  const links = repo.linkedListIds(deps.sqlite, templateId);
  const results: { list_id: string; ok: boolean; added: number; removed: number; version_changed: number; error?: string }[] = [];
  for (const { list_id } of links) {
    try {
      const r = applyImport(deps, { listId: list_id, userId, entries: mergedEntries(deps, list_id, mods), checkOrder: false, source: "template" });
      results.push({ list_id, ok: true, added: r.added, removed: r.removed, version_changed: r.version_changed });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      results.push({ list_id, ok: false, added: 0, removed: 0, version_changed: 0, error: e.message });
    }
  }
  return { ok: true, lists: results.length, results };
}

export function templateLinks(deps: Deps, listId: string) {
  return repo.templateLinkRows(deps.sqlite, listId).map((r) => ({ ...r, created_at: toIso(r.created_at) }));
}

export function unlinkTemplate(deps: Deps, listId: string, templateId: string) {
  if (!repo.deleteTemplateLink(deps.sqlite, listId, templateId)) throw new AppError("template.link_not_found", "template link not found");
}
