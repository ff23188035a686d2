// What a job is and what its handler may throw (the queue itself: queue.ts).
import type { DB, Tx } from "../db/client";
import type { Logger } from "../shared/log";

export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

export interface Job<P = any> {
  id: string;
  type: string;
  payload: P;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: number;
  started_at: number | null;
  finished_at: number | null;
  error: string | null;
  progress: unknown;
  result: unknown;
  created_by: string | null;
  created_at: number;
  lane: string | null;
}

export interface JobContext {
  progress(p: Record<string, unknown>): void;
  signal: AbortSignal;
  log: Logger;
}

export interface JobHandler<P = any> {
  run(job: Job<P>, ctx: JobContext): Promise<unknown> | unknown;
  /** Default 3. */
  maxAttempts?: number;
  /** Jobs of this type running at once. Default 2. */
  concurrency?: number;
  /** Delay before retry number `attempt` (1-based). Default 30 s × 4^(attempt-1), at most 1 h. */
  retryDelayMs?: (attempt: number, error: unknown) => number;
}

export interface EnqueueOptions {
  runAt?: number;
  dedupeKey?: string;
  lane?: string;
  createdBy?: string | null;
  maxAttempts?: number;
  /** A transaction to enqueue in, so the job commits (or rolls back) with the change. */
  db?: Tx;
}

/** Throw to fail a job at once, without retries. */
export class PermanentJobError extends Error {}

/** Throw (or attach `retryAfterMs` to any error) to retry after a given delay, e.g. a 429's Retry-After. */
export class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
  }
}

/**
 * Throw to put the job back in the queue until `afterMs` from now without counting an attempt:
 * a long wait (a game server emptying, a restart being verified) as a row in the table instead
 * of a held worker slot. The handler keeps its own state and continues from it when run again.
 */
export class SnoozeJob extends Error {
  constructor(
    readonly afterMs: number,
    message = "waiting",
  ) {
    super(message);
  }
}

/** A job row as the queue returns it (payload, progress and result parsed). */
export function rowToJob(r: any): Job {
  return {
    ...r,
    payload: r.payload ? JSON.parse(r.payload) : {},
    progress: r.progress ? JSON.parse(r.progress) : null,
    result: r.result ? JSON.parse(r.result) : null,
  };
}

export const defaultRetryDelay = (attempt: number) => Math.min(30_000 * 4 ** (attempt - 1), 3_600_000);
