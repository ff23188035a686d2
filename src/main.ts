#!/usr/bin/env bun
// The `loadout` command: serve (default) | migrate | user create | backup | restore | rotate-key.
import { parseArgs } from "node:util";
import { loadConfig, ConfigError, type Config } from "./config";
import { VERSION } from "./version";
import { lockedMessage, tryLockDataDir } from "./shared/data-dir";
import { ensureEngineOptions } from "./shared/engine-options";

const HELP = `loadout ${VERSION}: mod catalog, mod lists and server deployment for Arma Reforger communities

Usage:
  loadout [serve]                                  start the HTTP service (default)
  loadout migrate                                  apply database migrations and exit
  loadout user create [--admin] --email E --password P [--name N]
                                                   create an (approved) account
  loadout backup [FILE]                            online copy of the database (VACUUM INTO), the key
                                                   files beside it (FILE.secret-key, FILE.jwt-secret);
                                                   default <data dir>/backups/loadout-<time>.db
  loadout restore [--without-keys] FILE            put a backup in place of the database (server
                                                   stopped); the current one is kept aside
  loadout rotate-key --new-key BASE64              re-seal every sealed value (server credentials, webhook
                                                   secrets, list and deployment configs) with a new key
  loadout --version | --help
  (loadout crawl-worker: internal, started by serve to run the workshop crawl; LOADOUT_CRAWL_PROCESS)

Configuration comes from LOADOUT_* environment variables (see README.md); the database and
generated secrets live in LOADOUT_DATA_DIR (default ./data).`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Holds the data dir's lock for a command that must not run beside a server, or exits 1. */
function exclusiveOrFail(config: Config, command: string, advice: string) {
  const held = tryLockDataDir(config.LOADOUT_DATA_DIR);
  if (!held.ok) fail(lockedMessage(config.LOADOUT_DATA_DIR, held.pid, command, advice));
  return held.lock;
}

async function main(argv: string[]) {
  if (argv.includes("--version") || argv[0] === "version") {
    console.log(VERSION);
    return;
  }
  if (argv.includes("--help") || argv.includes("-h") || argv[0] === "help") {
    console.log(HELP);
    return;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message);
    throw e;
  }
  const command = argv[0] ?? "serve";
  switch (command) {
    case "serve": {
      // The engine's start-up settings (shared/engine-options.ts): this process is replaced by
      // itself with them in its environment, before it opens anything; the crawl's process inherits them.
      ensureEngineOptions();
      const { serve, DataDirTakenError } = await import("./server");
      try {
        await serve(config);
      } catch (e) {
        if (e instanceof DataDirTakenError) fail(e.message);
        throw e;
      }
      return;
    }
    case "crawl-worker": {
      // The crawl's worker process (src/jobs/worker-process.ts): started by `serve` with an IPC
      // channel, it runs the crawl's due jobs and exits. Its log lines carry process=crawl-worker.
      const { createDeps, SchemaMismatchError } = await import("./runtime");
      const { createLogger } = await import("./shared/log");
      const { runWorkerProcess, WORKER_CANNOT_RUN, WORKER_VERSION_ENV } = await import("./jobs/worker-process");
      const { CRAWL_JOB_TYPES, closeCrawlDatabase } = await import("./features/scraper/crawl-process");
      const log = createLogger(config.LOADOUT_LOG_LEVEL, { process: "crawl-worker", pid: process.pid });
      // Another version than its parent's (the executable replaced under a running service): it
      // must not run the parent's jobs with other code; the parent runs them itself until restarted.
      if (process.env[WORKER_VERSION_ENV] !== VERSION) {
        log.error("not the service's version; not running", { service_version: process.env[WORKER_VERSION_ENV] ?? null, version: VERSION });
        process.exit(WORKER_CANNOT_RUN);
      }
      let deps;
      try {
        deps = createDeps(config, { log, migrate: false });
      } catch (e) {
        if (!(e instanceof SchemaMismatchError)) throw e;
        log.error(e.message);
        process.exit(WORKER_CANNOT_RUN);
      }
      await runWorkerProcess(deps.jobs, log, { types: CRAWL_JOB_TYPES, close: () => closeCrawlDatabase(deps.sqlite) });
      process.exit(0);
    }
    case "migrate": {
      // A running server applied the migrations it knows at its start; changing the schema
      // under it could break it, so migrate only with no server on this data dir.
      const lock = exclusiveOrFail(config, "migrate", "stop it first: the server applies migrations itself when it starts");
      const { createDeps } = await import("./runtime");
      const deps = createDeps(config);
      deps.sqlite.close();
      lock.release();
      console.log("migrations applied");
      return;
    }
    case "user": {
      if (argv[1] !== "create") fail("usage: loadout user create [--admin] --email E --password P [--name N]");
      const { values } = parseArgs({
        args: argv.slice(2),
        options: { admin: { type: "boolean" }, email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
      });
      if (!values.email || !values.password) fail("usage: loadout user create [--admin] --email E --password P [--name N]");
      if (values.password.length < 8 || values.password.length > 128) fail("--password must be 8 to 128 characters");
      const { createDeps } = await import("./runtime");
      const { createUser } = await import("./features/users/service");
      const deps = createDeps(config);
      try {
        const id = await createUser(deps, {
          email: values.email,
          password: values.password,
          display_name: values.name ?? values.email.split("@")[0]!,
          role: values.admin ? "admin" : "user",
          is_approved: true,
          email_verified: true,
        });
        console.log(JSON.stringify({ user_id: id, email: values.email.toLowerCase(), role: values.admin ? "admin" : "user" }));
      } catch (e) {
        fail(e instanceof Error ? e.message : String(e));
      } finally {
        deps.sqlite.close();
      }
      return;
    }
    case "backup": {
      const { writeBackup, backupPath } = await import("./features/backup/service");
      const target = argv[1] ?? backupPath(config, "loadout-", new Date());
      const held = tryLockDataDir(config.LOADOUT_DATA_DIR);
      if (!held.ok) {
        console.error(`backup: a loadout server${held.pid ? ` (pid ${held.pid})` : ""} is running on this data directory; copying online (VACUUM INTO reads one consistent snapshot while it keeps serving)`);
      }
      let r: ReturnType<typeof writeBackup>;
      try {
        r = writeBackup(config, target);
      } catch (e) {
        if (held.ok) held.lock.release();
        fail(`backup: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (held.ok) held.lock.release();
      if (r.keys.length > 0) console.error(`backup: key files beside it: ${r.keys.join(", ")} (needed to restore; keep them as private as the database)`);
      for (const env of r.keys_in_environment) console.error(`backup: ${env} comes from the environment and is not written: keep it with this backup`);
      console.log(r.file);
      return;
    }
    case "restore": {
      const { values, positionals } = parseArgs({ args: argv.slice(1), options: { "without-keys": { type: "boolean" } }, allowPositionals: true });
      if (positionals.length !== 1) fail("usage: loadout restore [--without-keys] <backup file>");
      // A running server holds the database open and would keep writing to the file set aside.
      const lock = exclusiveOrFail(config, "restore", "stop it first, restore, then start it again");
      const { restoreBackup } = await import("./features/backup/service");
      const { sealedColumns } = await import("./features/index");
      let r: ReturnType<typeof restoreBackup>;
      try {
        r = restoreBackup(config, positionals[0]!, sealedColumns, { withoutKeys: values["without-keys"] });
      } catch (e) {
        lock.release();
        fail(`restore: ${e instanceof Error ? e.message : String(e)}`);
      }
      lock.release();
      for (const note of r.key_notes) console.error(`restore: ${note}`);
      const next_step =
        r.schema.migrated_at_next_start > 0 ? `start the server: it applies the ${r.schema.migrated_at_next_start} newer migration(s) of this version first` : "start the server";
      console.log(JSON.stringify({ ...r, next_step }));
      return;
    }
    case "rotate-key": {
      const { values } = parseArgs({ args: argv.slice(1), options: { "new-key": { type: "string" } } });
      const key = values["new-key"];
      if (!key || Buffer.from(key, "base64").length !== 32) fail("usage: loadout rotate-key --new-key <32 bytes in base64>");
      // A running server keeps the old key in memory: it could not read what is re-encrypted.
      const lock = exclusiveOrFail(config, "rotate-key", "stop it first, rotate, then start it again");
      const { createDeps } = await import("./runtime");
      const { rotateCredentialKey } = await import("./features/servers/service");
      const { writeFileSync, renameSync, chmodSync } = await import("node:fs");
      const { join } = await import("node:path");
      const deps = createDeps(config);
      try {
        const r = rotateCredentialKey(deps, Buffer.from(key, "base64"));
        if (config.LOADOUT_SECRET_KEY) {
          console.log(JSON.stringify({ ...r, next_step: "set LOADOUT_SECRET_KEY to the new key and restart" }));
        } else {
          // The generated key file is ours: replace it atomically (mode 0600).
          const file = join(config.LOADOUT_DATA_DIR, "secret-key");
          writeFileSync(file + ".new", key + "\n", { mode: 0o600 });
          chmodSync(file + ".new", 0o600);
          renameSync(file + ".new", file);
          console.log(JSON.stringify({ ...r, key_file: file, next_step: "restart the service" }));
        }
      } catch (e) {
        fail(e instanceof Error ? e.message : String(e));
      } finally {
        deps.sqlite.close();
        lock.release();
      }
      return;
    }
    default:
      fail(`unknown command "${command}"; see loadout --help`);
  }
}

// No top-level await: the --bytecode build is CommonJS.
main(process.argv.slice(2)).catch((e) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
