// Backups and restore of the data directory (docs/operations.md "Backup, off-site copy and
// restore").
//
// A backup is the database copied with VACUUM INTO on its own connection (one consistent read
// transaction: every row committed before it began, nothing after; writers go on meanwhile in
// WAL mode) plus the generated key files beside it, `<backup>.secret-key` and
// `<backup>.jwt-secret`, copies of the data dir's files (not written when the key comes from
// the environment: that copy is the operator's to keep). The copy is written as `.partial` and
// renamed when complete, so a file named `*.db` is always whole.
//
// Restore (the caller holds the data dir's lock, so no server runs): the file is copied into
// the data dir, checked (PRAGMA integrity_check, the drizzle migrations table: a backup of a
// newer schema is refused, an older one is migrated by the next start), the key that will be
// in force is checked against the key ids sealed into the backup's server credentials and
// webhook secrets, the current database (with its -wal/-shm) and any replaced key file are
// renamed aside with a timestamp (never deleted), and the copy takes the database's place.
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Config } from "../../config";
import { loadMigrations, newestMigrationMillis } from "../../db/client";
import { keyId, parseKey, sealedKeyId } from "../../shared/crypto";
import { DB_FILE, ensurePrivateDir, ensurePrivateFile } from "../../shared/data-dir";

export const BACKUPS_DIR = "backups";
/** Scheduled backups: the only ones retention deletes (manual `loadout-*.db` ones are kept). */
export const SCHEDULED_PREFIX = "scheduled-";

/** The generated key files: data dir name, the variable that replaces it, what it protects. */
export const KEY_FILES = [
  { file: "secret-key", env: "LOADOUT_SECRET_KEY", protects: "stored server credentials and webhook signing secrets (AES-256-GCM)" },
  { file: "jwt-secret", env: "LOADOUT_JWT_SECRET", protects: "sign-in tokens (without it users sign in again; API keys keep working)" },
] as const;
type KeyFile = (typeof KEY_FILES)[number];

/** A refusal: the message says why and what to do; nothing was changed. */
export class BackupError extends Error {}

const stamp = (d: Date) => d.toISOString().replace(/[:.]/g, "-");
export const backupsDir = (config: Config) => join(config.LOADOUT_DATA_DIR, BACKUPS_DIR);
/** `<data dir>/backups/<prefix><time>.db`. */
export const backupPath = (config: Config, prefix: string, now: Date) => join(backupsDir(config), `${prefix}${stamp(now)}.db`);
const besideKey = (backup: string, k: KeyFile) => `${backup}.${k.file}`;

function writePrivate(path: string, data: string | Buffer) {
  writeFileSync(path, data, { mode: 0o600 });
  chmodSync(path, 0o600);
}

export interface BackupResult {
  file: string;
  /** Key files written beside it. */
  keys: string[];
  /** Keys that come from the environment and were not written: keep them with the backup. */
  keys_in_environment: string[];
  bytes: number;
}

/** Writes a consistent copy of the data dir's database to `target`, the key files beside it. */
export function writeBackup(config: Config, target: string): BackupResult {
  const dbPath = join(config.LOADOUT_DATA_DIR, DB_FILE);
  if (!existsSync(dbPath)) throw new BackupError(`no database at ${dbPath}`);
  target = resolve(target);
  if (existsSync(target)) throw new BackupError(`refusing to overwrite ${target}`);
  if (dirname(target) === resolve(backupsDir(config))) ensurePrivateDir(dirname(target));
  const partial = `${target}.partial`;
  rmSync(partial, { force: true }); // a copy cut off earlier
  ensurePrivateFile(partial); // VACUUM INTO fills an empty file and keeps its mode: 0600
  const db = new Database(dbPath);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.query("VACUUM INTO ?").run(partial);
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  } finally {
    db.close();
  }
  const check = quickCheck(partial);
  if (check !== "ok") {
    rmSync(partial, { force: true });
    throw new BackupError(`the copy failed its check (${check}); nothing was written`);
  }
  const keys: string[] = [];
  const keysInEnvironment: string[] = [];
  for (const k of KEY_FILES) {
    if (config[k.env]) {
      keysInEnvironment.push(k.env);
      continue;
    }
    const src = join(config.LOADOUT_DATA_DIR, k.file);
    if (!existsSync(src)) continue;
    writePrivate(besideKey(target, k), readFileSync(src));
    keys.push(besideKey(target, k));
  }
  renameSync(partial, target);
  return { file: target, keys, keys_in_environment: keysInEnvironment, bytes: statSync(target).size };
}

function quickCheck(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    return (db.query("PRAGMA quick_check").all() as { quick_check: string }[]).map((r) => r.quick_check).join("; ");
  } finally {
    db.close();
  }
}

/** Scheduled backups in `<data dir>/backups`, oldest first (their names sort by time). */
export function scheduledBackups(config: Config): string[] {
  const dir = backupsDir(config);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.startsWith(SCHEDULED_PREFIX) && f.endsWith(".db"))
    .sort()
    .map((f) => join(dir, f));
}

/** Deletes the oldest scheduled backups (with their key files) beyond `keep`; returns what went. */
export function pruneScheduledBackups(config: Config, keep: number): string[] {
  const all = scheduledBackups(config);
  const gone = all.slice(0, Math.max(0, all.length - keep));
  for (const f of gone) {
    for (const k of KEY_FILES) rmSync(besideKey(f, k), { force: true });
    rmSync(f, { force: true });
  }
  return gone;
}

// ---------------------------------------------------------------------------------------------
// Restore

export interface RestoreOptions {
  /** Go ahead although no available key opens the backup's sealed secrets. */
  withoutKeys?: boolean;
  now?: Date;
}

export interface RestoreReport {
  restored: string;
  database: string;
  /** Files renamed aside (never deleted). */
  kept_aside: string[];
  /** Key files put in place from beside the backup. */
  keys_restored: string[];
  /** What to know about each key (missing, from the environment, kept). */
  key_notes: string[];
  schema: { backup_migrations: number; binary_migrations: number; migrated_at_next_start: number };
  sealed_secrets: { server_credentials: number; webhook_secrets: number; key_ok: boolean };
}

interface Inspection {
  applied: number;
  pending: number;
  credentials: number;
  webhookSecrets: number;
  /** Key ids the sealed secrets were encrypted with. */
  keyIds: Set<string>;
}

const hasTable = (db: Database, name: string) => !!db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name);

/** Integrity, schema version and sealed key ids of a database file; throws BackupError. */
export function inspectBackup(path: string, label = path): Inspection {
  let db: Database;
  try {
    db = new Database(path);
  } catch (e) {
    throw new BackupError(`${label} cannot be opened: ${e instanceof Error ? e.message : String(e)}; nothing was changed`);
  }
  try {
    let problems: string[];
    try {
      problems = (db.query("PRAGMA integrity_check").all() as { integrity_check: string }[]).map((r) => r.integrity_check);
    } catch (e) {
      throw new BackupError(`${label} is not a readable SQLite database (${e instanceof Error ? e.message : String(e)}); nothing was changed`);
    }
    if (problems.length !== 1 || problems[0] !== "ok") {
      throw new BackupError(`${label} failed its integrity check (${problems.slice(0, 3).join("; ")}${problems.length > 3 ? "; ..." : ""}); nothing was changed`);
    }
    if (!hasTable(db, "__drizzle_migrations") || !hasTable(db, "lists")) {
      throw new BackupError(`${label} is an SQLite database but not a loadout database (no migrations table); nothing was changed`);
    }
    // drizzle's migrator runs every migration newer than the last one applied: the same test here.
    const rows = db.query("SELECT created_at FROM __drizzle_migrations").all() as { created_at: number }[];
    const last = rows.reduce((m, r) => Math.max(m, Number(r.created_at)), 0);
    const known = loadMigrations();
    const newest = newestMigrationMillis(known);
    if (last > newest) {
      throw new BackupError(
        `${label} comes from a newer loadout: its schema has a migration of ${new Date(last).toISOString()}, this binary knows migrations up to ${new Date(newest).toISOString()} (${known.length}); restore it with that newer version; nothing was changed`,
      );
    }
    const keyIds = new Set<string>();
    let credentials = 0;
    let webhookSecrets = 0;
    if (hasTable(db, "server_credentials")) {
      for (const r of db.query("SELECT key_id FROM server_credentials").all() as { key_id: string }[]) {
        credentials++;
        keyIds.add(r.key_id);
      }
    }
    if (hasTable(db, "webhooks")) {
      for (const r of db.query("SELECT secret FROM webhooks WHERE secret IS NOT NULL").all() as { secret: string }[]) {
        webhookSecrets++;
        const id = sealedKeyId(r.secret);
        if (id) keyIds.add(id);
      }
    }
    return { applied: rows.length, pending: known.filter((k) => k.folderMillis > last).length, credentials, webhookSecrets, keyIds };
  } finally {
    db.close();
  }
}

/** Renames `path` to `<path>.before-restore-<time>` (and its -wal/-shm/-journal alike); returns the new names. */
function setAside(path: string, tag: string): string[] {
  const moved: string[] = [];
  for (const suffix of ["", "-wal", "-shm", "-journal"]) {
    if (!existsSync(path + suffix)) continue;
    const to = `${path}.before-restore-${tag}${suffix}`;
    renameSync(path + suffix, to);
    moved.push(to);
  }
  return moved;
}

/** Folds a WAL into its database so the file set aside is whole on its own (best effort). */
function checkpoint(path: string) {
  if (!existsSync(path)) return;
  try {
    const db = new Database(path);
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    db.close();
  } catch {
    // unreadable: it is set aside with its -wal as it is
  }
}

/** Puts `file` in place of the data dir's database; the caller holds the data dir's lock. */
export function restoreBackup(config: Config, file: string, opts: RestoreOptions = {}): RestoreReport {
  const source = resolve(file);
  if (!existsSync(source) || !statSync(source).isFile()) throw new BackupError(`no backup file at ${source}`);
  const dir = ensurePrivateDir(config.LOADOUT_DATA_DIR);
  const dbPath = join(dir, DB_FILE);
  if (source === resolve(dbPath)) throw new BackupError(`${source} is the data directory's own database`);
  const staging = `${dbPath}.restoring`;
  for (const s of ["", "-wal", "-shm", "-journal"]) rmSync(staging + s, { force: true }); // an attempt cut off earlier
  ensurePrivateFile(staging);
  copyFileSync(source, staging);
  chmodSync(staging, 0o600);
  const discard = () => {
    for (const s of ["", "-wal", "-shm", "-journal"]) rmSync(staging + s, { force: true });
  };
  try {
    const found = inspectBackup(staging, basename(source));

    // Keys: which secret-key will be in force after the restore, and does it open the backup?
    const keyNotes: string[] = [];
    const beside = new Map<KeyFile["file"], string>();
    for (const k of KEY_FILES) {
      const p = besideKey(source, k);
      if (existsSync(p)) beside.set(k.file, readFileSync(p, "utf8").trim());
      if (config[k.env]) keyNotes.push(`${k.file}: ${k.env} is set and stays in force${beside.has(k.file) ? ` (the ${basename(p)} beside the backup is installed as the file, which ${k.env} overrides)` : ""}`);
      else if (!beside.has(k.file)) {
        const current = existsSync(join(dir, k.file));
        keyNotes.push(
          `${k.file}: no ${basename(p)} beside the backup; ${current ? `the data directory's current ${k.file} stays` : `a new ${k.file} is generated at the next start`}. It protects ${k.protects}`,
        );
      }
    }
    const credentialKeyText = config.LOADOUT_SECRET_KEY ?? beside.get("secret-key") ?? (existsSync(join(dir, "secret-key")) ? readFileSync(join(dir, "secret-key"), "utf8").trim() : null);
    let inForce: string | null = null;
    try {
      inForce = credentialKeyText ? keyId(parseKey(credentialKeyText)) : null;
    } catch {
      inForce = null;
    }
    const missing = [...found.keyIds].filter((id) => id !== inForce);
    const keyOk = missing.length === 0;
    if (!keyOk) {
      const what = `${found.credentials} server credential(s) and ${found.webhookSecrets} webhook secret(s)`;
      const need =
        `the secret-key file of the data directory the backup was made from (key id ${missing.join(", ")}): put it beside the backup as ${basename(source)}.secret-key, ` +
        `or set LOADOUT_SECRET_KEY to it`;
      const source_ = config.LOADOUT_SECRET_KEY ? "LOADOUT_SECRET_KEY" : beside.has("secret-key") ? `${basename(source)}.secret-key` : credentialKeyText ? `the current ${join(dir, "secret-key")}` : "no key at all";
      const msg = `the backup's ${what} are sealed with a key that would not be in force (${source_}${inForce ? `, key id ${inForce}` : ""}). Needed: ${need}`;
      if (!opts.withoutKeys) throw new BackupError(`${msg}; nothing was changed (--without-keys restores anyway: those secrets must then be entered again)`);
      keyNotes.push(`${msg}. Restored anyway (--without-keys): enter those credentials and webhooks again`);
    }

    // Everything checked: set the current files aside, then move the copy and keys in.
    const tag = stamp(opts.now ?? new Date());
    checkpoint(dbPath);
    const keptAside = setAside(dbPath, tag);
    const keysRestored: string[] = [];
    for (const k of KEY_FILES) {
      const value = beside.get(k.file);
      if (value === undefined) continue;
      const dest = join(dir, k.file);
      if (existsSync(dest) && readFileSync(dest, "utf8").trim() === value) continue; // already the same key
      keptAside.push(...setAside(dest, tag));
      writePrivate(dest, value + "\n");
      keysRestored.push(dest);
    }
    renameSync(staging, dbPath);
    return {
      restored: source,
      database: dbPath,
      kept_aside: keptAside,
      keys_restored: keysRestored,
      key_notes: keyNotes,
      schema: { backup_migrations: found.applied, binary_migrations: loadMigrations().length, migrated_at_next_start: found.pending },
      sealed_secrets: { server_credentials: found.credentials, webhook_secrets: found.webhookSecrets, key_ok: keyOk },
    };
  } catch (e) {
    discard();
    throw e;
  }
}
