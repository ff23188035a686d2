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
// Restore (the caller holds the data dir's lock, so no server runs): the paths are checked (none
// may resolve to the live database, its -wal/-shm/-journal or key files), the key files beside
// the backup are checked (an empty or malformed one is refused, never installed), the file is
// copied into the data dir and checked (PRAGMA integrity_check, the drizzle migrations table: a
// backup of a newer schema is refused, an older one is migrated by the next start), every
// sealed value the backup holds (every feature's sealed columns, src/db/sealed.ts) is opened
// with the key that will be in force, the current database (with its -wal/-shm) and any
// replaced key file are renamed aside with a timestamp (never deleted), and the copy takes the
// database's place. Every refusal is one line and changes nothing.
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, lstatSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Config } from "../../config";
import { loadMigrations, newestMigrationMillis } from "../../db/client";
import { KEY_BYTES, keyId, parseKey } from "../../shared/crypto";
import { checkSealedColumns, type SealedCheck, type SealedColumn } from "../../db/sealed";
import { DB_FILE, ensurePrivateDir, ensurePrivateFile } from "../../shared/data-dir";
import * as repo from "./repository";

export const BACKUPS_DIR = "backups";
/** Scheduled backups: the only ones retention deletes (manual `loadout-*.db` ones are kept). */
export const SCHEDULED_PREFIX = "scheduled-";

/** The generated key files: data dir name, the variable that replaces it, what it protects. */
export const KEY_FILES = [
  { file: "secret-key", env: "LOADOUT_SECRET_KEY", protects: "every sealed value: server credentials, webhook signing secrets, list and deployment configs (AES-256-GCM)" },
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
    repo.vacuumInto(db, partial);
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
    return repo.quickCheck(db).join("; ");
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
  /** Go ahead although the key that will be in force does not open every sealed value of the backup. */
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
  sealed_secrets: {
    server_credentials: number;
    webhook_secrets: number;
    /** Every value of the backup that had to open did: with the key that will be in force. */
    key_ok: boolean;
    /** Per sealed column (`table.column`): values sealed, opened with the key in force, still in clear (sealed at the next start). */
    columns: Record<string, { sealed: number; opened: number; clear: number }>;
  };
}

interface Inspection {
  applied: number;
  pending: number;
}

/** Integrity and schema version of a database file; throws BackupError. */
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
      problems = repo.integrityCheck(db);
    } catch (e) {
      throw new BackupError(`${label} is not a readable SQLite database (${e instanceof Error ? e.message : String(e)}); nothing was changed`);
    }
    if (problems.length !== 1 || problems[0] !== "ok") {
      throw new BackupError(`${label} failed its integrity check (${problems.slice(0, 3).join("; ")}${problems.length > 3 ? "; ..." : ""}); nothing was changed`);
    }
    if (!repo.hasTable(db, "__drizzle_migrations") || !repo.hasTable(db, "lists")) {
      throw new BackupError(`${label} is an SQLite database but not a loadout database (no migrations table); nothing was changed`);
    }
    // drizzle's migrator runs every migration newer than the last one applied: the same test here.
    const rows = repo.appliedMigrations(db);
    const last = rows.reduce((m, r) => Math.max(m, Number(r.created_at)), 0);
    const known = loadMigrations();
    const newest = newestMigrationMillis(known);
    if (last > newest) {
      throw new BackupError(
        `${label} comes from a newer loadout: its schema has a migration of ${new Date(last).toISOString()}, this binary knows migrations up to ${new Date(newest).toISOString()} (${known.length}); restore it with that newer version; nothing was changed`,
      );
    }
    return { applied: rows.length, pending: known.filter((k) => k.folderMillis > last).length };
  } finally {
    db.close();
  }
}

/** Opens every sealed value of a database file with `key` (null: none); see checkSealedColumns. */
function checkSealed(path: string, sealed: readonly SealedColumn[], key: Uint8Array | null): SealedCheck[] {
  const db = new Database(path, { readonly: true });
  try {
    return checkSealedColumns(db, sealed, key);
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
    repo.checkpointTruncate(db);
    db.close();
  } catch {
    // unreadable: it is set aside with its -wal as it is
  }
}

/** The data dir's live files: what restore must never read from as a backup or key. */
function liveFiles(dir: string): { path: string; what: string }[] {
  const db = join(dir, DB_FILE);
  return [
    { path: db, what: "database" },
    ...["-wal", "-shm", "-journal"].map((s) => ({ path: db + s, what: `database's ${s.slice(1)} file` })),
    ...KEY_FILES.map((k) => ({ path: join(dir, k.file), what: `${k.file} file` })),
  ];
}

/** Refuses `path` when it is (a link to, or another name of) one of the data dir's live files. */
function refuseLiveFile(path: string, shown: string, dir: string): void {
  let real: string;
  let st: ReturnType<typeof statSync>;
  try {
    real = realpathSync(path);
    st = statSync(path);
  } catch {
    return; // absent: checked by the caller
  }
  for (const live of liveFiles(dir)) {
    let liveReal: string;
    let liveSt: ReturnType<typeof statSync>;
    try {
      liveReal = realpathSync(live.path);
      liveSt = statSync(live.path);
    } catch {
      continue; // not there: nothing to protect
    }
    if (real === liveReal || (st.dev === liveSt.dev && st.ino === liveSt.ino)) {
      throw new BackupError(
        `${shown} resolves to ${liveReal}, the data directory's own ${live.what}: restore from a copy outside the live data directory; nothing was changed`,
      );
    }
  }
}

/** Largest key file read (a generated one is under 100 bytes). */
const KEY_FILE_MAX_BYTES = 4096;
/** The shortest sign-in secret accepted (as for LOADOUT_JWT_SECRET). */
const JWT_SECRET_MIN = 16;

/**
 * A key file beside the backup: its text, or a refusal saying what is wrong with it (an empty or
 * malformed key would be installed and break sign-in or every sealed value at the next start).
 */
function readBesideKey(path: string, k: KeyFile): string {
  const name = basename(path);
  const st = statSync(path);
  if (!st.isFile()) throw new BackupError(`${name} beside the backup is not a file; nothing was changed`);
  if (st.size > KEY_FILE_MAX_BYTES) throw new BackupError(`${name} beside the backup is not a key file (${st.size} bytes); nothing was changed`);
  const text = readFileSync(path, "utf8").trim();
  const bad = (why: string) => new BackupError(`${name} beside the backup ${why}; it protects ${k.protects}; nothing was changed`);
  if (text === "") throw bad("is empty");
  if (k.file === "secret-key") {
    try {
      parseKey(text);
    } catch (e) {
      throw bad(`is not a key (${e instanceof Error ? e.message : String(e)})`);
    }
  } else {
    if (/[\u0000-\u001f\u007f]/.test(text)) throw bad("is malformed (it holds line breaks or control characters)");
    if (text.length < JWT_SECRET_MIN) throw bad(`is malformed (${text.length} characters; a sign-in secret has at least ${JWT_SECRET_MIN})`);
  }
  return text;
}

/** "1 server credential(s), 2 deployment config(s) and 1 webhook secret(s)" (labels in declaration order, empty ones left out). */
function countsText(checks: SealedCheck[]): string {
  const counts = new Map<string, number>();
  for (const c of checks) counts.set(c.column.label, (counts.get(c.column.label) ?? 0) + c.total - c.clear);
  const parts = [...counts].filter(([, n]) => n > 0).map(([label, n]) => `${n} ${label}(s)`);
  return parts.length <= 1 ? (parts[0] ?? "no sealed values") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/**
 * Puts `file` in place of the data dir's database; the caller holds the data dir's lock.
 * `sealed` is every feature's sealed columns (the registry's `sealedColumns`): each value the
 * backup holds in them must open with the key that will be in force.
 */
export function restoreBackup(config: Config, file: string, sealed: readonly SealedColumn[], opts: RestoreOptions = {}): RestoreReport {
  const source = resolve(file);
  if (!existsSync(source) || !statSync(source).isFile()) throw new BackupError(`no backup file at ${source}`);
  const dir = config.LOADOUT_DATA_DIR;
  const dbPath = join(dir, DB_FILE);
  refuseLiveFile(source, source, dir);

  // The key files beside the backup, read and judged before anything is written.
  const beside = new Map<KeyFile["file"], string>();
  for (const k of KEY_FILES) {
    const p = besideKey(source, k);
    let linked = false;
    try {
      linked = lstatSync(p).isSymbolicLink();
    } catch {
      continue; // none
    }
    if (!existsSync(p)) throw new BackupError(`${basename(p)} beside the backup is a link to nothing (${linked ? "dangling symbolic link" : "unreadable"}); nothing was changed`);
    refuseLiveFile(p, p, dir);
    beside.set(k.file, readBesideKey(p, k));
  }

  ensurePrivateDir(dir);
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
    for (const k of KEY_FILES) {
      const p = besideKey(source, k);
      if (config[k.env]) keyNotes.push(`${k.file}: ${k.env} is set and stays in force${beside.has(k.file) ? ` (the ${basename(p)} beside the backup is installed as the file, which ${k.env} overrides)` : ""}`);
      else if (!beside.has(k.file)) {
        const current = existsSync(join(dir, k.file));
        keyNotes.push(
          `${k.file}: no ${basename(p)} beside the backup; ${current ? `the data directory's current ${k.file} stays` : `a new ${k.file} is generated at the next start`}. It protects ${k.protects}`,
        );
      }
    }
    // As the next start reads it (shared/secrets.ts): the environment, else the key file.
    const credentialKeyText = config.LOADOUT_SECRET_KEY ?? beside.get("secret-key") ?? (existsSync(join(dir, "secret-key")) ? readFileSync(join(dir, "secret-key"), "utf8").trim() : null);
    const keyBytes = credentialKeyText === null ? null : Buffer.from(credentialKeyText, "base64");
    const key = keyBytes && keyBytes.length === KEY_BYTES ? keyBytes : null;
    const inForce = key ? keyId(key) : null;
    const checks = checkSealed(staging, sealed, key);
    const failures = checks.flatMap((c) => c.failures);
    const keyOk = failures.length === 0;
    if (!keyOk) {
      const what = countsText(checks);
      const source_ = config.LOADOUT_SECRET_KEY ? "LOADOUT_SECRET_KEY" : beside.has("secret-key") ? `${basename(source)}.secret-key` : credentialKeyText ? `the current ${join(dir, "secret-key")}` : "no key at all";
      const missing = [...new Set(failures.map((f) => f.keyId).filter((id): id is string => id !== null && id !== inForce))];
      let msg: string;
      if (missing.length > 0) {
        const need =
          `the secret-key file of the data directory the backup was made from (key id ${missing.join(", ")}): put it beside the backup as ${basename(source)}.secret-key, ` +
          `or set LOADOUT_SECRET_KEY to it`;
        msg = `the backup's ${what} are sealed with a key that would not be in force (${source_}${inForce ? `, key id ${inForce}` : ""}). Needed: ${need}`;
      } else {
        // The key is the right one by its id, yet values do not open: damaged or altered.
        const more = failures.length > 1 ? ` (and ${failures.length - 1} more)` : "";
        msg = `${failures.length} of the backup's ${what} do not open with the key that would be in force (${source_}${inForce ? `, key id ${inForce}` : ""}), although sealed with it: ${failures[0]!.error}${more}; the backup is damaged or was altered`;
      }
      if (!opts.withoutKeys) throw new BackupError(`${msg}; nothing was changed (--without-keys restores anyway: those secrets must then be entered again)`);
      keyNotes.push(`${msg}. Restored anyway (--without-keys): enter those secrets again`);
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
    const sealedIn = (table: string) => checks.filter((c) => c.column.table === table).reduce((n, c) => n + c.total - c.clear, 0);
    return {
      restored: source,
      database: dbPath,
      kept_aside: keptAside,
      keys_restored: keysRestored,
      key_notes: keyNotes,
      schema: { backup_migrations: found.applied, binary_migrations: loadMigrations().length, migrated_at_next_start: found.pending },
      sealed_secrets: {
        server_credentials: sealedIn("server_credentials"),
        webhook_secrets: sealedIn("webhooks"),
        key_ok: keyOk,
        columns: Object.fromEntries(
          checks.map((c) => [`${c.column.table}.${c.column.column}`, { sealed: c.total - c.clear, opened: c.opened, clear: c.clear }]),
        ),
      },
    };
  } catch (e) {
    discard();
    throw e;
  }
}
