// The events feature's job handlers, and the trigger that starts the dispatcher.
import type { Deps } from "../../deps";
import type { JobHandler } from "../jobs/queue";
import { deliveryHandler } from "./delivery";
import { DELIVERY_JOB, DISPATCH_JOB, dispatchPending } from "./dispatch";
import { hasPendingEvents } from "./repository";

/** How often the outbox is looked at (one indexed probe; a job is queued only when there is work). */
export const DISPATCH_POLL_MS = 1000;

/** Queues the dispatcher unless one is already queued or running. Returns the job id. */
export function triggerDispatch(deps: Deps): string {
  return deps.jobs.enqueue(DISPATCH_JOB, {}, { dedupeKey: DISPATCH_JOB });
}

/**
 * Only while the worker loop runs (the server): tests and CLI commands drain jobs by hand and
 * must not find dispatcher jobs they did not ask for. JobQueue has no public "started" flag, so
 * this reads its private field; if that ever disappears, the watcher errs on the side of running.
 */
function workerRunning(deps: Deps): boolean {
  const started = (deps.jobs as unknown as { started?: unknown }).started;
  return typeof started === "boolean" ? started : true;
}

/**
 * recordEvent() only writes the outbox row (it has no access to the queue), so a light
 * watcher queues the dispatcher when undispatched events exist. It also covers the race where
 * an event lands while a dispatcher is finishing (the dedupe key returned the running job).
 * The timer is unref'd and stops itself when the database is closed.
 */
function startDispatchWatcher(deps: Deps): void {
  const timer = setInterval(() => {
    try {
      if (workerRunning(deps) && hasPendingEvents(deps.db)) triggerDispatch(deps);
    } catch {
      clearInterval(timer); // database closed (shutdown, end of a test)
    }
  }, DISPATCH_POLL_MS);
  timer.unref?.();
}

export function eventsJobs(deps: Deps): Record<string, JobHandler> {
  startDispatchWatcher(deps);
  return {
    [DISPATCH_JOB]: {
      concurrency: 1,
      maxAttempts: 5,
      run: () => dispatchPending(deps),
    },
    [DELIVERY_JOB]: deliveryHandler(deps),
  };
}
