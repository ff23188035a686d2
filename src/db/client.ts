import type { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { join } from "node:path";
import { existsSync } from "node:fs";
import * as schema from "./schema";
import { embeddedMigrations } from "./migrations.macro" with { type: "macro" };
import { readMigrations, type EmbeddedMigration } from "./migrations.macro";
import { isCompiled } from "../shared/compiled";
import { LoadoutDatabase } from "./connection";

export type DB = BunSQLiteDatabase<typeof schema>;
/** A drizzle transaction or the database itself: repositories accept either. */
export type Tx = Parameters<Parameters<DB["transaction"]>[0]>[0] | DB;

/** SQLite's memory: page cache and memory-mapped window, in MiB (LOADOUT_SQLITE_CACHE_MB, LOADOUT_SQLITE_MMAP_MB). */
export interface SqliteMemory {
  cacheMb: number;
  mmapMb: number;
  /** PRAGMA wal_autocheckpoint, pages (LOADOUT_SQLITE_WAL_AUTOCHECKPOINT; SQLite's default 1000 when absent). */
  walAutocheckpoint?: number;
}
/** The defaults: a memory-mapped window cost 250 MiB of RSS and saved no measurable CPU, nor did a 32 MiB page cache over 16 (docs/performance.md, "Memory"). */
export const DEFAULT_SQLITE_MEMORY: SqliteMemory = { cacheMb: 16, mmapMb: 0 };

/** The size the service's connection trims the WAL file to when it starts it over (PRAGMA journal_size_limit), bytes. */
export const WAL_SIZE_LIMIT = 32 * 2 ** 20;

/**
 * Opens the database: a LoadoutDatabase, the bun:sqlite handle that carries its prepared
 * statements and read models and drops them when it closes (connection.ts).
 */
export function openDatabase(path: string, mem: SqliteMemory = DEFAULT_SQLITE_MEMORY): { db: DB; sqlite: LoadoutDatabase } {
  const sqlite = new LoadoutDatabase(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA temp_store = MEMORY");
  sqlite.exec(`PRAGMA cache_size = ${-Math.round(mem.cacheMb * 1024)}`); // negative: KiB
  sqlite.exec(`PRAGMA mmap_size = ${Math.round(mem.mmapMb * 2 ** 20)}`);
  if (mem.walAutocheckpoint !== undefined) sqlite.exec(`PRAGMA wal_autocheckpoint = ${Math.round(mem.walAutocheckpoint)}`);
  // A connection at SQLite's checkpoint threshold (the service) trims the WAL file back to
  // WAL_SIZE_LIMIT when it starts it over: SQLite otherwise keeps the file as large as it ever
  // grew, and the crawl's process, which checkpoints only every 20,000 pages (~80 MB), would leave
  // that on disk. The crawl's own connection keeps its file (trimming it after each of its
  // checkpoints would only grow it again).
  if ((mem.walAutocheckpoint ?? 1000) <= 1000) sqlite.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT}`);
  const db = drizzle(sqlite, { schema });
  return { db, sqlite };
}

/**
 * Runs `fn` with SQLite's page cache at least `mb` MiB, then puts the configured size back (SQLite
 * frees the pages past it). For a big write: the live scan's first sight once inserted ~200,000
 * mod rows into an index keyed by workshop id, scattered over the file; with a 16 MiB cache and
 * `pread` (no memory map) its pages were read again and again (runScan 2.8 s with 32 MiB, 12-13 s
 * with 16). That index is gone; the scan now asks for 16 MiB, the
 * default (SCAN_PAGE_CACHE_MB), so only a smaller configured cache grows.
 */
export function withPageCache<T>(sqlite: Database, mb: number, fn: () => T): T {
  const was = (sqlite.query("PRAGMA cache_size").get() as { cache_size: number }).cache_size;
  const want = -Math.round(mb * 1024);
  // Negative sizes are KiB, positive ones pages; only grow, never shrink what an operator set.
  const bytes = (v: number) => (v < 0 ? -v * 1024 : v * (sqlite.query("PRAGMA page_size").get() as { page_size: number }).page_size);
  if (bytes(was) >= bytes(want)) return fn();
  sqlite.exec(`PRAGMA cache_size = ${want}`);
  try {
    return fn();
  } finally {
    sqlite.exec(`PRAGMA cache_size = ${was}`);
  }
}

/** Running as the compiled executable (src/shared/compiled.ts). */
export { isCompiled };

/**
 * Migrations: inlined at build time for the compiled binary; read from drizzle/ when running
 * from source (so a freshly generated migration is picked up without a transpiler cache).
 */
export function loadMigrations(): EmbeddedMigration[] {
  const folder = join(import.meta.dir, "../../drizzle");
  if (!isCompiled() && existsSync(join(folder, "meta/_journal.json"))) return readMigrations(folder);
  return embeddedMigrations();
}

/**
 * Whether every embedded migration is applied (drizzle applies those newer than the last one
 * recorded): a worker process checks this instead of migrating, since a different executable
 * (the binary replaced under a running service) must not change the schema under its parent.
 */
export function migrationsApplied(db: DB): boolean {
  const newest = newestMigrationMillis();
  if (!newest) return true;
  try {
    const row = (db as any).$client.query("SELECT max(created_at) AS at FROM __drizzle_migrations").get() as { at: number | null };
    return Number(row?.at ?? 0) >= newest;
  } catch {
    return false;
  }
}

/**
 * The time of the newest of these migrations (drizzle's folderMillis; 0 for none): drizzle applies
 * every migration newer than the last one a database records, so a database is current when its
 * newest `created_at` is at least this.
 */
export function newestMigrationMillis(migrations: readonly { folderMillis: number }[] = loadMigrations()): number {
  return migrations.reduce((m, k) => Math.max(m, k.folderMillis), 0);
}

export function migrate(db: DB): number {
  const migrations = loadMigrations();
  // drizzle's own SQLite migrator: same __drizzle_migrations bookkeeping as the stock one.
  (db as any).dialect.migrate(migrations, (db as any).session, {});
  return migrations.length;
}
