// The supervisor of worker processes with stand-in children (the real crawl-worker is tested
// end to end in src/features/scraper/crawl-process.test.ts): a child that keeps crashing is
// started again only after a growing back-off; one that cannot run here (exit 78), or no process
// at all, gives the types back to the service.
import { afterEach, describe, expect, test } from "bun:test";
import { createTestApp, TestClock, type TestApp } from "../../test/helpers";
import { until } from "../../test/until";
import { superviseWorkerProcess, WORKER_CANNOT_RUN, type WorkerSupervisor } from "./worker-process";

let t: TestApp | null = null;
let sup: WorkerSupervisor | null = null;
afterEach(async () => {
  await sup?.stop(1000);
  sup = null;
  await t?.close();
  t = null;
});

async function setup(cmd: string[], clock?: TestClock) {
  t = await createTestApp(clock ? { clock } : {});
  const ran: string[] = [];
  t.deps.jobs.register("w.crawl", { run: async (job) => void ran.push(job.id) });
  sup = superviseWorkerProcess(t.deps.jobs, t.deps.log, { name: "crawl", types: ["w.crawl"], cmd, env: {} }, "test", clock ?? Date);
  t.deps.jobs.start();
  return { t, ran, sup };
}

describe("worker process supervisor", () => {
  test("a child that crashes at once is started again after 1 s, then 2 s, not in a loop; the service never runs its jobs", async () => {
    // The back-off is read from the supervisor's clock: the test's, moved by hand, so what is
    // checked is the supervisor's decision, not how fast this machine starts a process.
    const clock = new TestClock();
    const { t, ran, sup } = await setup([process.execPath, "-e", "process.exit(3)"], clock);
    let ticks = 0;
    t.deps.jobs.onTick(() => void ticks++); // after the supervisor's probe in every tick
    /** One more worker tick (the supervisor looked at the clock as it is now). */
    const tick = async () => {
      const seen = ticks;
      t.deps.jobs.poke();
      await until("a worker tick", () => ticks > seen);
    };
    const crashLines = () => t.log.lines.map((x) => JSON.parse(x)).filter((l: any) => l.msg === "worker process stopped unexpectedly; its jobs were queued again");
    t.deps.jobs.enqueue("w.crawl");
    for (const [n, backoffMs] of [[1, 1000], [2, 2000]] as const) {
      await until(`crash ${n}`, () => sup.stats.exits.crashed === n && crashLines().length === n);
      expect(crashLines()[n - 1]).toMatchObject({ exit_code: 3, next_start_in_ms: backoffMs });
      // not started again before its back-off, however often the worker looks
      clock.advance(backoffMs - 1);
      await tick();
      await tick();
      expect(sup.stats.started).toBe(n);
      // and started again once it is over
      clock.advance(1);
      await tick();
      await until(`start ${n + 1}`, () => sup.stats.started === n + 1);
    }
    await until("crash 3", () => sup.stats.exits.crashed === 3);
    expect(crashLines()[2]).toMatchObject({ exit_code: 3, next_start_in_ms: 4000 });
    expect(sup.stats.started).toBe(3);
    expect(ran).toEqual([]);
  }, 30_000);

  test(`a child that cannot run here (exit ${WORKER_CANNOT_RUN}): the service takes the types back and runs them`, async () => {
    const { t, ran, sup } = await setup([process.execPath, "-e", `process.exit(${WORKER_CANNOT_RUN})`]);
    const id = t.deps.jobs.enqueue("w.crawl");
    await until("the job run by the service", () => ran.length > 0);
    expect(ran).toEqual([id]);
    expect(sup.stats.started).toBe(1);
  }, 30_000);

  test("no process can be started: the service runs the types itself, with an error logged", async () => {
    const { t, ran, sup } = await setup(["/nonexistent/loadout-binary", "crawl-worker"]);
    const id = t.deps.jobs.enqueue("w.crawl");
    await until("the job run by the service", () => ran.length > 0);
    expect(ran).toEqual([id]);
    expect(sup.stats.started).toBe(0);
    expect(t.log.lines.map((x) => JSON.parse(x)).some((l: any) => l.level === "error" && l.msg.startsWith("could not start a worker process"))).toBe(true);
  }, 30_000);
});
