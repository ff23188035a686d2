// serve: config → deps (db, migrations, secrets, jobs) → app → listen → worker + schedules.
// SIGTERM/SIGINT: stop accepting, finish in-flight requests and the running job step, close the db.
import { Cron } from "croner";
import type { Config } from "./config";
import { createDeps } from "./runtime";
import { createApp } from "./app";
import { features } from "./features/index";
import { ensureBootstrapAdmin } from "./features/users/service";
import { SOCKET_BODY_CAP } from "./shared/http";
import { lockedMessage, tryLockDataDir } from "./shared/data-dir";
import { VERSION } from "./version";
import { queueFirstRun } from "./features/scraper/jobs";
import { enqueueScan } from "./features/live/jobs";
import { webAssets } from "./features/web/assets";
import { startIdleCollector } from "./shared/idle-gc";
import { startDetailWarmer } from "./features/live";
import { crawlWorkerSpec } from "./features/scraper";
import { superviseWorkerProcess, type WorkerSupervisor } from "./jobs/worker-process";

/** A second `serve` on a data dir another process serves: one line, exit 1. */
export class DataDirTakenError extends Error {}

export async function serve(config: Config) {
  const startedAt = performance.now();
  // One instance per data dir, decided before anything is opened: a second one would requeue
  // the first one's jobs and run scrapes and deploys twice.
  const taken = tryLockDataDir(config.LOADOUT_DATA_DIR);
  if (!taken.ok) throw new DataDirTakenError(lockedMessage(config.LOADOUT_DATA_DIR, taken.pid, "serve"));
  const dataDirLock = taken.lock;
  const deps = createDeps(config);
  await ensureBootstrapAdmin(deps);
  const app = createApp(deps);
  // Elysia's listen wires `server` into the context (client IPs for rate limits).
  app.listen({
    port: config.LOADOUT_PORT,
    hostname: config.LOADOUT_HOST,
    // The app enforces 1 MiB (5 MiB on import endpoints) with a JSON 413: a declared
    // Content-Length is judged before anything is read, a chunked body is read as a stream up to
    // the route's limit. Bun's own cap answers a bare 413 with no body, so it sits far above ours
    // and only guards against absurd declared lengths.
    maxRequestBodySize: SOCKET_BODY_CAP,
  });
  const server = app.server!;
  // The web app's files are read now, in the background (the compiled binary: ~80 embedded blobs;
  // from source: a build), so the first page does not wait for them.
  void webAssets().catch((e) => deps.log.warn("web app files could not be loaded", { error: String(e) }));

  // The crawl's jobs run in a child process started when they are due (docs/architecture.md
  // "The crawl's process"); handed off before the worker starts, so this process never claims one.
  const crawlWorker: WorkerSupervisor | null = config.LOADOUT_CRAWL_PROCESS === "child" ? superviseWorkerProcess(deps.jobs, deps.log, crawlWorkerSpec(), VERSION, deps.clock) : null;
  deps.jobs.start();
  // After a load, once idle, one full collection gives the load's garbage back (src/shared/idle-gc.ts).
  const stopIdleCollector = startIdleCollector((ms, step) => deps.log.debug(step === "collect" ? "idle garbage collection" : "idle footprint shrink", { ms: Math.round(ms) }));
  // While idle, online servers' details are prepared ahead (their mod lists, their mods' parts).
  const stopDetailWarmer = startDetailWarmer(deps.sqlite, (e) => deps.log.warn("server detail warming stopped", { error: String(e) }));
  const crons: Cron[] = [];
  if (config.LOADOUT_SCHEDULES === "on") {
    queueFirstRun(deps, () => enqueueScan(deps));
    for (const f of features) {
      for (const s of f.schedules?.(deps) ?? []) {
        crons.push(
          new Cron(s.cron, { name: s.name, protect: true, catch: (e) => deps.log.error("schedule failed", { schedule: s.name, error: String(e) }) }, () => {
            s.enqueue();
          }),
        );
      }
    }
  }
  deps.log.info("loadout started", {
    version: VERSION,
    url: `http://${config.LOADOUT_HOST}:${server.port}`,
    data_dir: config.LOADOUT_DATA_DIR,
    schedules: crons.map((c) => c.name),
    startup_ms: Math.round(performance.now() - startedAt),
  });

  let stopping: Promise<void> | null = null;
  const shutdown = (signal: string) => {
    stopping ??= (async () => {
      deps.log.info("shutting down", { signal });
      for (const c of crons) c.stop();
      stopIdleCollector();
      stopDetailWarmer();
      await server.stop(false); // stop accepting; in-flight requests finish
      await crawlWorker?.stop(); // the child requeues what it runs and exits
      await deps.jobs.stop(15_000); // the running job step finishes (or is requeued at next start)
      deps.sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      deps.sqlite.close();
      dataDirLock.release();
      deps.log.info("stopped");
    })();
    return stopping;
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM").then(() => process.exit(0)));
  process.on("SIGINT", () => void shutdown("SIGINT").then(() => process.exit(0)));
  return { server, deps, app, shutdown, crawlWorker };
}
