// A worker process: some job types (the workshop crawl's, src/features/scraper/crawl-process.ts)
// run in a short-lived child process of the same executable instead of in the service, so that
// the child can start with settings that trade memory for CPU (an allocator that keeps what it
// freed) and give all of it back when it exits (docs/architecture.md "The crawl's process").
//
// The parent (`serve`) never claims those types; on every worker tick it looks whether one is
// due and, when no child runs, starts one (`loadout crawl-worker`). The child claims them through
// the same job table with its own leases, drains them and exits after a short idle. Everything
// the child does that the parent must see goes through the database (rows, generation counters
// moved by triggers, the outbox, source status), so nothing but its exit and its start cost
// cross the IPC channel. A child that dies (crash, SIGKILL) is noticed by its exit: the jobs it
// left `running` are queued again at once (not counted as attempts; only this child ran those
// types since it started), and the next child starts when work is due, after a back-off that
// grows while children keep dying. A child whose parent goes away (the IPC channel closes, or
// its parent pid changes) stops at once: a restart of the service resumes from the job table.
import type { Subprocess } from "bun";
import type { JobQueue } from "./queue";
import type { Logger } from "../shared/log";

export interface WorkerProcessSpec {
  /** Names the child in logs and metrics ("crawl"). */
  name: string;
  /** The job types the child runs and the parent hands off. */
  types: readonly string[];
  /** The command line of the child (the same executable, a hidden sub-command). */
  cmd: string[];
  /** Environment added to the parent's for the child (a value the parent's environment sets wins). */
  env: Record<string, string>;
}

/** What the parent knows of its worker processes (the platform's /metrics). */
export interface WorkerProcessStats {
  name: string;
  running: boolean;
  started: number;
  /** Exits by outcome: idle (drained, exit 0), stopped (the service stopping), crashed (anything else). */
  exits: { idle: number; stopped: number; crashed: number };
  /** CPU seconds of the children that exited (user + system, from their resource usage). */
  cpuSeconds: number;
  /** The last child's peak resident memory (bytes), from its resource usage at exit. */
  lastMaxRssBytes: number | null;
  /** The last child's CPU seconds from its start to its first claim (loading, migrations check). */
  lastStartCpuSeconds: number | null;
  /** Jobs queued again because a child died holding them. */
  recoveredJobs: number;
}

const statsByQueue = new WeakMap<JobQueue, WorkerProcessStats[]>();
/** The worker processes started for this queue's service, if any. */
export const workerProcessStats = (jobs: JobQueue): readonly WorkerProcessStats[] => statsByQueue.get(jobs) ?? [];

/** Messages a child sends its parent. */
export type WorkerMessage = { t: "ready"; cpu_s: number; startup_ms: number } | { t: "alive" };

/** A child says it is alive this often (from its event loop)... */
const ALIVE_EVERY_MS = 5_000;
/** ...and one silent this long is taken for hung and killed (as long as a job's lease). */
const HUNG_AFTER_MS = 60_000;

/** A worker process's exit code when it cannot run here (another version, a schema it lacks): the parent runs the types itself. */
export const WORKER_CANNOT_RUN = 78;
/** The parent's version, in the child's environment. */
export const WORKER_VERSION_ENV = "LOADOUT_WORKER_PARENT_VERSION";

const BACKOFF_MIN_MS = 1_000;
const BACKOFF_MAX_MS = 5 * 60_000;
/** A child that ran this long before dying resets the back-off (it started fine). */
const HEALTHY_RUN_MS = 60_000;

export interface WorkerSupervisor {
  readonly stats: WorkerProcessStats;
  /** The running child's pid, if any (tests). */
  readonly pid: number | null;
  /** Stops the child (SIGTERM: it requeues what it runs and exits; SIGKILL after `timeoutMs`) and stops starting new ones. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Hands `spec.types` to worker processes: from now on `jobs` does not claim them, and a child is
 * started whenever one is due and none runs. Call before `jobs.start()`, so that the parent never
 * claims one at start. When a process cannot be started at all (the platform refuses spawn), the
 * types are taken back and run in this process, with an error logged.
 */
export function superviseWorkerProcess(jobs: JobQueue, log: Logger, spec: WorkerProcessSpec, version: string, clock: { now(): number } = Date): WorkerSupervisor {
  const stats: WorkerProcessStats = {
    name: spec.name,
    running: false,
    started: 0,
    exits: { idle: 0, stopped: 0, crashed: 0 },
    cpuSeconds: 0,
    lastMaxRssBytes: null,
    lastStartCpuSeconds: null,
    recoveredJobs: 0,
  };
  statsByQueue.set(jobs, [...(statsByQueue.get(jobs) ?? []), stats]);
  const plog = log.child({ worker: spec.name });
  let child: Subprocess | null = null;
  let childExited: Promise<void> | null = null;
  let stopped = false;
  let inProcess = false;
  let notBefore = 0;
  let backoff = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  jobs.handOff(spec.types);

  const start = () => {
    const spawnedAt = clock.now();
    let heardAt = performance.now();
    let proc: Subprocess;
    try {
      proc = Bun.spawn(spec.cmd, {
        env: { ...spec.env, ...(process.env as Record<string, string>), [WORKER_VERSION_ENV]: version },
        stdio: ["ignore", "inherit", "inherit"],
        ipc: (m: WorkerMessage) => {
          heardAt = performance.now();
          if (m?.t === "ready") {
            stats.lastStartCpuSeconds = m.cpu_s;
            plog.info("worker process started", { pid: proc.pid, startup_ms: m.startup_ms, start_cpu_ms: Math.round(m.cpu_s * 1000) });
          }
        },
        serialization: "json",
      });
    } catch (e) {
      // No process at all (no spawn on this platform, the executable gone): run them here.
      inProcess = true;
      plog.error("could not start a worker process; its jobs run in the service process", { error: String(e) });
      jobs.takeBack(spec.types);
      return;
    }
    child = proc;
    stats.running = true;
    stats.started++;
    jobs.leaveLeaseRecovery(spec.types);
    // A child whose event loop stopped (it renews no lease either) would hold the crawl's types
    // forever: killed, it exits, and the exit below recovers its jobs.
    const watchdog = setInterval(() => {
      if (performance.now() - heardAt < HUNG_AFTER_MS) return;
      plog.error("worker process silent for a minute; killing it", { pid: proc.pid });
      proc.kill("SIGKILL");
    }, ALIVE_EVERY_MS);
    childExited = proc.exited.then(() => {
      clearInterval(watchdog);
      const code = proc.exitCode;
      const signal = proc.signalCode;
      const usage = proc.resourceUsage();
      if (usage) {
        stats.cpuSeconds += Number(usage.cpuTime.total) / 1e6;
        stats.lastMaxRssBytes = usage.maxRSS;
      }
      child = null;
      stats.running = false;
      jobs.leaveLeaseRecovery(null);
      // Whatever it left running is nobody's now: queued again at once.
      let recovered = 0;
      try {
        recovered = jobs.recoverFromExited(spec.types, spawnedAt);
      } catch (e) {
        plog.error("could not requeue the worker process's jobs (their leases will)", { error: String(e) });
      }
      stats.recoveredJobs += recovered;
      const ranMs = clock.now() - spawnedAt;
      if (code === WORKER_CANNOT_RUN && !stopped) {
        stats.exits.crashed++;
        inProcess = true;
        plog.error("the worker process cannot run with this service (its executable was replaced?); its jobs run in the service process until a restart", { pid: proc.pid });
        jobs.takeBack(spec.types);
      } else if (code === 0 && signal === null) {
        if (stopped) stats.exits.stopped++;
        else stats.exits.idle++;
        backoff = 0;
        // One start a second at most, whatever a child does.
        notBefore = clock.now() + BACKOFF_MIN_MS;
        plog.debug("worker process done", { pid: proc.pid, ran_ms: ranMs });
      } else {
        if (stopped) stats.exits.stopped++;
        else stats.exits.crashed++;
        backoff = ranMs >= HEALTHY_RUN_MS ? BACKOFF_MIN_MS : Math.min(BACKOFF_MAX_MS, Math.max(BACKOFF_MIN_MS, backoff * 2));
        notBefore = clock.now() + backoff;
        if (!stopped) {
          plog.error("worker process stopped unexpectedly; its jobs were queued again", {
            pid: proc.pid,
            exit_code: code,
            signal,
            ran_ms: ranMs,
            requeued_jobs: recovered,
            next_start_in_ms: backoff,
          });
          // Look again once the back-off is over (the queue's own ticks would too, within a poll).
          if (retryTimer) clearTimeout(retryTimer);
          retryTimer = setTimeout(() => jobs.poke(), backoff + 10);
        }
      }
      if (!stopped) jobs.poke();
    });
  };

  jobs.onTick(() => {
    if (stopped || inProcess || child || clock.now() < notBefore) return;
    if (jobs.hasDue(spec.types)) start();
  });

  return {
    stats,
    get pid() {
      return child?.pid ?? null;
    },
    async stop(timeoutMs = 15_000) {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      const c = child;
      if (!c || !childExited) return;
      c.kill("SIGTERM");
      const killer = setTimeout(() => c.kill("SIGKILL"), timeoutMs);
      await childExited;
      clearTimeout(killer);
    },
  };
}

/**
 * The child's side: `jobs` (created as the service creates it) claims only `types`; the child
 * reports its start, drains, and exits 0 once nothing of its types runs or is due for `idleMs`.
 * SIGTERM: the running jobs are aborted and queued again, exit 0. Its parent gone: exit at once
 * (the jobs it held go back to the queue by their leases when the service starts again).
 */
export async function runWorkerProcess(
  jobs: JobQueue,
  log: Logger,
  o: { types: readonly string[]; idleMs?: number; checkMs?: number; close: () => void },
): Promise<number> {
  if (typeof process.send !== "function") throw new Error("an internal command: `loadout serve` starts it (LOADOUT_CRAWL_PROCESS=child)");
  const idleMs = o.idleMs ?? 2_000;
  const checkMs = o.checkMs ?? 250;
  const parent = process.ppid;
  const send = (m: WorkerMessage) => {
    try {
      process.send?.(m);
    } catch {}
  };
  // The parent's death: the IPC channel closes (and Bun asks the kernel to send SIGTERM to a
  // child whose parent dies); the parent pid is checked too, before every claim and four times a
  // second. Either way the child stops as on SIGTERM: running jobs aborted, queued again (so a
  // restarted service resumes them at once), exit.
  const orphaned = () => process.ppid !== parent;
  let stopping: Promise<void> | null = null;
  const stop = (why: string, timeoutMs = 10_000) => {
    stopping ??= (async () => {
      log.info("worker process stopping", { why });
      await jobs.stop(timeoutMs, { requeue: true });
      try {
        o.close();
      } catch {}
      process.exit(0);
    })();
  };
  process.on("disconnect", () => stop("the service process went away", 5_000));
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  jobs.onTick(() => {
    if (orphaned()) stop("the service process went away", 5_000);
  });
  jobs.claimOnly(o.types);
  setInterval(() => send({ t: "alive" }), ALIVE_EVERY_MS);
  send({ t: "ready", cpu_s: ownCpuSeconds(), startup_ms: Math.round(performance.now()) });
  if (orphaned()) stop("the service process went away", 5_000);
  else jobs.start();
  let idleSince = performance.now();
  let ran = 0;
  jobs.onFinished = () => void ran++;
  for (;;) {
    await Bun.sleep(checkMs);
    if (stopping) await new Promise(() => {}); // stop() exits the process
    if (orphaned()) {
      stop("the service process went away", 5_000);
      continue;
    }
    if (jobs.runningCount > 0 || jobs.hasDue(o.types)) idleSince = performance.now();
    else if (performance.now() - idleSince >= idleMs) break;
  }
  log.info("worker process done: nothing due", { jobs_run: ran, cpu_s: Math.round(ownCpuSeconds() * 100) / 100 });
  await jobs.stop(10_000, { requeue: true });
  o.close();
  return 0;
}

/** This process's CPU seconds so far (user + system, all threads). */
function ownCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}
