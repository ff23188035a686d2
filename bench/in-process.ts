// The service in process for the in-process benches (bench/memory.ts, bench/heap-census.ts): a
// temp copy of bench/data/full.db whose online servers are seen now (as bench/run.ts shifts
// them, so the live snapshot is full), the app on it, and the bench's varied and fixed GET rows.
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { createDeps } from "../src/runtime";
import { createApp } from "../src/app";
import { endpoints, variedEndpoints, vocabulary } from "./run";
import { liveCopy } from "./live-copy";

export function inProcessService(only: RegExp) {
  const { dir, meta, done } = liveCopy("full", "");
  const config = loadConfig({ ...process.env, LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "error", LOADOUT_TRUST_PROXY: "true" });
  const deps = createDeps(config);
  const app = createApp(deps);
  const v = vocabulary(join(dir, "loadout.db"));
  const rows = [...variedEndpoints(v), ...endpoints(meta, "").filter((e) => (e.method ?? "GET") === "GET" && !e.auth)].filter((e) => only.test(e.name));
  return {
    config,
    deps,
    app,
    rows,
    done: () => {
      deps.sqlite.close();
      done();
    },
  };
}
