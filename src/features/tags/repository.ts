// The tags feature's SQL statements (tags, list_tags). Each is `sqlite.query`, compiled once per
// connection and kept by bun:sqlite under its text.
import type { Database } from "bun:sqlite";

export type TagRow = { id: string; name: string; color: string; owner_id: string; created_at: number };
/** A tag as a list shows it. */
export type ListTagRow = { id: string; name: string; color: string };

export const allTags = (sqlite: Database) => sqlite.query("SELECT * FROM tags ORDER BY name, id").all() as TagRow[];

export const tagsOf = (sqlite: Database, ownerId: string) => sqlite.query("SELECT * FROM tags WHERE owner_id = ? ORDER BY name, id").all(ownerId) as TagRow[];

/** Whether the owner has a tag of that name (case-insensitive). */
export const ownerHasTagNamed = (sqlite: Database, ownerId: string, name: string) =>
  !!sqlite.query("SELECT 1 FROM tags WHERE owner_id = ? AND name = ? COLLATE NOCASE").get(ownerId, name);

export const insertTag = (sqlite: Database, row: TagRow) =>
  sqlite.query("INSERT INTO tags (id, owner_id, name, color, created_at) VALUES (?, ?, ?, ?, ?)").run(row.id, row.owner_id, row.name, row.color, row.created_at);

/** Deletes the owner's tag (and so its assignments); false when the owner has no such tag. */
export const deleteTag = (sqlite: Database, id: string, ownerId: string) => sqlite.query("DELETE FROM tags WHERE id = ? AND owner_id = ?").run(id, ownerId).changes > 0;

export const tagOfId = (sqlite: Database, id: string) => sqlite.query("SELECT id, name, color FROM tags WHERE id = ?").get(id) as ListTagRow | null;

// ---- a list's tags

export const tagsOfList = (sqlite: Database, listId: string) =>
  sqlite.query("SELECT t.id, t.name, t.color FROM list_tags lt JOIN tags t ON t.id = lt.tag_id WHERE lt.list_id = ? ORDER BY t.name").all(listId) as ListTagRow[];

/** Assigns the tag to the list; false when it was assigned already. */
export const assignTag = (sqlite: Database, listId: string, tagId: string, at: number) =>
  sqlite.query("INSERT OR IGNORE INTO list_tags (list_id, tag_id, created_at) VALUES (?, ?, ?)").run(listId, tagId, at).changes > 0;

/** Removes the tag from the list; false when it was not assigned. */
export const unassignTag = (sqlite: Database, listId: string, tagId: string) =>
  sqlite.query("DELETE FROM list_tags WHERE list_id = ? AND tag_id = ?").run(listId, tagId).changes > 0;
