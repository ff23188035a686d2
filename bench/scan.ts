// The scan's own cost at full scale (docs/live.md "Scale"): on a copy of the seeded full database
// (95,000 known servers, ~1 M game_server_mods rows, a year of player history), against the fake
// BattleMetrics in its own process (so only our side is measured):
//   scan 1  first sight: 5,000 servers never seen (the seeded online ones vanish)
//   scan 2  steady state: the same 5,000, players moved, every 20th server changed a mod version
//   scan 3  steady state: nothing changed but the time
// Each scan is the job's own code (runScan) timed as a whole in CPU, and again phase by phase
// (the same functions runScan calls, in the same order) so the time can be placed.
//
//   bun bench/scan.ts [--scale full|small] [--repeat N] [--scans 1|2|3] [--whole-only] [--threads] [--start]
// --repeat runs everything N times on fresh copies and prints every run and the median;
// --scans 1 stops after the first sight (for `bun --cpu-prof bench/scan.ts --scans 1 --whole-only`).
// --start first builds what the service builds at start (createApp, as src/server.ts: the live
// snapshot of the servers seen, liveRoutes), as a scan in the service always comes after that.
// --threads also splits each whole scan's CPU by thread name (/proc/self/task/*/stat, 10 ms ticks:
// the JavaScript thread is the process's name, the rest the engine's JIT, GC and allocator threads).
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Database } from "bun:sqlite";
import { loadConfig } from "../src/config";
import { createDeps } from "../src/runtime";
import { createApp } from "../src/app";
import { createMemoryLogger } from "../src/shared/log";
import { BattleMetricsClient, bmPageSchema, bmServerSchema, firstPageUrl, normaliseServer, readPage, readServer, type LiveServer } from "../src/features/live/battlemetrics";
import { finishScan, writtenLists, writtenListsNames, processPage, queueScrapes, runScan, SCAN_PAGE_CACHE_MB, ScanState, writeModRows } from "../src/features/live/scan";
import { withPageCache } from "../src/db/client";
import { liveRepo, withBulkWrite } from "../src/features/live/repository";
import { publishLiveSnapshot, snapshotWithUsage, type LiveSnapshot } from "../src/features/live/snapshot";
import type { SeedMeta } from "./seed";
import { argOf } from "./args";
import { ensureEngineOptions } from "../src/shared/engine-options";

// Measured with the engine settings `serve` runs with (src/shared/engine-options.ts).
ensureEngineOptions();

const ROOT = resolve(import.meta.dir, "..");
const scale = argOf("scale", "full");
const repeat = Number(argOf("repeat", "1"));
const wholeOnly = process.argv.includes("--whole-only");
const byThread = process.argv.includes("--threads");
const asStarted = process.argv.includes("--start");
const src = join(ROOT, `bench/data/${scale}.db`);
const meta = JSON.parse(readFileSync(`${src}.meta.json`, "utf8")) as SeedMeta;

function freshCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "loadout-scan-bench-"));
  copyFileSync(src, join(dir, "loadout.db"));
  const db = new Database(join(dir, "loadout.db"));
  const shift = Date.now() - meta.now;
  if (shift > 0) db.query("UPDATE game_servers SET last_seen_at = last_seen_at + ? WHERE online = 1").run(shift);
  db.close();
  return dir;
}

async function serveFake(args: string[]) {
  const proc = Bun.spawn([process.execPath, join(ROOT, "test/fakes/battlemetrics-serve.ts"), ...args], { stdout: "pipe" });
  const { value } = await proc.stdout.getReader().read();
  return { url: new TextDecoder().decode(value).trim(), stop: () => proc.kill() };
}

const cpuMs = (start: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
};

/** CPU ms of each thread of this process, summed by thread name (utime + stime, 100 ticks a second). */
function threadCpu(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out[name] = (out[name] ?? 0) + (Number(f[11]) + Number(f[12])) * 10;
    } catch {} // the thread ended in between
  }
  return out;
}
const threadDelta = (a: Record<string, number>, b: Record<string, number>) => {
  const out: Record<string, number> = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) out[k] = (b[k] ?? 0) - (a[k] ?? 0);
  return out;
};
/** Per whole run, per scan: CPU ms by thread name (--threads). */
const threadRuns: Record<string, number>[][] = [];

const SCANS = [
  { name: "first sight", args: ["5000", "42"] },
  { name: "steady, 5 % changed", args: ["5000", "42", "--churn"] },
  { name: "steady, nothing changed", args: ["5000", "42", "--churn"] },
].slice(0, Number(argOf("scans", "3")));

/** runScan as a whole, three scans in a row. */
async function whole(): Promise<number[]> {
  const dir = freshCopy();
  let now = Date.now();
  const deps = createDeps(loadConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "error" }), {
    log: createMemoryLogger("error"),
    clock: { now: () => now },
  });
  if (asStarted) createApp(deps);
  const out: number[] = [];
  const threads: Record<string, number>[] = [];
  for (const s of SCANS) {
    const fake = await serveFake(s.args);
    const client = new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} });
    const th = byThread ? threadCpu() : {};
    const t = process.cpuUsage();
    await runScan(deps, { client });
    out.push(cpuMs(t));
    if (byThread) threads.push(threadDelta(th, threadCpu()));
    fake.stop();
    now += 5 * 60_000;
  }
  deps.sqlite.close();
  rmSync(dir, { recursive: true, force: true });
  if (byThread) threadRuns.push(threads);
  return out;
}

/** The same scans phase by phase. */
async function phases(): Promise<Record<string, number>[]> {
  const dir = freshCopy();
  let now = Date.now();
  const deps = createDeps(loadConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "error" }), {
    log: createMemoryLogger("error"),
    clock: { now: () => now },
  });
  if (asStarted) createApp(deps);
  const { sqlite } = deps;
  const out: Record<string, number>[] = [];
  for (const s of SCANS) {
    const fake = await serveFake(s.args);
    const client = new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} });
    const p: Record<string, number> = {};
    // What BattleMetricsClient.pages does, in three parts: the HTTP exchange, JSON.parse (the
    // same for any code reading these pages), and checking and normalising each server.
    let t = process.cpuUsage();
    const parsed: unknown[] = [];
    let parseMs = 0;
    for (let url: string | null = firstPageUrl(fake.url); url; ) {
      const text = await (await fetch(url, { headers: { Accept: "application/json" } })).text();
      const t1 = process.cpuUsage();
      const body = JSON.parse(text) as { links?: { next?: string | null } };
      parseMs += cpuMs(t1);
      parsed.push(body);
      url = body.links?.next ?? null;
    }
    p["fetch 50 pages (HTTP)"] = cpuMs(t) - parseMs;
    p["JSON.parse of the pages"] = parseMs;
    t = process.cpuUsage();
    // As the client reads them: by hand where plainly valid (readPage, readServer), else zod.
    const pages: LiveServer[][] = parsed.map((body) => {
      const data = readPage(body)?.data ?? bmPageSchema.parse(body).data;
      const servers: LiveServer[] = [];
      for (const item of data) {
        const mine = readServer(item);
        if (mine) {
          servers.push(mine);
          continue;
        }
        const r = bmServerSchema.safeParse(item);
        if (r.success) servers.push(normaliseServer(r.data));
      }
      return servers;
    });
    p["validate + normalise (hand reader, zod fallback)"] = cpuMs(t);
    const state = new ScanState(now);
    const unknown: string[] = [];
    let snapshot!: LiveSnapshot;
    let known!: ReturnType<typeof writtenLists>;
    let names!: ReturnType<typeof writtenListsNames>;
    // As runScan: the page cache grows for the scan's writes (withPageCache).
    withPageCache(sqlite, SCAN_PAGE_CACHE_MB, () =>
      sqlite
        .transaction(() => {
          t = process.cpuUsage();
          // As runScan: the writes as one bulk write, the per-row generation triggers skipping,
          // the counters moved once after them (its cost lands in the last phase inside).
          withBulkWrite(sqlite, "scan", () => {
            for (const servers of pages) unknown.push(...processPage(deps, servers, state));
            known = writtenLists(state);
            names = writtenListsNames(state);
            writeModRows(deps, state);
            p["servers, raw points, mod diffs"] = cpuMs(t);
            t = process.cpuUsage();
            liveRepo.markVanished(sqlite, state.time);
            p["mark vanished"] = cpuMs(t);
            t = process.cpuUsage();
            liveRepo.insertGlobalRaw(sqlite, state.time, state.totalPlayers, state.totalQueue, state.servers);
            liveRepo.insertCommunityRaw(sqlite, state.time);
            liveRepo.setState(sqlite, "last_scan_at", state.time);
          });
          p["global + community points"] = cpuMs(t);
          t = process.cpuUsage();
          liveRepo.refreshModNames(sqlite, names);
          snapshot = snapshotWithUsage(sqlite, state.time, now, known, state.catalog ?? undefined);
          p["live snapshot + mod usage"] = cpuMs(t);
          t = process.cpuUsage();
        })
        .immediate(),
    );
    p["commit"] = cpuMs(t);
    publishLiveSnapshot(sqlite, snapshot);
    state.catalog?.adopt();
    t = process.cpuUsage();
    queueScrapes(deps, unknown);
    p[`queue scrapes of unknown mods`] = cpuMs(t);
    p["total"] = Object.values(p).reduce((a, b) => a + b, 0);
    out.push(p);
    fake.stop();
    now += 5 * 60_000;
  }
  void finishScan; // runScan's closing step (closeScan, scanSnapshot), inlined above phase by phase
  deps.sqlite.close();
  rmSync(dir, { recursive: true, force: true });
  return out;
}

const ws: number[][] = [];
const phs: Record<string, number>[][] = [];
for (let r = 0; r < repeat; r++) {
  ws.push(await whole());
  if (!wholeOnly) phs.push(await phases());
}
const median = (xs: number[]) => {
  const a = [...xs].sort((x, y) => x - y);
  return a.length % 2 ? a[(a.length - 1) / 2]! : (a[a.length / 2 - 1]! + a[a.length / 2]!) / 2;
};
/** One cell: the value, or with --repeat the median and every run. */
const cell = (xs: number[]) => (xs.length === 1 ? xs[0]!.toFixed(0) : `${median(xs).toFixed(0)} (${xs.map((x) => x.toFixed(0)).join(" / ")})`);
console.log(`scale ${scale}: ${meta.counts.game_servers ?? "?"} known servers; CPU ms per scan (runScan whole, then phase by phase)${repeat > 1 ? `; median (runs) of ${repeat} runs` : ""}`);
console.log(`| phase | ${SCANS.map((s) => s.name).join(" | ")} |`);
console.log(`|---|${SCANS.map(() => "---").join("|")}|`);
console.log(`| **runScan (whole)** | ${SCANS.map((_, i) => cell(ws.map((w) => w[i]!))).join(" | ")} |`);
if (phs.length) for (const k of Object.keys(phs[0]![0]!)) console.log(`| ${k} | ${SCANS.map((_, i) => cell(phs.map((ph) => ph[i]![k]!))).join(" | ")} |`);
if (threadRuns.length) {
  // Threads that used CPU in some scan, busiest first (by the first scan's median).
  const names = [...new Set(threadRuns.flatMap((r) => r.flatMap((t) => Object.keys(t).filter((k) => t[k]! > 0))))];
  const of = (i: number, k: string) => threadRuns.map((r) => r[i]![k] ?? 0);
  names.sort((a, b) => median(of(0, b)) - median(of(0, a)));
  console.log(`\nrunScan (whole) CPU ms by thread (${process.title}: the JavaScript thread)`);
  console.log(`| thread | ${SCANS.map((s) => s.name).join(" | ")} |`);
  console.log(`|---|${SCANS.map(() => "---").join("|")}|`);
  for (const k of names) console.log(`| ${k} | ${SCANS.map((_, i) => cell(of(i, k))).join(" | ")} |`);
}
process.exit(0);
