// The folders feature's SQL statements (folders; a folder's list count is read from the lists
// table, public: docs/architecture.md "Features and their public faces"). Each is `sqlite.query`,
// compiled once per connection and kept by bun:sqlite under its text.
import type { Database } from "bun:sqlite";

/** The owner's folders, by name, with how many lists each holds. */
export const foldersOf = (sqlite: Database, ownerId: string) =>
  sqlite
    .query(
      `SELECT f.id, f.name, f.created_at, (SELECT COUNT(*) FROM lists l WHERE l.folder_id = f.id) AS list_count
       FROM folders f WHERE f.owner_id = ? ORDER BY f.name, f.id`,
    )
    .all(ownerId) as { id: string; name: string; created_at: number; list_count: number }[];

export const insertFolder = (sqlite: Database, id: string, ownerId: string, name: string, at: number) =>
  sqlite.query("INSERT INTO folders (id, owner_id, name, created_at) VALUES (?, ?, ?, ?)").run(id, ownerId, name, at);

/** Deletes the owner's folder (its lists' folder_id is cleared by the foreign key); false when the owner has no such folder. */
export const deleteFolder = (sqlite: Database, id: string, ownerId: string) => sqlite.query("DELETE FROM folders WHERE id = ? AND owner_id = ?").run(id, ownerId).changes > 0;
