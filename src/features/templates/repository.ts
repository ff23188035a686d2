// The templates feature's SQL statements (templates, template_mods, template_links); a mod's name
// is read from the catalog's mods table (public: docs/architecture.md "Features and their public
// faces"). Each is `sqlite.query`, compiled once per connection and kept by bun:sqlite.
import type { Database } from "bun:sqlite";

export type TemplateRow = { id: string; name: string; description: string; owner_id: string; source_list_id: string | null; created_at: number; updated_at: number };
export type TemplateModRow = { template_id: string; workshop_id: string; name: string; version: string | null };

/** The mods of these templates, in each template's order, named by the catalog where it knows them. */
export const templateModRows = (sqlite: Database, ids: readonly string[]) =>
  sqlite
    .query(
      `SELECT tm.template_id, tm.workshop_id, COALESCE(NULLIF(m.name, ''), NULLIF(tm.name, ''), tm.workshop_id) AS name, tm.version
       FROM template_mods tm LEFT JOIN mods m ON m.workshop_id = tm.workshop_id
       WHERE tm.template_id IN (SELECT value FROM json_each(?)) ORDER BY tm.template_id, tm.position`,
    )
    .all(JSON.stringify(ids)) as TemplateModRow[];

export const templateRows = (sqlite: Database) => sqlite.query("SELECT * FROM templates ORDER BY name, id").all() as TemplateRow[];

export const templateRow = (sqlite: Database, id: string) => sqlite.query("SELECT * FROM templates WHERE id = ?").get(id) as TemplateRow | null;

export const insertTemplate = (sqlite: Database, row: TemplateRow) =>
  sqlite
    .query("INSERT INTO templates (id, owner_id, name, description, source_list_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
    .run(row.id, row.owner_id, row.name, row.description, row.source_list_id, row.created_at, row.updated_at);

export const touchTemplate = (sqlite: Database, id: string, at: number) => sqlite.query("UPDATE templates SET updated_at = ? WHERE id = ?").run(at, id);

/** Deletes the template; false when there was none. */
export const deleteTemplate = (sqlite: Database, id: string) => sqlite.query("DELETE FROM templates WHERE id = ?").run(id).changes > 0;

/** Replaces the template's mods with `mods`, in that order. */
export function replaceTemplateMods(sqlite: Database, templateId: string, mods: readonly { modId: string; name: string; version?: string | null }[]) {
  sqlite.query("DELETE FROM template_mods WHERE template_id = ?").run(templateId);
  const ins = sqlite.query("INSERT INTO template_mods (template_id, workshop_id, name, version, position) VALUES (?, ?, ?, ?, ?)");
  mods.forEach((m, i) => ins.run(templateId, m.modId, m.name, m.version ?? null, i));
}

// ---- the lists subscribed to a template

/** Subscribes the list to the template (nothing when it is already). */
export const insertTemplateLink = (sqlite: Database, listId: string, templateId: string, at: number) =>
  sqlite.query("INSERT OR IGNORE INTO template_links (list_id, template_id, created_at) VALUES (?, ?, ?)").run(listId, templateId, at);

/** The lists subscribed to the template, first subscribed first. */
export const linkedListIds = (sqlite: Database, templateId: string) =>
  sqlite.query("SELECT list_id FROM template_links WHERE template_id = ? ORDER BY created_at").all(templateId) as { list_id: string }[];

/** The templates the list is subscribed to, with their mod counts. */
export const templateLinkRows = (sqlite: Database, listId: string) =>
  sqlite
    .query(
      `SELECT t.id AS template_id, t.name, t.description, l.created_at, (SELECT COUNT(*) FROM template_mods tm WHERE tm.template_id = t.id) AS mod_count
         FROM template_links l JOIN templates t ON t.id = l.template_id WHERE l.list_id = ? ORDER BY l.created_at`,
    )
    .all(listId) as { template_id: string; name: string; description: string; created_at: number; mod_count: number }[];

/** Unsubscribes the list; false when it was not subscribed. */
export const deleteTemplateLink = (sqlite: Database, listId: string, templateId: string) =>
  sqlite.query("DELETE FROM template_links WHERE list_id = ? AND template_id = ?").run(listId, templateId).changes > 0;
