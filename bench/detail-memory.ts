// What warming every online server's detail (src/features/live/detail.ts warmDetails) costs in
// memory and time, in process on a temp copy of bench/data/full.db whose online servers are seen
// now (docs/performance.md "Round 4, memory and server detail"): RSS (anonymous / file-backed), the
// JavaScript heap (bun:jsc heapStats: size and object count) and the detail caches' own count of
// their bytes, at start (after the first list request builds the live snapshot), after the warm,
// and after a full collection (and Bun.shrink with --shrink); then `--requests N` online server
// details (each a random online server), their CPU µs a request.
//
//   bun bench/detail-memory.ts [--requests 5000] [--seed 1] [--shrink]
import { readFileSync } from "node:fs";
import { heapStats } from "bun:jsc";
import { inProcessService } from "./in-process";
import { detailCacheStats, warmDetails } from "../src/features/live/detail";
import { peekLiveSnapshot } from "../src/features/live/snapshot";
import { argOf } from "./args";

const requests = Number(argOf("requests", "5000"));
let seed = Number(argOf("seed", "1"));
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const svc = inProcessService(/^$/);
const mib = (b: number) => (b / 2 ** 20).toFixed(1);
const status = () => {
  const s = readFileSync("/proc/self/status", "utf8");
  const kb = (f: string) => Number(new RegExp(`${f}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) / 1024;
  return `RSS ${kb("VmRSS").toFixed(0)} MiB (anonymous ${kb("RssAnon").toFixed(0)}, file ${kb("RssFile").toFixed(0)})`;
};
const heap = () => {
  const h = heapStats();
  return `heap ${mib(h.heapSize)} MiB (capacity ${mib(h.heapCapacity)}) in ${h.objectCount} objects (extra ${mib(h.extraMemorySize)} MiB)`;
};
let lastTypes: Record<string, number> = {};
const report = (what: string) => {
  const types = heapStats().objectTypeCounts as Record<string, number>;
  const diff = Object.entries(types).map(([t, n]) => [t, n - (lastTypes[t] ?? 0)] as const).filter(([, n]) => Math.abs(n) >= 1000).sort((a, b) => b[1] - a[1]);
  if (process.argv.includes("--types")) console.log(`  objects since the last report: ${diff.map(([t, n]) => `${t} ${n > 0 ? "+" : ""}${n}`).join(", ")}`);
  lastTypes = types;
  const s = peekLiveSnapshot(svc.deps.sqlite);
  const d = detailCacheStats(svc.deps.sqlite, s);
  console.log(`${what.padEnd(22)} ${status()}; ${heap()}; detail: ${d.mods} mods ${mib(d.modBytes)} MiB, ${d.parts} parts, ${d.lists} lists ${mib(d.listBytes)} MiB`);
};
const gc = async () => {
  Bun.gc(true);
  await Bun.sleep(100);
  Bun.gc(true);
  if (process.argv.includes("--shrink")) Bun.shrink();
  await Bun.sleep(100);
};

try {
  const { app, deps } = svc;
  const get = async (path: string) => {
    const r = await app.handle(new Request(`http://local${path}`, { headers: { "x-forwarded-for": "10.0.0.1" } }));
    await r.arrayBuffer();
    return r.status;
  };
  await get("/api/v1/game-servers?limit=1");
  await gc();
  report("start");
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  while (!warmDetails(deps.sqlite, 1_000));
  const c = process.cpuUsage(c0);
  console.log(`warm: ${((c.user + c.system) / 1000).toFixed(0)} ms CPU, ${(performance.now() - t0).toFixed(0)} ms wall`);
  report("after the warm");
  await gc();
  report("after gc");
  const s = peekLiveSnapshot(deps.sqlite)!;
  const ids = s.rows.map((r) => r.id);
  for (let i = 0; i < 500; i++) await get(`/api/v1/game-servers/${ids[Math.floor(rnd() * ids.length)]}`);
  const c1 = process.cpuUsage();
  for (let i = 0; i < requests; i++) await get(`/api/v1/game-servers/${ids[Math.floor(rnd() * ids.length)]}`);
  const c2 = process.cpuUsage(c1);
  console.log(`${requests} online details: ${((c2.user + c2.system) / requests).toFixed(1)} µs CPU a request`);
  await gc();
  report("after the requests+gc");
} finally {
  svc.done();
}
