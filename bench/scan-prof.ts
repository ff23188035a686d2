// A first sight, then N steady scans (the fake's --churn list: the first of them 5 % changed, the
// rest nothing changed; with --changing each of them another 5 % changed), runScan as the job
// runs it, in one process, with each scan's CPU and its split by thread (user/sys ms and minor page faults, /proc/self/task/*/stat). A marker function spins 30 ms after the
// first sight so a profile's samples of the steady scans can be told apart:
//   bun --cpu-prof --cpu-prof-dir=/tmp/prof bench/scan-prof.ts [--steady N]
//   bun bench/prof-report.ts /tmp/prof/*.cpuprofile --after __steadyMarker
// [--pause MS] [--idle-gc]: scans MS apart, the service's idle collector running (below).
// Code under measurement can add its own main-thread CPU figures (ms) to globalThis.__pt (with
// globalThis.__tcpu, bench/thread-cpu.ts, as its clock): they are printed and cleared per scan.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Database } from "bun:sqlite";
import { loadConfig } from "../src/config";
import { createDeps } from "../src/runtime";
import { createApp } from "../src/app";
import { createMemoryLogger } from "../src/shared/log";
import { BattleMetricsClient } from "../src/features/live/battlemetrics";
import { runScan } from "../src/features/live/scan";
import type { SeedMeta } from "./seed";
import { threadCpuMs } from "./thread-cpu";
import { argOf } from "./args";
import { startIdleCollector } from "../src/shared/idle-gc";
import { ensureEngineOptions } from "../src/shared/engine-options";

// Measured with the engine settings `serve` runs with (src/shared/engine-options.ts).
ensureEngineOptions();
(globalThis as any).__tcpu = threadCpuMs;

const ROOT = resolve(import.meta.dir, "..");
const steady = Number(argOf("steady", "4"));
const src = join(ROOT, `bench/data/full.db`);
const meta = JSON.parse(readFileSync(`${src}.meta.json`, "utf8")) as SeedMeta;
const dir = mkdtempSync(join(tmpdir(), "loadout-scan-prof-"));
copyFileSync(src, join(dir, "loadout.db"));
{
  const db = new Database(join(dir, "loadout.db"));
  const shift = Date.now() - meta.now;
  if (shift > 0) db.query("UPDATE game_servers SET last_seen_at = last_seen_at + ? WHERE online = 1").run(shift);
  db.close();
}
async function serveFake(args: string[]) {
  const proc = Bun.spawn([process.execPath, join(ROOT, "test/fakes/battlemetrics-serve.ts"), ...args], { stdout: "pipe" });
  const { value } = await proc.stdout.getReader().read();
  return { url: new TextDecoder().decode(value).trim(), stop: () => proc.kill() };
}
function __steadyMarker() {
  const end = performance.now() + 30;
  let x = 0;
  while (performance.now() < end) x++;
  return x;
}
let now = Date.now();
const deps = createDeps(loadConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "error" }), {
  log: createMemoryLogger("error"),
  clock: { now: () => now },
});
// --start: what the service builds at start first (createApp: the live snapshot; bench/scan.ts --start).
if (process.argv.includes("--start")) createApp(deps);
// WAL_AC=N: PRAGMA wal_autocheckpoint = N on the scans' connection (0: the commit checkpoints nothing).
if (process.env.WAL_AC) deps.sqlite.exec(`PRAGMA wal_autocheckpoint = ${process.env.WAL_AC}`);
const first = await serveFake(["5000", "42"]);
const churn = await serveFake(["5000", "42", "--churn"]);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
import { readdirSync } from "node:fs";
function threads(): Record<string, [number, number, number]> {
  const out: Record<string, [number, number, number]> = {};
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const o = (out[name] ??= [0, 0, 0]);
      o[0] += Number(f[11]) * 10;
      o[1] += Number(f[12]) * 10;
      o[2] += Number(f[7]); // minflt
    } catch {}
  }
  return out;
}
/** Each thread's user/sys ms and minor faults between two reads of threads(). */
const split = (th0: ReturnType<typeof threads>, th1: ReturnType<typeof threads>) =>
  Object.keys(th1)
    .map((k) => [k, th1[k]![0] - (th0[k]?.[0] ?? 0), th1[k]![1] - (th0[k]?.[1] ?? 0), th1[k]![2] - (th0[k]?.[2] ?? 0)] as const)
    .filter((x) => x[1] + x[2] > 0)
    .map(([k, u, s, f]) => `${k} ${u}/${s} (${f} faults)`)
    .join(", ");
// --pause MS: the wall time between two scans (the service scans every 5 minutes: the allocator
// gives a scan's free pages back in between, which back-to-back scans do not let it do).
// --idle-gc: the service's idle collector runs meanwhile (src/shared/idle-gc.ts, as `serve` starts it);
// what it does and its CPU in each pause are printed.
const pause = Number(argOf("pause", "0"));
const idle: string[] = [];
if (process.argv.includes("--idle-gc")) startIdleCollector((ms, step) => idle.push(`${step} ${ms.toFixed(0)} ms`));
// --changing: every steady scan finds another ~5 % of the lists changed (the fake's --churn K for
// the K-th steady scan, one fake a scan) instead of only the first.
const changing = process.argv.includes("--changing");
if (changing && steady > 20) throw new Error("--changing: at most 20 steady scans");
for (let i = 0; i <= steady; i++) {
  const round = changing && i > 0 ? await serveFake(["5000", "42", "--churn", String(i - 1)]) : null;
  const th0 = threads();
  const fake = round ?? (i === 0 ? first : churn);
  const client = new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} });
  const t = cpu();
  await runScan(deps, { client });
  console.log(i === 0 ? "first sight" : "steady", (cpu() - t).toFixed(0), "ms");
  const th1 = threads();
  console.log("  threads user/sys: " + split(th0, th1));
  const pt = (globalThis as any).__pt as Record<string, number> | undefined;
  if (pt) {
    console.log("  main thread: " + Object.entries(pt).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", "));
    for (const k of Object.keys(pt)) delete pt[k];
  }
  round?.stop();
  now += 5 * 60_000;
  if (i === 0) __steadyMarker();
  if (pause > 0 && i < steady) {
    const c = cpu();
    const p0 = threads();
    await Bun.sleep(pause);
    console.log(`  pause ${pause} ms: ${(cpu() - c).toFixed(0)} ms CPU${idle.length > 0 ? `, idle collector: ${idle.splice(0).join(", ")}` : ""}`);
    console.log("    threads user/sys: " + split(p0, threads()));
  }
}
first.stop();
churn.stop();
deps.sqlite.close();
rmSync(dir, { recursive: true, force: true });
