// Scheduled backups (LOADOUT_BACKUP_CRON): croner enqueues a `backup` job; the job runs
// `loadout backup <data dir>/backups/scheduled-<time>.db` as a child process, so the copy of a
// database of a gigabyte or more never holds this process's event loop, then deletes the oldest
// scheduled backups beyond LOADOUT_BACKUP_KEEP. Manual backups (`loadout-*.db`) are never deleted.
import { resolve, join } from "node:path";
import type { FeatureModule } from "../feature-module";
import type { Deps } from "../../deps";
import { isCompiled } from "../../db/client";
import { backupPath, pruneScheduledBackups, SCHEDULED_PREFIX, KEY_FILES } from "./service";

export const BACKUP_JOB = "backup";

/** This program again: the executable itself, or Bun with src/main.ts when run from source. */
function selfCommand(): string[] {
  return isCompiled() ? [process.execPath] : [process.execPath, join(import.meta.dir, "../../main.ts")];
}

export async function runScheduledBackup(deps: Deps, signal?: AbortSignal) {
  const config = deps.config;
  const target = backupPath(config, SCHEDULED_PREFIX, new Date(deps.clock.now()));
  // The child reads its configuration from the environment: ours, with the data dir and the
  // keys this process was given (so it knows, like us, which keys come from the environment).
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("LOADOUT_")) env[k] = v;
  env.LOADOUT_DATA_DIR = resolve(config.LOADOUT_DATA_DIR);
  env.LOADOUT_LOG_LEVEL = "error";
  for (const k of KEY_FILES) {
    const v = config[k.env];
    if (v) env[k.env] = v;
  }
  const child = Bun.spawn([...selfCommand(), "backup", target], { env, stdout: "pipe", stderr: "pipe" });
  const onAbort = () => child.kill();
  signal?.addEventListener("abort", onAbort);
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  signal?.removeEventListener("abort", onAbort);
  if (code !== 0) throw new Error(`backup failed (exit ${code}): ${err.trim().split("\n").pop()}`);
  const deleted = pruneScheduledBackups(config, config.LOADOUT_BACKUP_KEEP);
  return { file: out.trim(), kept: config.LOADOUT_BACKUP_KEEP, deleted };
}

export const backupFeature: FeatureModule = {
  name: "backup",
  jobs: (deps) => ({
    [BACKUP_JOB]: { maxAttempts: 2, concurrency: 1, run: (_job, ctx) => runScheduledBackup(deps, ctx.signal) },
  }),
  schedules: (deps) => {
    const cron = deps.config.LOADOUT_BACKUP_CRON;
    return cron ? [{ name: "backup", cron, enqueue: () => void deps.jobs.enqueue(BACKUP_JOB, {}, { dedupeKey: BACKUP_JOB }) }] : [];
  },
};
