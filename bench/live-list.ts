// In-process cost of GET /game-servers's own work (issue 29, round 2): the varied rows' queries of
// `bun bench/run.ts`, parsed beforehand, answered by the service function the route calls
// (listServersBytes: page from the snapshot, page cache included) and by querySnapshot (the page's
// rows only, no bytes, no cache), µs per query; no HTTP, no Elysia. On a kept copy of the full db
// (as bench/live-rows.ts --dir). With `bun --cpu-prof` it is the loop to profile.
//   bun bench/live-list.ts --dir /tmp/x [--queries N] [--runs 3] [--only <regex of row names>]
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { createDeps } from "../src/runtime";
import type { ListQuery } from "../src/features/live/model";
import { listServers, listServersBytes } from "../src/features/live/service";
import { mulberry32 } from "../test/fixtures/prng";
import { variedEndpoints, vocabulary } from "./run";
import { cpuMicros, liveCopy, parseListPath } from "./live-copy";
import { argOf } from "./args";

const queries = Number(argOf("queries", "20000"));
const runs = Number(argOf("runs", "3"));
const only = new RegExp(argOf("only", "game-servers"));
const { dir, done } = liveCopy("full", argOf("dir", ""));
const deps = createDeps(loadConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "error" }));
const vocab = vocabulary(join(dir, "loadout.db"));
const parse = parseListPath;
const cpu = cpuMicros;
console.log(`${queries} queries a row, ${runs} runs; CPU µs per query (median of the runs)`);
console.log("| row | listServersBytes (route's work) | querySnapshot (rows only, no cache) |\n|---|---|---|");
for (const e of variedEndpoints(vocab)) {
  if (!e.name.includes("game-servers") || !only.test(e.name)) continue;
  const rnd = mulberry32(7);
  const qs = Array.from({ length: queries }, () => parse(e.vary!(rnd)));
  const med = (f: (q: ListQuery) => unknown) => {
    const r: number[] = [];
    for (let k = 0; k < runs; k++) {
      for (let i = 0; i < 500; i++) f(qs[i]!);
      const t = cpu();
      for (const q of qs) f(q);
      r.push((cpu() - t) / qs.length);
    }
    return r.sort((a, b) => a - b)[runs >> 1]!.toFixed(1);
  };
  console.log(`| ${e.name} | ${med((q) => listServersBytes(deps, q))} | ${med((q) => listServers(deps, q))} |`);
}
done();
process.exit(0);
