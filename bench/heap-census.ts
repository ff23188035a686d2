// Who owns the live objects of the heap, and what the collector's pauses cost the requests, in
// process on a temp copy of bench/data/full.db, its online servers seen now (no network; docs/performance.md "Round 3, GC and
// memory layout"):
//   1. app.handle(Request) over the varied rows of bench/run.ts and the fixed GET rows, `--requests
//      N` each, one row after the other; after each row a full collection (Bun.gc(true)) and the
//      heap's live objects (bun:jsc heapStats): the growth a row leaves is what it built and keeps
//      (the dependency graph on the first mod detail, the search index on the first search, ...),
//      and its answers held in the caches;
//   2. then `--latency N` requests of every row again, interleaved (the varied mix), each timed:
//      the slowest requests, and the heap's size, are the collector's work on what stays live
//      (run with BUN_JSC_logGC=1 to see each collection's kind and ms on stderr).
//
//   bun bench/heap-census.ts [--requests 200] [--latency 20000] [--seed 1] [--only <regex>] [--mix <regex of the latency phase's varied rows>]
import { heapStats } from "bun:jsc";
import { inProcessService } from "./in-process";
import { argOf } from "./args";

const requests = Number(argOf("requests", "200"));
const latency = Number(argOf("latency", "20000"));
const only = new RegExp(argOf("only", "."), "i");
const mixOf = new RegExp(argOf("mix", "."), "i");
let seed = Number(argOf("seed", "1"));
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const svc = inProcessService(only);

const census = () => {
  Bun.gc(true);
  const h = heapStats();
  return { objects: h.objectCount, heap: h.heapSize, types: h.objectTypeCounts as Record<string, number> };
};
const mib = (b: number) => (b / 2 ** 20).toFixed(1);

try {
  const { app, rows } = svc;
  const get = async (path: string, i: number) => {
    const r = await app.handle(new Request(`http://local${path}`, { headers: { "x-forwarded-for": `10.0.${i % 250}.${(i >> 8) % 250}` } }));
    await r.arrayBuffer();
    // A turn of the event loop, as between two requests of a server: what a response schedules
    // (Elysia's afterResponse hooks run in an immediate) runs and lets go of its request.
    await new Promise((res) => setImmediate(res));
  };
  let prev = census();
  const top = (c: ReturnType<typeof census>) =>
    Object.entries(c.types)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([t, n]) => `${t} ${n}`)
      .join(", ");
  console.log(`after start: ${prev.objects} objects, heap ${mib(prev.heap)} MiB; ${top(prev)}`);
  for (const e of rows) {
    for (let i = 0; i < requests; i++) await get(e.vary ? e.vary(rnd) : e.path, i);
    const c = census();
    const grew = Object.entries(c.types)
      .map(([t, n]) => [t, n - (prev.types[t] ?? 0)] as const)
      .filter(([, d]) => Math.abs(d) >= 1000)
      .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
      .slice(0, 5);
    console.log(`${e.name.padEnd(48)} ${String(c.objects - prev.objects).padStart(8)} objects, heap ${(c.heap - prev.heap >= 0 ? "+" : "") + mib(c.heap - prev.heap)} MiB  ${grew.map(([t, d]) => `${t} ${d}`).join(", ")}`);
    prev = c;
  }
  console.log(`live after the rows: ${prev.objects} objects, heap ${mib(prev.heap)} MiB; ${top(prev)}`);
  // What a full collection of this heap costs (marking every live object): Bun.gc(true) timed,
  // wall and CPU of the process (JavaScriptCore marks on helper threads too), median of 7.
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    const c0 = process.cpuUsage();
    Bun.gc(true);
    const c = process.cpuUsage(c0);
    walls.push(performance.now() - t);
    cpus.push((c.user + c.system) / 1000);
  }
  const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]!.toFixed(1);
  console.log(`a full collection of it: ${med(walls)} ms wall, ${med(cpus)} ms CPU (median of 7)`);
  if (latency > 0) {
    console.error("=== latency phase (bench/gc-log.ts reads the collections after this line)");
    const ms = new Float64Array(latency);
    const varied = rows.filter((e) => e.vary && mixOf.test(e.name));
    const mix = varied.length > 0 ? varied : rows;
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (let i = 0; i < latency; i++) {
      const e = mix[i % mix.length]!;
      const t = performance.now();
      await get(e.vary ? e.vary(rnd) : e.path, i);
      ms[i] = performance.now() - t;
    }
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    const s = ms.slice().sort();
    const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(2);
    let over5 = 0;
    let over5ms = 0;
    for (const x of ms) if (x > 5) (over5++, (over5ms += x));
    console.log(
      `latency, ${latency} requests of the ${mix.length} rows interleaved, one at a time: p50 ${q(0.5)} p99 ${q(0.99)} p99.9 ${q(0.999)} max ${s[s.length - 1]!.toFixed(2)} ms; ` +
        `${over5} over 5 ms (${over5ms.toFixed(0)} ms); wall ${wall.toFixed(0)} ms, CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms`,
    );
  }
} finally {
  svc.done();
}
