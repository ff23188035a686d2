// Runs the job worker on a data dir and dies (SIGKILL) in the middle of a job: the
// "crash mid-run" half of src/features/jobs/jobs.test.ts.
import { testConfig } from "../../src/config";
import { createDeps } from "../../src/runtime";

const dir = process.argv[2]!;
const deps = createDeps(testConfig({ LOADOUT_DATA_DIR: dir }));
deps.jobs.register("test.step", {
  run: async (job, ctx) => {
    ctx.progress({ step: 1 });
    // The process dies here, after the job was claimed and progress written.
    process.kill(process.pid, "SIGKILL");
    await Bun.sleep(10_000);
  },
});
const id = deps.jobs.enqueue("test.step", { n: 1 });
console.log(id);
deps.jobs.start();
await Bun.sleep(10_000);
