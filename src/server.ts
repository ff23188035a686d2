// serve: config → deps (db, migrations, secrets, jobs) → app → listen → worker + schedules.
// SIGTERM/SIGINT: stop accepting, finish in-flight requests and the running job step, close the db.
import { Cron } from "croner";
import type { Config } from "./config";
import { createDeps } from "./runtime";
import { createApp } from "./app";
import { features } from "./features/index";
import { SOCKET_BODY_CAP } from "./shared/http";
import { lockedMessage, tryLockDataDir } from "./shared/data-dir";
import { VERSION } from "./version";
import type { Running } from "./features/feature-module";

/** The address to open in a browser on this machine: localhost when listening on every interface. */
export function openUrl(host: string, port: number): string {
  const any = host === "0.0.0.0" || host === "::" || host === "[::]";
  const h = any ? "localhost" : host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `http://${h}:${port}`;
}

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
  // Every feature's own background work (a first admin, a process of its own the crawl's jobs are
  // handed off to before the worker starts, warmers), stopped in the reverse order.
  const running: { name: string; run: Running }[] = [];
  for (const f of features) {
    const run = await f.start?.(deps, { schedules: config.LOADOUT_SCHEDULES === "on" });
    if (run) running.push({ name: f.name, run });
  }
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
  deps.jobs.start();
  const crons: Cron[] = [];
  if (config.LOADOUT_SCHEDULES === "on") {
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
    // Where to open it: every interface (0.0.0.0, ::) includes this machine's own address.
    url: openUrl(config.LOADOUT_HOST, server.port!),
    listen: `${config.LOADOUT_HOST}:${server.port}`,
    data_dir: config.LOADOUT_DATA_DIR,
    schedules: crons.map((c) => c.name),
    startup_ms: Math.round(performance.now() - startedAt),
  });

  let stopping: Promise<void> | null = null;
  const shutdown = (signal: string) => {
    stopping ??= (async () => {
      deps.log.info("shutting down", { signal });
      for (const c of crons) c.stop();
      await server.stop(false); // stop accepting; in-flight requests finish
      // Each feature's own work (the crawl's child requeues what it runs and exits).
      for (const { name, run } of running.reverse()) {
        try {
          await run.stop();
        } catch (e) {
          deps.log.warn("a feature did not stop cleanly", { feature: name, error: String(e) });
        }
      }
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
  return { server, deps, app, shutdown };
}
