// Builds Deps from a config: data dir, secrets, database + migrations, job queue with every
// feature's handlers. Used by the server, the CLI and the tests.
import { join } from "node:path";
import type { Config } from "./config";
import type { Deps } from "./deps";
import { openDatabase, migrate, migrationsApplied } from "./db/client";
import { JobQueue } from "./jobs/queue";
import { createMailer } from "./shared/mailer";
import { createLogger, type Logger } from "./shared/log";
import { systemClock, type Clock } from "./shared/time";
import { loadSecrets } from "./shared/secrets";
import { callerSource, features, sealedColumns } from "./features/index";
import { sealClearValues } from "./db/sealed";
import { answerBudget } from "./shared/bytes-lru";
import { DB_FILE, ensurePrivateDir, prepareDatabaseFile } from "./shared/data-dir";

export interface RuntimeOptions {
  /** Database file; default `<data dir>/loadout.db`. */
  dbPath?: string;
  log?: Logger;
  clock?: Clock;
  fetch?: typeof fetch;
  pollMs?: number;
  /** false: do not migrate, throw when the database lacks a migration (a worker process). */
  migrate?: boolean;
}

/** The database is older than this executable: a worker process must not migrate it. */
export class SchemaMismatchError extends Error {}

export function createDeps(config: Config, opts: RuntimeOptions = {}): Deps {
  ensurePrivateDir(config.LOADOUT_DATA_DIR);
  const log = opts.log ?? createLogger(config.LOADOUT_LOG_LEVEL);
  const clock = opts.clock ?? systemClock;
  const dbPath = opts.dbPath ?? join(config.LOADOUT_DATA_DIR, DB_FILE);
  if (dbPath !== ":memory:") prepareDatabaseFile(dbPath);
  // One budget for every answer cache of the process (the last createDeps sets it).
  answerBudget.setMax(config.LOADOUT_CACHE_MB * 2 ** 20);
  const { db, sqlite } = openDatabase(dbPath, {
    cacheMb: config.LOADOUT_SQLITE_CACHE_MB,
    mmapMb: config.LOADOUT_SQLITE_MMAP_MB,
    walAutocheckpoint: config.LOADOUT_SQLITE_WAL_AUTOCHECKPOINT,
  });
  if (opts.migrate === false) {
    if (!migrationsApplied(db)) {
      sqlite.close();
      throw new SchemaMismatchError("the database lacks migrations this executable has (was it replaced under a running service?); not migrating");
    }
  } else migrate(db);
  const secrets = loadSecrets(config);
  if (opts.migrate !== false) {
    // SQL cannot encrypt, so a column that became sealed is sealed here, in code, right after
    // the migrations and before anything reads or serves: one pass over the rows still in clear
    // (a partial index finds them: nothing is read when none is left), idempotent, and complete
    // at once (sealing on first read would leave every finished deployment in clear for ever).
    const sealed = sealClearValues(sqlite, sealedColumns, secrets.credentialKey);
    if (sealed > 0) log.info("sealed values an earlier version stored in clear", { values: sealed });
  }
  const jobs = new JobQueue(db, sqlite, clock, log, opts.pollMs);
  const deps: Deps = {
    config,
    db,
    sqlite,
    jobs,
    mailer: createMailer({ smtpUrl: config.LOADOUT_SMTP_URL, from: config.LOADOUT_MAIL_FROM, log }),
    log,
    clock,
    secrets,
    sealed: sealedColumns,
    fetch: opts.fetch ?? fetch,
    callers: callerSource(sqlite),
  };
  for (const f of features) {
    if (!f.jobs) continue;
    for (const [type, handler] of Object.entries(f.jobs(deps))) jobs.register(type, handler);
  }
  return deps;
}
