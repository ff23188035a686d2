// The supervisor of worker processes with stand-in children (the real crawl-worker is tested
// end to end in src/features/scraper/crawl-process.test.ts): a child that keeps crashing is
// started again only after a growing back-off; one that cannot run here (exit 78), or no process
// at all, gives the types back to the service.
import { afterEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../test/helpers";
import { superviseWorkerProcess, WORKER_CANNOT_RUN, type WorkerSupervisor } from "./worker-process";

let t: TestApp | null = null;
let sup: WorkerSupervisor | null = null;
afterEach(async () => {
  await sup?.stop(1000);
  sup = null;
  await t?.close();
  t = null;
});

async function setup(cmd: string[]) {
  t = await createTestApp();
  const ran: string[] = [];
  t.deps.jobs.register("w.crawl", { run: async (job) => void ran.push(job.id) });
  sup = superviseWorkerProcess(t.deps.jobs, t.deps.log, { name: "crawl", types: ["w.crawl"], cmd, env: {} }, "test", Date);
  t.deps.jobs.start();
  return { t, ran, sup };
}

describe("worker process supervisor", () => {
  test("a child that crashes at once is started again after 1 s, then 2 s, not in a loop; the service never runs its jobs", async () => {
    const { t, ran, sup } = await setup([process.execPath, "-e", "process.exit(3)"]);
    t.deps.jobs.enqueue("w.crawl");
    await Bun.sleep(3500);
    // starts at ~0, ~1 s and ~3 s (each back-off counted from the exit)
    expect(sup.stats.started).toBeGreaterThanOrEqual(2);
    expect(sup.stats.started).toBeLessThanOrEqual(3);
    expect(sup.stats.exits.crashed).toBeGreaterThanOrEqual(2);
    expect(ran).toEqual([]);
    expect(t.log.lines.map((x) => JSON.parse(x)).some((l: any) => l.msg === "worker process stopped unexpectedly; its jobs were queued again" && l.exit_code === 3)).toBe(true);
  }, 10_000);

  test(`a child that cannot run here (exit ${WORKER_CANNOT_RUN}): the service takes the types back and runs them`, async () => {
    const { t, ran, sup } = await setup([process.execPath, "-e", `process.exit(${WORKER_CANNOT_RUN})`]);
    const id = t.deps.jobs.enqueue("w.crawl");
    const end = performance.now() + 5000;
    while (ran.length === 0 && performance.now() < end) await Bun.sleep(20);
    expect(ran).toEqual([id]);
    expect(sup.stats.started).toBe(1);
  }, 10_000);

  test("no process can be started: the service runs the types itself, with an error logged", async () => {
    const { t, ran, sup } = await setup(["/nonexistent/loadout-binary", "crawl-worker"]);
    const id = t.deps.jobs.enqueue("w.crawl");
    const end = performance.now() + 5000;
    while (ran.length === 0 && performance.now() < end) await Bun.sleep(20);
    expect(ran).toEqual([id]);
    expect(sup.stats.started).toBe(0);
    expect(t.log.lines.map((x) => JSON.parse(x)).some((l: any) => l.level === "error" && l.msg.startsWith("could not start a worker process"))).toBe(true);
  }, 10_000);
});
