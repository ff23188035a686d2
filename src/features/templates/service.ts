// Templates: a named copy of a list's mods that lists subscribe to. Importing a template into a
// list adds its mods (and subscribes the list); pushing re-reads the template from its source
// list and applies it to every subscribed list, one audited `import` change per list.
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { toIso } from "../../shared/time";
import { listModsForExport, applyImport, type ApplyImportResult, inTransaction, listItemKeys, type ImportEntry } from "../lists";

type TemplateRow = { id: string; name: string; description: string; owner_id: string; source_list_id: string | null; created_at: number; updated_at: number };
type TemplateModRow = { template_id: string; workshop_id: string; name: string; version: string | null };

function modsOf(deps: Deps, ids: string[]) {
  const rows = deps.sqlite
    .query(
      `SELECT tm.template_id, tm.workshop_id, COALESCE(NULLIF(m.name, ''), NULLIF(tm.name, ''), tm.workshop_id) AS name, tm.version
       FROM template_mods tm LEFT JOIN mods m ON m.workshop_id = tm.workshop_id
       WHERE tm.template_id IN (SELECT value FROM json_each(?)) ORDER BY tm.template_id, tm.position`,
    )
    .all(JSON.stringify(ids)) as TemplateModRow[];
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
  const rows = deps.sqlite.query("SELECT * FROM templates ORDER BY name, id").all() as TemplateRow[];
  const mods = modsOf(deps, rows.map((r) => r.id));
  return rows.map((r) => view(r, mods.get(r.id) ?? []));
}

export function getTemplate(deps: Deps, id: string) {
  const t = deps.sqlite.query("SELECT * FROM templates WHERE id = ?").get(id) as TemplateRow | null;
  if (!t) throw new AppError("template.not_found", "template not found");
  return t;
}

/** Replaces the template's mods with the list's current mods (pinned versions kept). */
function copyMods(deps: Deps, templateId: string, listId: string) {
  const mods = listModsForExport(deps, listId, "fixed");
  deps.sqlite.query("DELETE FROM template_mods WHERE template_id = ?").run(templateId);
  const ins = deps.sqlite.query("INSERT INTO template_mods (template_id, workshop_id, name, version, position) VALUES (?, ?, ?, ?, ?)");
  mods.forEach((m, i) => ins.run(templateId, m.modId, m.name, m.version ?? null, i));
}

export function createTemplate(deps: Deps, userId: string, input: { list_id: string; name: string; description?: string }) {
  const now = deps.clock.now();
  const row: TemplateRow = { id: newId(), name: input.name, description: input.description ?? "", owner_id: userId, source_list_id: input.list_id, created_at: now, updated_at: now };
  inTransaction(
    deps,
    () => {
      deps.sqlite
        .query("INSERT INTO templates (id, owner_id, name, description, source_list_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .run(row.id, row.owner_id, row.name, row.description, row.source_list_id, now, now);
      copyMods(deps, row.id, input.list_id);
    },
  );
  return view(row, modsOf(deps, [row.id]).get(row.id) ?? []);
}

export function deleteTemplate(deps: Deps, id: string) {
  const r = deps.sqlite.query("DELETE FROM templates WHERE id = ?").run(id);
  if (r.changes === 0) throw new AppError("template.not_found", "template not found");
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
      deps.sqlite.query("INSERT OR IGNORE INTO template_links (list_id, template_id, created_at) VALUES (?, ?, ?)").run(listId, templateId, deps.clock.now());
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
  if (t.source_list_id && deps.sqlite.query("SELECT 1 FROM lists WHERE id = ?").get(t.source_list_id)) {
    inTransaction(deps, () => {
      copyMods(deps, t.id, t.source_list_id!);
      deps.sqlite.query("UPDATE templates SET updated_at = ? WHERE id = ?").run(deps.clock.now(), t.id);
    });
  }
  const mods = modsOf(deps, [templateId]).get(templateId) ?? [];
  const links = deps.sqlite.query("SELECT list_id FROM template_links WHERE template_id = ? ORDER BY created_at").all(templateId) as { list_id: string }[];
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
  return (
    deps.sqlite
      .query(
        `SELECT t.id AS template_id, t.name, t.description, l.created_at, (SELECT COUNT(*) FROM template_mods tm WHERE tm.template_id = t.id) AS mod_count
         FROM template_links l JOIN templates t ON t.id = l.template_id WHERE l.list_id = ? ORDER BY l.created_at`,
      )
      .all(listId) as { template_id: string; name: string; description: string; created_at: number; mod_count: number }[]
  ).map((r) => ({ ...r, created_at: toIso(r.created_at) }));
}

export function unlinkTemplate(deps: Deps, listId: string, templateId: string) {
  const r = deps.sqlite.query("DELETE FROM template_links WHERE list_id = ? AND template_id = ?").run(listId, templateId);
  if (r.changes === 0) throw new AppError("template.link_not_found", "template link not found");
}
