// Runs the job worker on a data dir until killed: the "process killed mid-deploy" half of
// src/features/servers/deploy/restart.test.ts (the test kills it with SIGKILL while a deployment verifies).
import { loadConfig } from "../../src/config";
import { createDeps } from "../../src/runtime";

const dir = process.argv[2]!;
const pollMs = Number(process.argv[3] ?? 50);
const deps = createDeps(
  loadConfig({ ...process.env, LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "error" }),
  { pollMs },
);
deps.jobs.start();
await new Promise(() => {}); // until killed
