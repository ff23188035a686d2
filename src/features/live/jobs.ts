// Job handlers and schedules of the live feature. croner only enqueues (deduplicated, so a
// slow scan never piles up); the worker runs the scan and the roll-ups one at a time.
import type { Deps } from "../../deps";
import type { JobHandler } from "../../jobs/queue";
import type { ScheduleSpec } from "../feature-module";
import { runScan } from "./scan";
import { runRollups } from "./rollup";

export const SCAN_JOB = "live.scan";
export const ROLLUP_JOB = "live.rollup";

export const enqueueScan = (deps: Pick<Deps, "jobs">, createdBy: string | null = null) =>
  deps.jobs.enqueue(SCAN_JOB, {}, { dedupeKey: SCAN_JOB, lane: "live", createdBy });

export const enqueueRollups = (deps: Pick<Deps, "jobs">, createdBy: string | null = null) =>
  deps.jobs.enqueue(ROLLUP_JOB, {}, { dedupeKey: ROLLUP_JOB, lane: "live", createdBy });

export const liveJobs = (deps: Deps): Record<string, JobHandler> => ({
  [SCAN_JOB]: {
    maxAttempts: 3,
    concurrency: 1,
    // A missed scan is replaced by the next scheduled one; retry soon rather than in 30 s × 4^n.
    retryDelayMs: (attempt) => Math.min(60_000 * attempt, 180_000),
    run: (_job, ctx) => runScan(deps, { signal: ctx.signal, progress: (p) => ctx.progress(p) }),
  },
  [ROLLUP_JOB]: {
    maxAttempts: 3,
    concurrency: 1,
    run: () => runRollups(deps),
  },
});

export const liveSchedules = (deps: Deps): ScheduleSpec[] => [
  { name: "live.scan", cron: deps.config.LOADOUT_CRON_GAME_SERVERS, enqueue: () => void enqueueScan(deps) },
  { name: "live.rollup", cron: deps.config.LOADOUT_CRON_ROLLUPS, enqueue: () => void enqueueRollups(deps) },
];
