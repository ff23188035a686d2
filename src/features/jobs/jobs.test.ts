import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, TestClock } from "../../../test/helpers";
import { until } from "../../../test/until";
import { testConfig } from "../../config";
import { createDeps } from "../../runtime";
import { LEASE_MS, PermanentJobError, RetryLaterError } from "../../jobs/queue";

describe("job queue", () => {
  test("a job running when the process was killed is picked up again after restart on the same database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loadout-crash-"));
    const child = Bun.spawn([process.execPath, "test/scripts/crash-mid-job.ts", dir], { stdout: "pipe", stderr: "pipe", cwd: join(import.meta.dir, "../../..") });
    const out = await new Response(child.stdout).text();
    const code = await child.exited;
    expect(code).not.toBe(0); // killed
    const jobId = out.trim().split("\n")[0]!;

    const clock = new TestClock();
    const deps = createDeps(testConfig({ LOADOUT_DATA_DIR: dir }), { clock });
    try {
      const before = deps.jobs.get(jobId)!;
      expect(before.status).toBe("running");
      expect(before.progress).toEqual({ step: 1 });
      expect(before.attempts).toBe(1);
      let ran = 0;
      deps.jobs.register("test.step", { run: async () => void ran++ });
      // While its lease could still be renewed by a live process, nobody takes the job.
      expect(deps.jobs.recoverInterrupted()).toBe(0);
      clock.advance(LEASE_MS + 1000);
      expect(deps.jobs.recoverInterrupted()).toBe(1);
      expect(deps.jobs.get(jobId)!.attempts).toBe(0); // the interrupted attempt does not count
      expect(await deps.jobs.drain()).toBe(1);
      expect(ran).toBe(1);
      const after = deps.jobs.get(jobId)!;
      expect(after.status).toBe("succeeded");
      expect(after.attempts).toBe(1);
    } finally {
      deps.sqlite.close();
    }
  });

  test("failures retry with backoff until max attempts, then fail with the error message", async () => {
    const clock = new TestClock();
    const t = await createTestApp({ clock });
    try {
      let calls = 0;
      t.deps.jobs.register("test.flaky", {
        maxAttempts: 3,
        run: () => {
          calls++;
          throw new Error(`boom ${calls}`);
        },
      });
      const id = t.deps.jobs.enqueue("test.flaky", {});
      await t.deps.jobs.drain();
      let j = t.deps.jobs.get(id)!;
      expect(j.status).toBe("queued");
      expect(j.error).toBe("boom 1");
      expect(j.run_at).toBe(clock.now() + 30_000);
      expect(await t.deps.jobs.drain()).toBe(0); // not due yet
      clock.advance(30_000);
      await t.deps.jobs.drain();
      j = t.deps.jobs.get(id)!;
      expect(j.run_at).toBe(clock.now() + 120_000);
      clock.advance(120_000);
      await t.deps.jobs.drain();
      j = t.deps.jobs.get(id)!;
      expect(j.status).toBe("failed");
      expect(j.attempts).toBe(3);
      expect(j.error).toBe("boom 3");
      expect(calls).toBe(3);
    } finally {
      await t.close();
    }
  });

  test("PermanentJobError fails at once; RetryLaterError sets the delay", async () => {
    const clock = new TestClock();
    const t = await createTestApp({ clock });
    try {
      t.deps.jobs.register("test.perm", { run: () => { throw new PermanentJobError("bad input"); } });
      t.deps.jobs.register("test.later", { run: () => { throw new RetryLaterError("429", 7000); } });
      const a = t.deps.jobs.enqueue("test.perm", {});
      const b = t.deps.jobs.enqueue("test.later", {});
      await t.deps.jobs.drain();
      expect(t.deps.jobs.get(a)!.status).toBe("failed");
      expect(t.deps.jobs.get(a)!.attempts).toBe(1);
      expect(t.deps.jobs.get(b)!.run_at).toBe(clock.now() + 7000);
    } finally {
      await t.close();
    }
  });

  test("dedupe keys return the queued job; lanes run one job at a time", async () => {
    const t = await createTestApp();
    try {
      t.deps.jobs.register("test.noop", { run: () => {} });
      const a = t.deps.jobs.enqueue("test.noop", { x: 1 }, { dedupeKey: "same" });
      const b = t.deps.jobs.enqueue("test.noop", { x: 2 }, { dedupeKey: "same" });
      expect(b).toBe(a);
      await t.deps.jobs.drain();
      const c = t.deps.jobs.enqueue("test.noop", {}, { dedupeKey: "same" });
      expect(c).not.toBe(a); // the first one finished

      const order: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      t.deps.jobs.register("test.lane", {
        concurrency: 5,
        run: async (job) => {
          order.push(`start ${job.payload.n}`);
          if (job.payload.n === 1) await gate;
          order.push(`end ${job.payload.n}`);
        },
      });
      t.deps.jobs.enqueue("test.lane", { n: 1 }, { lane: "server:1" });
      t.deps.jobs.enqueue("test.lane", { n: 2 }, { lane: "server:1" });
      t.deps.jobs.enqueue("test.lane", { n: 3 }, { lane: "server:2" });
      t.deps.jobs.start();
      // Job 3 done while job 1 holds lane server:1: job 2 (queued before job 3) was passed over.
      await until("job 3 done", () => order.includes("end 3"));
      expect(order).toEqual(["start 1", "start 3", "end 3"]);
      release();
      await until("job 2 done", () => order.includes("end 2"));
      expect(order.slice(3)).toEqual(["end 1", "start 2", "end 2"]);
    } finally {
      await t.close();
    }
  });

  test("a job enqueued inside a transaction that rolls back does not exist", async () => {
    const t = await createTestApp();
    try {
      t.deps.jobs.register("test.noop", { run: () => {} });
      let id = "";
      expect(() =>
        t.deps.db.transaction((tx) => {
          id = t.deps.jobs.enqueue("test.noop", {}, { db: tx });
          throw new Error("rollback");
        }),
      ).toThrow("rollback");
      expect(t.deps.jobs.get(id)).toBeNull();
    } finally {
      await t.close();
    }
  });

  test("thousands of jobs queued in one transaction (a scan's unknown mods) wake the running worker once", async () => {
    const t = await createTestApp();
    try {
      t.deps.jobs.start();
      let ticks = 0;
      t.deps.jobs.onTick(() => void ticks++);
      // As queueScrapes does after a first sight: one transaction, every job with `db`. The type
      // has no handler here, so no job end wakes it again.
      t.deps.sqlite.transaction(() => {
        for (let i = 0; i < 3000; i++) t.deps.jobs.enqueue("test.unhandled", { i }, { dedupeKey: `wake:${i}`, db: t.deps.db });
      })();
      expect(ticks).toBe(0);
      await Promise.resolve();
      expect(ticks).toBe(1);
      expect(t.deps.jobs.list({ type: "test.unhandled", status: "queued", limit: 5000 }).length).toBe(3000);
    } finally {
      await t.deps.jobs.stop();
      await t.close();
    }
  });
});

describe("job types handed to a worker process (src/jobs/worker-process.ts)", () => {
  test("handOff: never claimed here; claimOnly: only those; hasDue sees them; recoverFromExited requeues what the exited process held since its start", async () => {
    const t = await createTestApp();
    try {
      const ran: string[] = [];
      for (const type of ["w.crawl", "w.other"]) t.deps.jobs.register(type, { run: async (job) => void ran.push(job.type) });
      t.deps.jobs.handOff(["w.crawl"]);
      const crawl = t.deps.jobs.enqueue("w.crawl");
      t.deps.jobs.enqueue("w.other");
      expect(t.deps.jobs.hasDue(["w.crawl"])).toBe(true);
      t.deps.jobs.start();
      // w.other was queued after the crawl's job: the worker ran it, so it passed the crawl's over.
      await until("the other job run", () => ran.length > 0);
      await t.deps.jobs.stop(1000);
      expect(ran).toEqual(["w.other"]);
      expect(t.deps.jobs.get(crawl)!.status).toBe("queued");

      // the "child": another queue on the same file, claiming only the handed-off type
      const child = createDeps(t.config, { clock: t.clock });
      try {
        let finish!: () => void;
        child.jobs.register("w.crawl", { run: () => new Promise<void>((r) => (finish = r)) }); // "dies" while running it
        child.jobs.register("w.other", { run: async () => {} });
        t.deps.jobs.enqueue("w.other");
        child.jobs.claimOnly(["w.crawl"]);
        const since = t.clock.now();
        t.clock.advance(10);
        const draining = child.jobs.drain({ max: 1, types: ["w.crawl"] });
        await until("the crawl's job running in the child", () => finish !== undefined && child.jobs.get(crawl)!.status === "running");
        expect(t.deps.jobs.hasDue(["w.crawl"])).toBe(false);
        // the lease still runs, so the ordinary recovery leaves it; the exit-time one does not
        expect(t.deps.jobs.recoverInterrupted()).toBe(0);
        // while the worker process lives, its leases are its own business, even run out
        t.deps.jobs.leaveLeaseRecovery(["w.crawl"]);
        t.clock.advance(LEASE_MS + 1000);
        expect(t.deps.jobs.recoverInterrupted()).toBe(0);
        t.deps.jobs.leaveLeaseRecovery(null);
        t.clock.advance(-(LEASE_MS + 1000));
        expect(t.deps.jobs.recoverFromExited(["w.other"], since)).toBe(0); // other types untouched
        expect(t.deps.jobs.recoverFromExited(["w.crawl"], t.clock.now() + 1)).toBe(0); // started before that process
        expect(t.deps.jobs.recoverFromExited(["w.crawl"], since)).toBe(1);
        const back = t.deps.jobs.get(crawl)!;
        expect(back).toMatchObject({ status: "queued", attempts: 0 });
        expect(t.deps.jobs.pendingCount()).toBe(2);
        // (its handler let go, so that no heartbeat outlives the connection)
        finish();
        await draining;
        expect(t.deps.jobs.get(crawl)!.status).toBe("queued"); // its late end changes nothing
      } finally {
        child.sqlite.close();
      }
    } finally {
      await t.close();
    }
  });

  test("a dedupe key queued by another process between the look-up and the insert returns that job", async () => {
    const t = await createTestApp();
    const other = createDeps(t.config, { clock: t.clock });
    try {
      const q = t.deps.jobs as unknown as { dedupeStmt: { get(k: string): unknown } };
      const real = q.dedupeStmt;
      let theirs = "";
      // The look-up finds nothing; then the other process inserts the same key before our insert.
      q.dedupeStmt = {
        get: (k: string) => {
          q.dedupeStmt = real;
          theirs = other.jobs.enqueue("scrape.detail", { workshop_id: "5965550F24A0C152" }, { dedupeKey: k });
          return null;
        },
      };
      const ours = t.deps.jobs.enqueue("scrape.detail", { workshop_id: "5965550F24A0C152" }, { dedupeKey: "scrape:5965550F24A0C152" });
      expect(theirs).not.toBe("");
      expect(ours).toBe(theirs);
      expect(t.deps.jobs.pendingCount()).toBe(1);
    } finally {
      other.sqlite.close();
      await t.close();
    }
  });
});

describe("admin job endpoints", () => {
  test("list, get, cancel a queued job, retry a failed one; admin only", async () => {
    const t = await createTestApp();
    try {
      const admin = await t.createUser({ role: "admin" });
      const user = await t.createUser();
      t.deps.jobs.register("test.fail", { maxAttempts: 1, run: () => { throw new Error("nope"); } });
      t.deps.jobs.register("test.noop", { run: () => {} });
      const failed = t.deps.jobs.enqueue("test.fail", { a: 1 }, { createdBy: admin.id });
      await t.deps.jobs.drain();
      const queued = t.deps.jobs.enqueue("test.noop", {}, { runAt: t.clock.now() + 3_600_000 });

      expect((await t.req("GET", "/api/v1/jobs")).status).toBe(401);
      expect((await t.req("GET", "/api/v1/jobs", { user })).status).toBe(403);
      const list = await t.req("GET", "/api/v1/jobs?status=failed", { user: admin });
      expect(list.status).toBe(200);
      expect(list.body.jobs.map((j: any) => j.id)).toEqual([failed]);
      expect(list.body.jobs[0]).toMatchObject({ type: "test.fail", status: "failed", error: "nope", attempts: 1, payload: { a: 1 }, created_by: admin.id });
      const all = await t.req("GET", "/api/v1/jobs?limit=1", { user: admin });
      expect(all.body.jobs).toHaveLength(1);
      expect(all.body.jobs[0].id).toBe(queued); // newest first

      const one = await t.req("GET", `/api/v1/jobs/${queued}`, { user: admin });
      expect(one.body.status).toBe("queued");
      expect((await t.req("GET", `/api/v1/jobs/nope`, { user: admin })).status).toBe(404);

      expect((await t.req("DELETE", `/api/v1/jobs/${failed}`, { user: admin })).status).toBe(409);
      expect((await t.req("DELETE", `/api/v1/jobs/${queued}`, { user: admin })).status).toBe(204);
      expect(t.deps.jobs.get(queued)!.status).toBe("cancelled");

      expect((await t.req("POST", `/api/v1/jobs/${failed}/retry`, { user: admin })).body).toEqual({ ok: true });
      expect(t.deps.jobs.get(failed)!.status).toBe("queued");
      expect((await t.req("POST", `/api/v1/jobs/${failed}/retry`, { user: admin })).status).toBe(409);
    } finally {
      await t.close();
    }
  });
});
