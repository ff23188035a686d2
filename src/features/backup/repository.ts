// The backup feature's SQL statements. Each runs on a connection of its own that the service
// opens on a database file (the live one to copy it, a copy to check it) and closes again, so
// nothing here is kept between calls.
import type { Database } from "bun:sqlite";

/** Copies the database into `target` (an empty file) in one read transaction, waiting up to 5 s for a lock. */
export function vacuumInto(db: Database, target: string): void {
  db.exec("PRAGMA busy_timeout = 5000");
  db.query("VACUUM INTO ?").run(target);
}

/** PRAGMA quick_check's lines ("ok" when sound). */
export const quickCheck = (db: Database) => (db.query("PRAGMA quick_check").all() as { quick_check: string }[]).map((r) => r.quick_check);

/** PRAGMA integrity_check's lines ("ok" when sound). */
export const integrityCheck = (db: Database) => (db.query("PRAGMA integrity_check").all() as { integrity_check: string }[]).map((r) => r.integrity_check);

export const hasTable = (db: Database, name: string) => !!db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name);

/** The created_at of every migration drizzle recorded as applied. */
export const appliedMigrations = (db: Database) => db.query("SELECT created_at FROM __drizzle_migrations").all() as { created_at: number }[];

/** Folds the WAL into the database file and empties it. */
export const checkpointTruncate = (db: Database) => db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
