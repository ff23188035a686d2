// The live list's own work (listServersBytes, the route's service call) of this tree against
// another tree (--before <tree>, e.g. main exported with `git archive`, node_modules linked) in the
// same process on the same kept copy of the full db, the varied rows' queries of bench/run.ts
// parsed beforehand; alternated every 100 queries, CPU µs a query, medians (a shared machine's load moves
// both alike). `--fresh`: each round answers queries none answered before (page cache misses, as
// wrk's 200,000 varied paths mostly are); without it every round answers the same queries.
//   bun bench/live-list-ab.ts --dir /tmp/x --before /tmp/tree [--queries 5000] [--rounds 7] [--only regex] [--fresh]
import { join } from "node:path";
import type { ListQuery } from "../src/features/live/model";
import { mulberry32 } from "../test/fixtures/prng";
import { variedEndpoints, vocabulary } from "./run";
import { cpuMicros, liveCopy, parseListPath } from "./live-copy";
import { argOf } from "./args";

const queries = Number(argOf("queries", "5000"));
const rounds = Number(argOf("rounds", "7"));
const only = new RegExp(argOf("only", "game-servers"));
const fresh = process.argv.includes("--fresh");
const { dir, done } = liveCopy("full", argOf("dir", ""));
const env = { LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "error" };
type Tree = { label: string; deps: any; list: (deps: any, q: ListQuery) => Uint8Array };
const treeOf = async (label: string, root: string): Promise<Tree> => {
  const deps = (await import(join(root, "src/runtime.ts"))).createDeps((await import(join(root, "src/config.ts"))).loadConfig(env));
  return { label, deps, list: (await import(join(root, "src/features/live/service.ts"))).listServersBytes };
};
const trees = [await treeOf("after", join(import.meta.dir, ".."))];
if (argOf("before", "")) trees.unshift(await treeOf("before", argOf("before", "")));
const vocab = vocabulary(join(dir, "loadout.db"));
const parse = parseListPath;
const cpu = cpuMicros;
const dec = new TextDecoder();
for (const e of variedEndpoints(vocab)) {
  if (!e.name.includes("game-servers") || !only.test(e.name)) continue;
  const rnd = mulberry32(7);
  const sets = Array.from({ length: fresh ? rounds + 1 : 1 }, () => Array.from({ length: queries }, () => parse(e.vary!(rnd))));
  // Same answers, byte for byte.
  for (const q of sets[0]!.slice(0, 500)) {
    const a = trees.map((t) => dec.decode(t.list(t.deps, q)));
    if (a.some((x) => x !== a[0])) throw new Error(`different answers for ${JSON.stringify(q)}`);
  }
  // Warm: the lazily built indexes and the JIT, on queries the rounds do not ask again with --fresh.
  for (const t of trees) for (const q of sets[0]!) t.list(t.deps, q);
  const us = trees.map(() => [] as number[]);
  // Alternated every CHUNK queries (a shared machine's load drifts slower than that), the order
  // of the trees swapped each chunk; a round's µs is its CPU over its queries.
  const CHUNK = 100;
  for (let r = 0; r < rounds; r++) {
    const qs = sets[fresh ? r + 1 : 0]!;
    const sum = trees.map(() => 0);
    for (let c0 = 0, x = 0; c0 < qs.length; c0 += CHUNK, x++) {
      const chunk = qs.slice(c0, c0 + CHUNK);
      for (const k of (r + x) % 2 ? [...trees.keys()].reverse() : trees.keys()) {
        const t = trees[k]!;
        const c = cpu();
        for (const q of chunk) t.list(t.deps, q);
        sum[k] += cpu() - c;
      }
    }
    for (const k of trees.keys()) us[k]!.push(sum[k]! / qs.length);
  }
  const med = (a: number[]) => a.slice().sort((x, y) => x - y)[a.length >> 1]!.toFixed(1);
  console.log(`${e.name}${fresh ? " (fresh queries)" : ""}: ${trees.map((t, k) => `${t.label} ${med(us[k]!)} µs (${us[k]!.map((x) => x.toFixed(1)).join(", ")})`).join("; ")}`);
}
done();
process.exit(0);
