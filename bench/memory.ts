// What the process holds after a load, and what SQLite's memory settings cost per request, in
// process (no network, robust to a busy machine: CPU time per request, not req/s):
//   1. app.handle(Request) over the varied rows of bench/run.ts (each request a different mod,
//      page, server or range: most miss the answer caches and read SQLite) and the fixed hot rows,
//      `--requests N` of each, CPU µs per request per row;
//   2. then Bun.gc(true) and the JavaScript heap's object types (bun:jsc heapStats), the answer
//      caches' shared budget, and RSS split anonymous / file-backed.
//
//   LOADOUT_SQLITE_MMAP_MB=0 LOADOUT_SQLITE_CACHE_MB=32 LOADOUT_CACHE_MB=64 bun bench/memory.ts [--requests 400] [--seed 1] [--only <regex of row names>] [--shrink] [--again N] [--warm]
//
// --warm: first every online server's detail prepared, as the server's warmer does in its first
// idle seconds (src/features/live/detail.ts warmDetails), and RSS after it.
//
// Works on a temp copy of bench/data/full.db, its online servers seen now (createDeps runs the migration check).
import { readFileSync } from "node:fs";
import { heapStats } from "bun:jsc";
import { answerBudget } from "../src/shared/bytes-lru";
import { inProcessService } from "./in-process";
import { warmDetails } from "../src/features/live/detail";
import { argOf } from "./args";

const requests = Number(argOf("requests", "400"));
const only = new RegExp(argOf("only", "."), "i");
let seed = Number(argOf("seed", "1"));
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const svc = inProcessService(only);

const status = () => {
  const s = readFileSync("/proc/self/status", "utf8");
  const kb = (f: string) => Number(new RegExp(`${f}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) / 1024;
  return { rss: kb("VmRSS"), anon: kb("RssAnon"), file: kb("RssFile") };
};

try {
  const { config, app, rows } = svc;
  console.log(`mmap ${config.LOADOUT_SQLITE_MMAP_MB} MiB, page cache ${config.LOADOUT_SQLITE_CACHE_MB} MiB, answer budget ${config.LOADOUT_CACHE_MB} MiB; ${requests} requests a row`);
  if (process.argv.includes("--warm")) {
    await (await app.handle(new Request("http://local/api/v1/game-servers?limit=1"))).arrayBuffer();
    const c0 = process.cpuUsage();
    // In slices, as the warmer runs (the collector runs between them).
    while (!warmDetails(svc.deps.sqlite, 4)) await new Promise((res) => setImmediate(res));
    const c = process.cpuUsage(c0);
    console.log(`warm: ${((c.user + c.system) / 1000).toFixed(0)} ms CPU; RSS ${status().rss.toFixed(0)} MiB (anonymous ${status().anon.toFixed(0)})`);
  }
  let total = 0;
  for (const e of rows) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < requests; i++) {
      const path = e.vary ? e.vary(rnd) : e.path;
      const r = await app.handle(new Request(`http://local${path}`, { headers: { "x-forwarded-for": `10.0.${i % 250}.${(i >> 8) % 250}` } }));
      await r.arrayBuffer();
      // A turn of the event loop, as between two requests of a server: what a response
      // schedules (Elysia's afterResponse hooks run in an immediate) runs and lets go of it.
      await new Promise((res) => setImmediate(res));
    }
    const c = process.cpuUsage(c0);
    const us = (c.user + c.system) / requests;
    total += us;
    console.log(`${e.name.padEnd(48)} ${us.toFixed(0).padStart(7)} µs CPU a request`);
  }
  console.log(`sum of the rows' µs a request: ${total.toFixed(0)}`);
  const before = status();
  Bun.gc(true);
  await Bun.sleep(200);
  Bun.gc(true);
  if (process.argv.includes("--shrink")) Bun.shrink();
  const after = status();
  const h = heapStats();
  const types = Object.entries(h.objectTypeCounts).sort((a, b) => b[1] - a[1]).slice(0, 25);
  console.log(`heap: ${(h.heapSize / 2 ** 20).toFixed(1)} MiB in ${h.objectCount} objects (capacity ${(h.heapCapacity / 2 ** 20).toFixed(1)} MiB, extra ${(h.extraMemorySize / 2 ** 20).toFixed(1)} MiB)`);
  console.log(`most objects: ${types.map(([t, n]) => `${t} ${n}`).join(", ")}`);
  const mu = process.memoryUsage();
  console.log(`memoryUsage: heapUsed ${(mu.heapUsed / 2 ** 20).toFixed(1)}, heapTotal ${(mu.heapTotal / 2 ** 20).toFixed(1)}, external ${(mu.external / 2 ** 20).toFixed(1)}, arrayBuffers ${(mu.arrayBuffers / 2 ** 20).toFixed(1)} MiB`);
  console.log(`answer caches: ${(answerBudget.used / 2 ** 20).toFixed(1)} of ${(answerBudget.max / 2 ** 20).toFixed(0)} MiB in ${answerBudget.maps} maps, ${answerBudget.evictions} dropped for the budget`);
  const f = (x: ReturnType<typeof status>) => `RSS ${x.rss.toFixed(0)} MiB (anonymous ${x.anon.toFixed(0)}, file-backed ${x.file.toFixed(0)})`;
  console.log(`after the load: ${f(before)}; after Bun.gc: ${f(after)}`);
  // The allocators give freed pages back on their own clock: measured again after a pause.
  await Bun.sleep(3_000);
  console.log(`3 s later: ${f(status())}`);
  // `--again N`: what the next load pays after the collection (and `--shrink`): N more requests a row.
  const again = Number(argOf("again", "0"));
  if (again > 0) {
    let sum = 0;
    for (const e of rows) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < again; i++) {
        const r = await app.handle(new Request(`http://local${e.vary ? e.vary(rnd) : e.path}`, { headers: { "x-forwarded-for": `10.1.${i % 250}.1` } }));
        await r.arrayBuffer();
      }
      const c = process.cpuUsage(c0);
      sum += (c.user + c.system) / again;
    }
    console.log(`again, ${again} requests a row: sum of the rows' µs a request ${sum.toFixed(0)}`);
  }
} finally {
  svc.done();
}
