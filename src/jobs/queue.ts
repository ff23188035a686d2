// Durable jobs in SQLite, run by one in-process worker. A job is found with one index probe per
// type and claimed with one UPDATE ... RETURNING (status + lease), so a crash leaves it `running` with a lease nobody
// renews; once the lease has run out the next start (or worker tick) requeues it without
// counting the interrupted attempt. Handlers must be idempotent. What a job and a handler are:
// job.ts (re-exported here).
import type { Database, Statement } from "bun:sqlite";
import type { Logger } from "../shared/log";
import type { Clock } from "../shared/time";
import { newId } from "../shared/ids";
import { stmt } from "../db/statements";
import type { DB } from "../db/client";
import { defaultRetryDelay, PermanentJobError, RetryLaterError, rowToJob, SnoozeJob, type EnqueueOptions, type Job, type JobContext, type JobHandler, type JobStatus } from "./job";

export * from "./job";
/**
 * A running job's lease: renewed every HEARTBEAT_MS while its process lives, so a lease that
 * has run out means the process that claimed the job is gone. Only then is the job queued
 * again (at start and on every worker tick): never while another live process holds it.
 */
export const LEASE_MS = 60_000;
const HEARTBEAT_MS = 10_000;
const GLOBAL_SLOTS = 6;

export class JobQueue {
  private handlers = new Map<string, JobHandler>();
  private running = new Map<string, { type: string; promise: Promise<void>; abort: AbortController }>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private started = false;
  private stopping = false;
  private claimByIdStmt;
  private wakeQueued = false;
  private dedupeStmt;
  private insertStmt;
  private tickHooks: (() => void)[] = [];
  /** Types this worker claims (null: every registered type) and types handed to another process. */
  private only: Set<string> | null = null;
  private handedOff = new Set<string>();
  /** Types whose runs this process leaves to another live process's own lease recovery (its worker process, while it runs). */
  private leaseRecoveryElsewhere: string[] = [];
  /** Called after each job finishes (tests, metrics). */
  onFinished?: (job: Job, status: JobStatus) => void;

  constructor(
    private readonly db: DB,
    private readonly sqlite: Database,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly pollMs = 1000,
  ) {
    this.dedupeStmt = sqlite.prepare(
      "SELECT id FROM jobs WHERE dedupe_key = ? AND dedupe_key IS NOT NULL AND status IN ('queued', 'running') LIMIT 1",
    );
    this.insertStmt = sqlite.prepare(
      `INSERT INTO jobs (id, type, payload, status, attempts, max_attempts, run_at, created_by, created_at, dedupe_key, lane)
       VALUES ($id, $type, $payload, 'queued', 0, $max_attempts, $run_at, $created_by, $created_at, $dedupe_key, $lane)`,
    );
    // The claim: the earliest due queued job (run_at, then id) among the given types whose lane
    // is free. One probe per type through the partial index jobs_queued_type_idx (type, run_at, id)
    // WHERE status = 'queued' (src/db/custom/99_crawl_cost.sql), then the earliest of those;
    // a single query over all types walked the (status, run_at) index past every queued job of a
    // type at its concurrency (~2,600 detail batches during a crawl) on every claim.
    this.claimByIdStmt = sqlite.prepare(
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, started_at = $now, lease_until = $lease, error = NULL
       WHERE id = $id AND status = 'queued' RETURNING *`,
    );
  }

  register(type: string, handler: JobHandler) {
    this.handlers.set(type, handler);
  }

  /**
   * Runs `fn` on every tick of the background worker (each poll, enqueue and job end), only
   * while the worker runs: a cheap probe that enqueues work found elsewhere (e.g. the events
   * outbox). Tests and CLI commands that drain by hand are not affected.
   */
  onTick(fn: () => void) {
    this.tickHooks.push(fn);
  }

  /**
   * This worker claims only `types` (a worker process that runs one kind of work, e.g. the
   * crawl's child: src/jobs/worker-process.ts). Enqueueing any type stays allowed.
   */
  claimOnly(types: readonly string[]) {
    this.only = new Set(types);
  }

  /**
   * This worker stops claiming `types` (another process runs them); `takeBack` undoes it.
   * A job of these types this worker already runs finishes here.
   */
  handOff(types: readonly string[]) {
    for (const t of types) this.handedOff.add(t);
  }

  /**
   * While a worker process runs `types`, their leases are its business: it recovers their
   * expired leases itself (never its own running jobs), and this process recovers what it held
   * when it exits (recoverFromExited). Otherwise a worker stalled past a lease could find a job it
   * still runs queued again by this process and claim it a second time. `null`: back to normal.
   */
  leaveLeaseRecovery(types: readonly string[] | null) {
    this.leaseRecoveryElsewhere = types ? [...types] : [];
  }

  takeBack(types: readonly string[]) {
    for (const t of types) this.handedOff.delete(t);
    if (this.started) this.wakeSoon();
  }

  /** Whether a queued job of one of `types` is due now (one index probe per type, as a claim looks). */
  hasDue(types: readonly string[]): boolean {
    const now = this.clock.now();
    for (const t of types) if (this.probeOf(t).get(now)) return true;
    return false;
  }

  /** Jobs this worker runs now. */
  get runningCount(): number {
    return this.running.size;
  }

  /** Makes this worker look at the table now (a probe that queues work from elsewhere, a worker process's exit). */
  poke() {
    if (this.started) this.wakeSoon();
  }

  get isRunning(): boolean {
    return this.started;
  }

  registeredTypes(): string[] {
    return [...this.handlers.keys()];
  }

  /** Queues a job and returns its id (or the id of the queued/running job with the same dedupeKey). */
  enqueue(type: string, payload: unknown = {}, opts: EnqueueOptions = {}): string {
    // Raw statements on the one connection: inside a caller's drizzle transaction they take
    // part in it (bun:sqlite transactions are per connection). The status literals match the
    // partial index jobs_dedupe_idx, so the look-up is one index probe however many jobs wait.
    if (opts.dedupeKey) {
      const existing = this.dedupeStmt.get(opts.dedupeKey) as { id: string } | null;
      if (existing) return existing.id;
    }
    const id = newId();
    const now = this.clock.now();
    try {
      this.insertStmt.run({
        id,
        type,
        payload: JSON.stringify(payload ?? {}),
        max_attempts: opts.maxAttempts ?? this.handlers.get(type)?.maxAttempts ?? 3,
        run_at: opts.runAt ?? now,
        created_by: opts.createdBy ?? null,
        created_at: now,
        dedupe_key: opts.dedupeKey ?? null,
        lane: opts.lane ?? null,
      });
    } catch (e) {
      // Another process (the crawl's worker process) queued the same key between the look-up and
      // the insert (outside a write transaction they are two): its job is this one.
      const existing = opts.dedupeKey && (e as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE" ? (this.dedupeStmt.get(opts.dedupeKey) as { id: string } | null) : null;
      if (existing) return existing.id;
      throw e;
    }
    if (this.started && !opts.db) this.wake();
    else if (this.started) this.wakeSoon();
    return id;
  }

  get(id: string): Job | null {
    const r = this.sqlite.query("SELECT * FROM jobs WHERE id = ?").get(id);
    return r ? rowToJob(r) : null;
  }

  list(filter: { status?: string; type?: string; limit: number }): Job[] {
    const rows = this.sqlite
      .query(
        `SELECT * FROM jobs WHERE ($status IS NULL OR status = $status) AND ($type IS NULL OR type = $type)
         ORDER BY created_at DESC, id DESC LIMIT $limit`,
      )
      .all({ status: filter.status ?? null, type: filter.type ?? null, limit: filter.limit });
    return rows.map(rowToJob);
  }

  /** Requeues a failed or cancelled job. Returns false when the job is not in such a state. */
  retry(id: string): boolean {
    const r = this.sqlite
      .query(
        `UPDATE jobs SET status = 'queued', attempts = 0, run_at = $now, error = NULL, finished_at = NULL, lease_until = NULL
         WHERE id = $id AND status IN ('failed', 'cancelled') RETURNING id`,
      )
      .get({ id, now: this.clock.now() });
    if (r && this.started) this.wake();
    return !!r;
  }

  /** Makes a queued job due now (e.g. a snoozed wait the user cut short). */
  wakeUp(id: string): void {
    this.sqlite.query("UPDATE jobs SET run_at = MIN(run_at, $now) WHERE id = $id AND status = 'queued'").run({ id, now: this.clock.now() });
    if (this.started) this.wake();
  }

  /** Cancels a queued job. Returns false when the job is not queued. */
  cancel(id: string): boolean {
    const r = this.sqlite
      .query(`UPDATE jobs SET status = 'cancelled', finished_at = $now WHERE id = $id AND status = 'queued' RETURNING id`)
      .get({ id, now: this.clock.now() });
    return !!r;
  }

  /**
   * Jobs left `running` by a process that died (their lease ran out: nobody renews it) are
   * queued again, and the interrupted attempt is not counted: a crash is not the job's failure.
   * Called at start and on every worker tick; a job this process runs is never touched.
   */
  recoverInterrupted(): number {
    const n = this.requeueRunning(
      `(lease_until IS NULL OR lease_until < $now) AND id NOT IN (SELECT value FROM json_each($mine))
       AND type NOT IN (SELECT value FROM json_each($elsewhere))`,
      { mine: JSON.stringify([...this.running.keys()]), elsewhere: JSON.stringify(this.leaseRecoveryElsewhere) },
    );
    if (n) this.log.warn("requeued jobs whose process stopped while they ran", { count: n });
    return n;
  }

  /**
   * Jobs of `types` left `running` by a worker process this process started at `since` and saw
   * exit (src/jobs/worker-process.ts): queued again at once, as recoverInterrupted does once a
   * lease runs out (the attempt not counted), without waiting for the lease: the process that
   * held them is known to be gone, and only it ran these types since then. Jobs of these types
   * started before `since` (by an earlier process) are left to their leases.
   */
  recoverFromExited(types: readonly string[], since: number): number {
    const n = this.requeueRunning(
      `type IN (SELECT value FROM json_each($types)) AND started_at >= $since AND id NOT IN (SELECT value FROM json_each($mine))`,
      { since, types: JSON.stringify(types), mine: JSON.stringify([...this.running.keys()]) },
    );
    if (n) this.log.warn("requeued jobs whose worker process stopped while they ran", { count: n });
    return n;
  }

  start() {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.recoverInterrupted();
    this.wake();
  }

  /**
   * Stops claiming, aborts running jobs' signals and waits for them (up to timeoutMs). An aborted
   * job is left `running`, requeued by the next start once its lease runs out; with `requeue`
   * (a worker process that stops while its parent lives on) the jobs whose handlers returned are
   * queued again at once instead, the attempt not counted. A handler still running at the timeout
   * is left to its lease.
   */
  async stop(timeoutMs = 10_000, opts: { requeue?: boolean } = {}) {
    this.stopping = true;
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pending = [...this.running.entries()];
    const settled = new Set<string>();
    for (const [, r] of pending) r.abort.abort();
    await Promise.race([Promise.allSettled(pending.map(([id, p]) => p.promise.finally(() => settled.add(id)))), Bun.sleep(timeoutMs)]);
    if (opts.requeue && settled.size) {
      this.requeueRunning(`id IN (SELECT value FROM json_each($ids))`, { ids: JSON.stringify([...settled]) });
    }
  }

  /**
   * Queues again the `running` jobs that `where` picks (its parameters in `params`, `$now` given),
   * run at once, the interrupted attempt not counted; how many. Every way a job whose process
   * stopped goes back to the queue (a lease run out, a worker process's exit, a worker process
   * stopping) is this one statement.
   */
  private requeueRunning(where: string, params: Record<string, string | number>): number {
    return this.sqlite
      .query(
        `UPDATE jobs SET status = 'queued', run_at = $now, lease_until = NULL, attempts = MAX(attempts - 1, 0),
           error = 'interrupted: the process running it stopped; not counted as an attempt'
         WHERE status = 'running' AND ${where} RETURNING id`,
      )
      .all({ ...params, now: this.clock.now() }).length;
  }

  /**
   * A wake after the current synchronous work (an enqueue inside a transaction, a job's end).
   * Several requested in the same turn run as one: a wake only looks at the table as it is then.
   */
  private wakeSoon() {
    if (this.wakeQueued) return;
    this.wakeQueued = true;
    queueMicrotask(() => {
      this.wakeQueued = false;
      this.wake();
    });
  }

  private wake() {
    if (!this.started) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    try {
      this.recoverInterrupted();
    } catch (e) {
      this.log.error("requeue of interrupted jobs failed", { error: String(e) });
    }
    for (const hook of this.tickHooks) {
      try {
        hook();
      } catch (e) {
        this.log.error("job tick hook failed", { error: String(e) });
      }
    }
    this.fill();
    if (this.started) this.timer = setTimeout(() => this.wake(), this.pollMs);
  }

  private fill() {
    while (!this.stopping && this.running.size < GLOBAL_SLOTS) {
      const job = this.claim();
      if (!job) return;
      const abort = new AbortController();
      const promise = this.execute(job, abort.signal).finally(() => {
        this.running.delete(job.id);
        if (this.started) this.wakeSoon();
      });
      this.running.set(job.id, { type: job.type, promise, abort });
    }
  }

  private claim(): Job | null {
    const counts = new Map<string, number>();
    for (const r of this.running.values()) counts.set(r.type, (counts.get(r.type) ?? 0) + 1);
    const types = [...this.handlers.entries()]
      .filter(([t, h]) => (this.only === null || this.only.has(t)) && !this.handedOff.has(t) && (counts.get(t) ?? 0) < (h.concurrency ?? 2))
      .map(([t]) => t);
    if (types.length === 0) return null;
    return this.claimOf(types);
  }

  /**
   * The probe of one type. The type is a literal of the statement, not a bound parameter: a
   * parameter compared where a partial index is considered makes SQLite prepare the statement
   * again on every new binding (measured: ~35 µs a probe instead of ~6).
   */
  private probeOf(type: string): Statement<{ id: string; run_at: number }, [number]> {
    return stmt(
      this.sqlite,
      `SELECT j.id, j.run_at FROM jobs j INDEXED BY jobs_queued_type_idx
       WHERE j.status = 'queued' AND j.type = '${type.replaceAll("'", "''")}' AND j.run_at <= ?1
         AND (j.lane IS NULL OR NOT EXISTS (SELECT 1 FROM jobs r WHERE r.lane = j.lane AND r.status = 'running'))
       ORDER BY j.run_at, j.id LIMIT 1`,
    ) as Statement<{ id: string; run_at: number }, [number]>;
  }

  /** Claims the earliest due queued job of `types` (run_at, then id) whose lane is free, if any. */
  private claimOf(types: string[]): Job | null {
    for (;;) {
      const now = this.clock.now();
      let best: { id: string; run_at: number } | null = null;
      for (const type of types) {
        const r = this.probeOf(type).get(now);
        // ids compare as SQLite's BINARY collation does (ASCII)
        if (r && (!best || r.run_at < best.run_at || (r.run_at === best.run_at && r.id < best.id))) best = r;
      }
      if (!best) return null;
      const row = this.claimByIdStmt.get({ id: best.id, now, lease: now + LEASE_MS });
      if (row) return rowToJob(row);
      // another process claimed it in between: look again
    }
  }

  /** Runs one claimed job to completion, recording the outcome. */
  private async execute(job: Job, signal: AbortSignal): Promise<void> {
    const handler = this.handlers.get(job.type)!;
    const log = this.log.child({ job_id: job.id, job_type: job.type });
    const heartbeat = setInterval(() => {
      this.sqlite.query("UPDATE jobs SET lease_until = ? WHERE id = ? AND status = 'running'").run(this.clock.now() + LEASE_MS, job.id);
    }, HEARTBEAT_MS);
    const ctx: JobContext = {
      signal,
      log,
      progress: (p) => {
        this.sqlite.query("UPDATE jobs SET progress = ? WHERE id = ?").run(JSON.stringify(p), job.id);
      },
    };
    try {
      const result = await handler.run(job, ctx);
      if (signal.aborted && this.stopping) return; // left running: requeued at next start
      this.sqlite
        .query("UPDATE jobs SET status = 'succeeded', finished_at = ?, lease_until = NULL, result = ? WHERE id = ? AND status = 'running'")
        .run(this.clock.now(), result === undefined ? null : JSON.stringify(result), job.id);
      this.onFinished?.(job, "succeeded");
    } catch (err) {
      if (signal.aborted && this.stopping) return;
      if (err instanceof SnoozeJob) {
        this.sqlite
          .query(
            `UPDATE jobs SET status = 'queued', run_at = ?, lease_until = NULL, attempts = MAX(attempts - 1, 0), error = NULL
             WHERE id = ? AND status = 'running'`,
          )
          .run(this.clock.now() + Math.max(0, err.afterMs), job.id);
        this.onFinished?.(job, "queued");
        return;
      }
      const message = err instanceof Error ? err.message : String(err);
      const permanent = err instanceof PermanentJobError;
      if (!permanent && job.attempts < job.max_attempts) {
        const explicit = (err as { retryAfterMs?: number })?.retryAfterMs;
        const delay = explicit ?? (handler.retryDelayMs ?? defaultRetryDelay)(job.attempts, err);
        this.sqlite
          .query("UPDATE jobs SET status = 'queued', run_at = ?, lease_until = NULL, error = ? WHERE id = ? AND status = 'running'")
          .run(this.clock.now() + delay, message, job.id);
        log.warn("job failed, will retry", { error: message, attempt: job.attempts, retry_in_ms: delay });
        this.onFinished?.(job, "queued");
      } else {
        this.sqlite
          .query("UPDATE jobs SET status = 'failed', finished_at = ?, lease_until = NULL, error = ? WHERE id = ? AND status = 'running'")
          .run(this.clock.now(), message, job.id);
        log.error("job failed", { error: message, attempts: job.attempts });
        this.onFinished?.(job, "failed");
      }
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * Runs due jobs one after another until none is due (tests and CLI use this instead of the
   * background loop). Returns how many jobs ran.
   */
  async drain(opts: { types?: string[]; max?: number } = {}): Promise<number> {
    let n = 0;
    const max = opts.max ?? 1000;
    while (n < max) {
      const job = this.claimOf(opts.types ?? this.registeredTypes());
      if (!job) break;
      await this.execute(job, new AbortController().signal);
      n++;
    }
    return n;
  }

  /** Count of queued/running jobs (health, tests). */
  pendingCount(): number {
    return (this.sqlite.query("SELECT COUNT(*) AS n FROM jobs WHERE status IN ('queued','running')").get() as { n: number }).n;
  }
}


