// The data directory: private by default, and served by one process at a time.
//
// Files: the directory is 0700 and every file we create in it is 0600 (the database holds
// password hashes, e-mail addresses and private lists). SQLite creates the -wal and -shm files
// with the database file's own mode, so the database is created 0600 before SQLite opens it;
// an older install's looser modes are tightened at start.
//
// Lock: `loadout.lock` is a one-table SQLite file held in an EXCLUSIVE transaction for the life
// of the process. SQLite locks with POSIX advisory locks, which the kernel drops when the
// process dies however it dies, so a crash never leaves a stale lock to clean up, and a second
// process learns at once (busy_timeout 0) that the directory is taken. `loadout.pid` beside it
// names the holder for the error message only.
import { Database } from "bun:sqlite";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const DB_FILE = "loadout.db";
const LOCK_FILE = "loadout.lock";
const PID_FILE = "loadout.pid";

function tighten(path: string, mode: number) {
  try {
    if ((statSync(path).mode & 0o777 & ~mode) !== 0) chmodSync(path, mode);
  } catch {
    // missing, or not ours to change: nothing to tighten
  }
}

/** Creates the data dir 0700 (tightening an existing one) and returns its path. */
export function ensurePrivateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir, 0o700);
  return dir;
}

/** Creates an empty file with mode 0600 unless it exists (then tightens it). */
export function ensurePrivateFile(path: string) {
  if (!existsSync(path)) {
    try {
      closeSync(openSync(path, "wx", 0o600));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  tighten(path, 0o600);
}

/** Makes the database and its WAL/SHM files private before SQLite opens them. */
export function prepareDatabaseFile(path: string) {
  ensurePrivateFile(path);
  for (const suffix of ["-wal", "-shm", "-journal"]) tighten(path + suffix, 0o600);
}

export class DataDirLock {
  constructor(
    private db: Database | null,
    private readonly dir: string,
  ) {}

  release() {
    if (!this.db) return;
    try {
      if (readPid(this.dir) === process.pid) rmSync(join(this.dir, PID_FILE), { force: true });
    } catch {}
    this.db.close(); // closing the only handle drops the OS lock
    this.db = null;
  }
}

function readPid(dir: string): number | null {
  try {
    const n = Number(readFileSync(join(dir, PID_FILE), "utf8").trim());
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

export type LockResult = { ok: true; lock: DataDirLock } | { ok: false; pid: number | null };

/** Takes the data dir's lock without waiting; `{ok: false}` names the holder's pid when known. */
export function tryLockDataDir(dir: string): LockResult {
  ensurePrivateDir(dir);
  const path = join(dir, LOCK_FILE);
  ensurePrivateFile(path);
  const db = new Database(path);
  try {
    db.exec("PRAGMA busy_timeout = 0");
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("CREATE TABLE IF NOT EXISTS holder (pid INTEGER)"); // a write makes the lock EXCLUSIVE on disk
  } catch {
    db.close();
    return { ok: false, pid: readPid(dir) };
  }
  writeFileSync(join(dir, PID_FILE), `${process.pid}\n`, { mode: 0o600 });
  return { ok: true, lock: new DataDirLock(db, dir) };
}

/** The one line a second process prints when the data dir is taken. */
export function lockedMessage(dir: string, pid: number | null, what: string, advice = "stop it first or use another LOADOUT_DATA_DIR"): string {
  return `${what}: another loadout process${pid ? ` (pid ${pid})` : ""} is serving the data directory ${dir}; ${advice}`;
}
