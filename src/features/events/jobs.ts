// The events feature's job handlers, and the trigger that starts the dispatcher.
import type { Deps } from "../../deps";
import type { JobHandler } from "../../jobs/queue";
import { deliveryHandler } from "./delivery";
import { DELIVERY_JOB, DISPATCH_JOB, dispatchPending } from "./dispatch";
import { dispatchStatements } from "./repository";

/** Queues the dispatcher unless one is already queued or running. Returns the job id. */
export function triggerDispatch(deps: Deps): string {
  return deps.jobs.enqueue(DISPATCH_JOB, {}, { dedupeKey: DISPATCH_JOB });
}

export function eventsJobs(deps: Deps): Record<string, JobHandler> {
  // recordEvent() only writes the outbox row inside the caller's transaction; on each worker
  // tick (about once a second, and after every enqueue and job end) one indexed probe queues
  // the dispatcher when undispatched events exist. It also covers an event that lands while a
  // dispatcher is finishing (the dedupe key returned the running job).
  const st = dispatchStatements(deps.sqlite);
  deps.jobs.onTick(() => {
    if (st.hasPending()) triggerDispatch(deps);
  });
  return {
    [DISPATCH_JOB]: {
      concurrency: 1,
      maxAttempts: 5,
      // Bounded batches with the event loop running between them: see dispatchPending.
      run: () => dispatchPending(deps),
    },
    [DELIVERY_JOB]: deliveryHandler(deps),
  };
}
