// GET /game-servers/:id for every online server (issue 29, "any online server detail"), in
// process: app.handle through the whole stack on a copy of bench/data/full.db (its online servers
// shifted to be seen now, bench/live-copy.ts: else they are offline and answered by the SQL path),
// CPU and wall µs per
// request for three passes: every online server once in a shuffled order (cold caches), the same
// again (the per-mod catalog part warm; most whole answers evicted: 5,000 answers are ~150 MB),
// and the busiest server 2,000 times (a kept answer).
//   bun bench/detail-passes.ts --dir <dir for a kept copy, loadout.db> [--root <a source tree>]
// --root measures another tree (e.g. `git archive <commit>` unpacked, node_modules linked) against
// the same kind of copy, for a before/after pair run back to back.
import { resolve } from "node:path";
import { liveCopy } from "./live-copy";
import { argOf } from "./args";

const root = resolve(argOf("root", resolve(import.meta.dir, "..")));
const dir = argOf("dir", "");
if (!dir) throw new Error("--dir <dir for a kept copy of bench/data/full.db> is required");
liveCopy("full", dir);
const { loadConfig } = await import(`${root}/src/config`);
const { createDeps } = await import(`${root}/src/runtime`);
const { createApp } = await import(`${root}/src/app`);
const { mulberry32 } = await import(`${root}/test/fixtures/prng`);
const deps = createDeps(loadConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "error", LOADOUT_TRUST_PROXY: "true" }));
const app = createApp(deps);
const ids = (deps.sqlite.query("SELECT id FROM game_servers WHERE online = 1 ORDER BY id").all() as { id: string }[]).map((r) => r.id);
const busiest = (deps.sqlite.query("SELECT id FROM game_servers WHERE online = 1 ORDER BY mods_count DESC, id LIMIT 1").get() as { id: string }).id;
const rnd = mulberry32(7);
for (let i = ids.length - 1; i > 0; i--) {
  const j = Math.floor(rnd() * (i + 1));
  [ids[i], ids[j]] = [ids[j]!, ids[i]!];
}
let ip = 1;
async function req(id: string) {
  const r = await app.handle(new Request(`http://localhost/api/v1/game-servers/${id}`, { headers: { "x-forwarded-for": `10.9.${(ip >> 8) & 255}.${ip++ & 255}` } }));
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`${id}: ${r.status}`);
}
async function pass(name: string, list: string[]) {
  const c = process.cpuUsage();
  const t = performance.now();
  for (const id of list) await req(id);
  const u = process.cpuUsage(c);
  console.log(`| ${name} | ${list.length} | ${((u.user + u.system) / list.length).toFixed(0)} | ${(((performance.now() - t) * 1000) / list.length).toFixed(0)} |`);
}
console.log(`${root}: µs per request (CPU of this process, wall)\n| pass | requests | CPU µs | wall µs |\n|---|---|---|---|`);
await pass("every online server once (cold)", ids);
await pass("every online server again", ids);
await pass("the busiest server", Array<string>(2000).fill(busiest));
process.exit(0);
