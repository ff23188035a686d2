// The cost of a full workshop crawl: a fresh data dir, the fake workshop
// serving the ~42,000-mod benchmark catalog (test/fixtures/workshop/dataset.ts generateCatalog,
// 16 rows a listing page) in its own process, and one `scrape.full` job run to the end: the
// listing walk, every detail batch and the dependency scrapes it queues. What is measured is our
// side only: the CPU seconds (user + system) of the process that crawls.
//
//   bun bench/crawl.ts [--count 42000] [--bin dist/loadout] [--inproc] [--keep DIR] [--env NAME=VALUE]… [--after S]
//
// Default: the service itself (`bun src/main.ts`, or the compiled binary with --bin) with its job
// worker, as in production (LOADOUT_SCHEDULES=off). Its start is measured apart: the crawl is
// queued only once the service answers `GET /` (from source that waits for the web app's build
// and compression, ~1.2 s of CPU the compiled binary does not spend), and `cpu_s` is the CPU the
// service spent from then until the queue is empty (read from /proc/<pid>/stat); `start_cpu_s`
// is its start, `cpu_s_with_start` the sum (what a crawl costs when it starts the service);
// `threads_cpu_s` splits `cpu_s` by the service's thread names (/proc/<pid>/task/*/stat).
// --env NAME=VALUE sets a variable in the service's environment only (an allocator setting to
// compare); --after S reports the service's RSS S seconds after the crawl, idle.
// The service runs the crawl in a child process (LOADOUT_CRAWL_PROCESS=child, the
// default): `cpu_s` is the service's CPU and its children's (utime + stime + cutime + cstime of
// /proc/<pid>/stat: a child's CPU is added to cutime/cstime once it has exited and been waited
// for, and the bench waits for the children to exit before the last reading; one still alive
// then is read from its own /proc/<pid>/stat). `children` reports what the children cost apart:
// their CPU, their threads (the last 2-second sample of each child), their peak RSS (VmHWM), and
// their start (the service's /metrics: the CPU a child spent before its first claim).
// --src DIR: the checkout whose src/main.ts is the service (another tree's code, this bench).
// --inproc runs the same jobs in this process through JobQueue.drain (for
// `bun --cpu-prof bench/crawl.ts --inproc`), timed with cpuUsage.
import { spawn } from "bun";
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../src/config";
import { createDeps } from "../src/runtime";
import { createMemoryLogger } from "../src/shared/log";
import { JOB_SCRAPE_FULL } from "../src/features/scraper/jobs";
import { argOf } from "./args";

const ROOT = resolve(import.meta.dir, "..");
const count = Number(argOf("count", "42000"));
const inproc = process.argv.includes("--inproc");
const bin = argOf("bin");
const keep = argOf("keep");
const srcRoot = resolve(argOf("src", ROOT));
// --after S: keep the service running S seconds after the crawl, idle, and report its RSS then
// (`rss_after_s_mib`: what the allocator and the idle collection gave back).
const after = Number(argOf("after", "0"));
// --env NAME=VALUE (repeatable): set in the service's environment only (not this process's or the fake's).
const svcEnv: Record<string, string> = {};
process.argv.forEach((a, i) => {
  if (a !== "--env") return;
  const kv = process.argv[i + 1] ?? "";
  const eq = kv.indexOf("=");
  if (eq <= 0) throw new Error(`--env wants NAME=VALUE, got ${kv}`);
  svcEnv[kv.slice(0, eq)] = kv.slice(eq + 1);
});

const TICK = 100; // USER_HZ of /proc/<pid>/stat on Linux
function procCpuSeconds(pid: number, waitedChildren = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime, stime (fields 14 and 15); cutime, cstime (16 and 17): children exited and waited for
  return (Number(f[11]) + Number(f[12]) + (waitedChildren ? Number(f[13]) + Number(f[14]) : 0)) / TICK;
}
/**
 * Children of `pid` (every /proc/<n>/stat whose ppid is `pid`; this kernel has no children file),
 * zombies included unless `liveOnly`: an exited child's CPU reaches its parent's cutime/cstime
 * only once the parent has waited for it, and until then it is a zombie.
 */
function childrenOf(pid: number, liveOnly = false): number[] {
  const out: number[] = [];
  for (const e of readdirSync("/proc")) {
    if (e.charCodeAt(0) > 57) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(f[1]) === pid && !(liveOnly && f[0] === "Z")) out.push(Number(e));
    } catch {}
  }
  return out;
}
function hwmMiB(pid: number): number {
  const m = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmHWM:\s+(\d+) kB/);
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}
/** CPU seconds of each thread of `pid`, summed by thread name (/proc/<pid>/task/<tid>/stat). */
function threadCpuSeconds(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out[name] = (out[name] ?? 0) + (Number(f[11]) + Number(f[12])) / TICK;
    } catch {} // the thread ended in between
  }
  return out;
}
function rssMiB(pid: number): number {
  const m = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}

const fakeProc = spawn([process.execPath, join(ROOT, "test/fakes/workshop-serve.ts"), String(count)], { stdout: "pipe", stderr: "inherit" });
const reader = fakeProc.stdout.getReader();
const url = new TextDecoder().decode((await reader.read()).value).trim();
async function stopFake(): Promise<Record<string, number>> {
  fakeProc.kill("SIGINT");
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  return JSON.parse(text.trim().split("\n").pop()!);
}

const dir = keep ?? mkdtempSync(join(tmpdir(), "loadout-crawl-bench-"));
const env = {
  LOADOUT_DATA_DIR: dir,
  LOADOUT_SCHEDULES: "off",
  LOADOUT_LOG_LEVEL: "warn",
  LOADOUT_WORKSHOP_URL: url,
  LOADOUT_WORKSHOP_RPS: "1000",
};
const deps = createDeps(loadConfig(env), { log: createMemoryLogger("warn") });
const queueCrawl = (d: typeof deps) => d.jobs.enqueue(JOB_SCRAPE_FULL, { mode: "full" }, { dedupeKey: "scrape:full" });
if (inproc) queueCrawl(deps);
let t0 = performance.now();
let cpu: number;
let startCpu: number | null = null;
let rss = 0;
let rssAfter: number | null = null;
let tEnd: number | null = null;
let threads: Record<string, number> | null = null;
let children: Record<string, unknown> | null = null;
const phases: { at_s: number; cpu_s: number; mods: number; pending: number }[] = [];
const pendingOf = (db: Database) => (db.query("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')").get() as { n: number }).n;
const modsOf = (db: Database) => (db.query("SELECT count(*) AS n FROM mods WHERE state != 'unknown'").get() as { n: number }).n;

if (inproc) {
  const c0 = process.cpuUsage();
  const cpuNow = () => {
    const d = process.cpuUsage(c0);
    return (d.user + d.system) / 1e6;
  };
  let last = performance.now();
  for (;;) {
    const n = await deps.jobs.drain({ max: 200 });
    if (performance.now() - last > 10_000) {
      last = performance.now();
      phases.push({ at_s: Math.round((last - t0) / 1000), cpu_s: Math.round(cpuNow() * 10) / 10, mods: modsOf(deps.sqlite), pending: pendingOf(deps.sqlite) });
      console.log(JSON.stringify(phases.at(-1)));
    }
    if (n === 0) break;
  }
  cpu = cpuNow();
  rss = Math.round(process.memoryUsage().rss / 2 ** 20);
  deps.sqlite.close();
} else {
  deps.sqlite.close();
  const cmd = bin ? [resolve(bin)] : [process.execPath, join(srcRoot, "src/main.ts")];
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port;
  probe.stop(true);
  const svc = spawn(cmd, {
    env: { ...(process.env as Record<string, string>), ...env, ...svcEnv, LOADOUT_PORT: String(port), LOADOUT_HOST: "127.0.0.1", LOADOUT_JWT_SECRET: "crawl-bench-secret-crawl-bench-secret-0123" },
    stdout: "ignore",
    stderr: "inherit",
  });
  // Started: the web app answers (its files built and compressed when run from source).
  for (;;) {
    if (svc.exitCode !== null) throw new Error(`the service exited with ${svc.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.ok, () => false);
    if (ok) break;
    await Bun.sleep(50);
  }
  await Bun.sleep(500); // anything the start left running settles
  const cpu0 = procCpuSeconds(svc.pid, true);
  const ownCpu0 = procCpuSeconds(svc.pid);
  const threads0 = threadCpuSeconds(svc.pid);
  startCpu = cpu0;
  // The children seen (the crawl's worker processes): their last CPU, threads and peak RSS.
  const kids = new Map<number, { cpu: number; threads: Record<string, number>; hwm: number }>();
  const sampleChildren = () => {
    for (const pid of childrenOf(svc.pid, true)) {
      try {
        const k = { cpu: procCpuSeconds(pid, true), threads: threadCpuSeconds(pid), hwm: hwmMiB(pid) };
        kids.set(pid, k);
      } catch {} // it ended in between
    }
  };
  const sampler = setInterval(sampleChildren, 2000);
  const q = createDeps(loadConfig(env), { log: createMemoryLogger("warn") });
  queueCrawl(q);
  q.sqlite.close();
  t0 = performance.now();
  // A read-only look now and then (its own short-lived connection, so the service's start and
  // migrations never meet a reader; a busy moment is simply asked again next time).
  const look = <T>(f: (db: Database) => T): T | null => {
    try {
      const db = new Database(join(dir, "loadout.db"), { readonly: true });
      try {
        return f(db);
      } finally {
        db.close();
      }
    } catch {
      return null;
    }
  };
  await Bun.sleep(3000);
  for (;;) {
    await Bun.sleep(2000);
    if (svc.exitCode !== null) throw new Error(`the service exited with ${svc.exitCode}`);
    const pending = look(pendingOf);
    if (pending === null) continue;
    const at = (performance.now() - t0) / 1000;
    if (Math.floor(at / 10) !== Math.floor((at - 2) / 10) || pending === 0) {
      const live = childrenOf(svc.pid).reduce((a, pid) => a + (() => { try { return procCpuSeconds(pid, true); } catch { return 0; } })(), 0);
      phases.push({ at_s: Math.round(at), cpu_s: Math.round((procCpuSeconds(svc.pid, true) + live - cpu0) * 10) / 10, mods: look(modsOf) ?? -1, pending });
      console.log(JSON.stringify(phases.at(-1)));
    }
    if (pending === 0) break;
  }
  tEnd = performance.now();
  // The children exit once nothing is due (a couple of seconds idle): wait for them, so that their
  // CPU is in the service's cutime/cstime; one still alive after 20 s is read from its own stat.
  sampleChildren();
  const waitUntil = performance.now() + 20_000;
  while (childrenOf(svc.pid).length > 0 && performance.now() < waitUntil) {
    sampleChildren();
    await Bun.sleep(100);
  }
  clearInterval(sampler);
  const stillAlive = childrenOf(svc.pid);
  const liveCpu = stillAlive.reduce((a, pid) => a + procCpuSeconds(pid, true), 0);
  if (stillAlive.length) console.error(`warning: ${stillAlive.length} child(ren) of the service still there after 20 s; their CPU read from their own /proc/<pid>/stat`);
  cpu = procCpuSeconds(svc.pid, true) + liveCpu - cpu0;
  const ownCpu = procCpuSeconds(svc.pid) - ownCpu0;
  await Bun.sleep(1100); // /metrics answers the same body for a second
  const metricsText = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text(), () => "");
  const metricOf = (name: string) => {
    const m = metricsText.match(new RegExp(`^${name}\\{worker="crawl"\\} (\\S+)$`, "m"));
    return m ? Number(m[1]) : null;
  };
  const childThreads: Record<string, number> = {};
  for (const k of kids.values()) for (const [name, v] of Object.entries(k.threads)) childThreads[name] = Math.round(((childThreads[name] ?? 0) + v) * 100) / 100;
  const sampledThreads = Object.values(childThreads).reduce((a, b) => a + b, 0);
  const childCpu = cpu - ownCpu;
  // The service's own count (each child's resource usage at its exit) must agree with the kernel's
  // cutime/cstime: a child's CPU left out would make a false figure.
  const reported = metricOf("loadout_worker_process_cpu_seconds_total");
  if (reported !== null && Math.abs(reported - childCpu) > Math.max(0.2, 0.03 * reported)) {
    throw new Error(`children's CPU: ${childCpu.toFixed(2)} s in the service's cutime/cstime against ${reported.toFixed(2)} s in its /metrics; not a valid figure`);
  }
  children = {
    seen: kids.size,
    cpu_s: Math.round(childCpu * 100) / 100,
    still_alive_at_end: stillAlive.length,
    peak_rss_mib: Math.max(0, ...[...kids.values()].map((k) => k.hwm)),
    metrics: {
      starts: metricOf("loadout_worker_process_starts_total"),
      cpu_s: metricOf("loadout_worker_process_cpu_seconds_total"),
      last_start_cpu_s: metricOf("loadout_worker_process_last_start_cpu_seconds"),
      last_max_rss_mib: (() => {
        const b = metricOf("loadout_worker_process_last_max_rss_bytes");
        return b === null ? null : Math.round(b / 2 ** 20);
      })(),
    },
    threads_cpu_s: Object.fromEntries(
      Object.entries({ ...childThreads, "(not sampled: the last 2 s, ended threads)": Math.round((childCpu - sampledThreads) * 100) / 100 })
        .filter(([, v]) => v > 0)
        .sort((a, b) => b[1] - a[1]),
    ),
  };
  rss = rssMiB(svc.pid);
  threads = Object.fromEntries(
    Object.entries(threadCpuSeconds(svc.pid))
      .map(([name, s]): [string, number] => [name, Math.round((s - (threads0[name] ?? 0)) * 100) / 100])
      .filter(([, s]) => s > 0)
      .sort((a, b) => b[1] - a[1]),
  );
  // Threads that ended during the crawl (JavaScriptCore's JIT workers end when idle and start
  // again) are in the process's CPU but no longer under /proc/<pid>/task.
  const ended = ownCpu - Object.values(threads).reduce((a, b) => a + b, 0);
  if (ended >= 0.05) threads["(ended threads)"] = Math.round(ended * 100) / 100;
  if (after > 0) {
    await Bun.sleep(after * 1000);
    rssAfter = rssMiB(svc.pid);
  }
  svc.kill("SIGTERM");
  await svc.exited;
}

const wall = ((tEnd ?? performance.now()) - t0) / 1000;
const requests = await stopFake();
const db = new Database(join(dir, "loadout.db"), { readonly: true });
const counted = (sql: string) => (db.query(sql).get() as { n: number }).n;
const result = {
  mode: inproc ? "in process (JobQueue.drain)" : bin ? `service ${bin}` : `service (bun ${join(srcRoot, "src/main.ts")})`,
  catalog: count,
  ...(Object.keys(svcEnv).length ? { service_env: svcEnv } : {}),
  cpu_s: Math.round(cpu * 10) / 10,
  ...(startCpu === null ? {} : { start_cpu_s: Math.round(startCpu * 10) / 10, cpu_s_with_start: Math.round((cpu + startCpu) * 10) / 10 }),
  wall_s: Math.round(wall),
  rss_mib: rss,
  ...(rssAfter === null ? {} : { [`rss_after_${after}s_mib`]: rssAfter }),
  requests,
  cpu_ms_per_request: Math.round((cpu * 1000 * 100) / requests.requests!) / 100,
  mods: counted("SELECT count(*) AS n FROM mods WHERE state != 'unknown'"),
  versions: counted("SELECT count(*) AS n FROM mod_versions"),
  dependencies: counted("SELECT count(*) AS n FROM mod_dependencies"),
  jobs: Object.fromEntries((db.query("SELECT type || ' ' || status AS k, count(*) AS n FROM jobs GROUP BY 1").all() as { k: string; n: number }[]).map((r) => [r.k, r.n])),
  ...(threads ? { threads_cpu_s: threads } : {}),
  ...(children ? { children } : {}),
  phases,
};
db.close();
console.log(JSON.stringify(result, null, 2));
if (!keep) rmSync(dir, { recursive: true, force: true });
process.exit(0);
