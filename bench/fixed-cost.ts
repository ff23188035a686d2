// The fixed cost of a request, in process: app.handle(new Request(...)) in a loop on cheap rows
// (health, a cached /mods page, autocomplete, server detail, a mod's or a community's metrics, a
// server's and the global 365-day stats, a 404) and on the
// varied rows that pay it on top of their own work (any online server's detail, varied game-server
// filters, popular mod_ids, two random words, tag + sort + page, deep pages, autocomplete prefixes,
// any mod's detail and deps, any server's 1–365-day stats: the same queries as bench/run.ts's
// rows), against the app as production composes it (createApp with the default config: response
// validation off), the request log line going to a file as under the bench. µs per request,
// median of several rounds.
//
//   bun bench/fixed-cost.ts [--dir <dir for a kept copy>] [--iterations N] [--rounds R] [--only regex]
//   bun --cpu-prof --cpu-prof-dir /tmp/x bench/fixed-cost.ts --only health --iterations 200000 --rounds 1
//   bun bench/fixed-cost.ts --before /tmp/tree-before [--rounds 9]   (rounds alternated with another tree's app)
//   bun bench/fixed-cost.ts --before /tmp/tree-before --interleave   (the two apps take turns batch by batch)
//   bun bench/fixed-cost.ts --serve 5 [--rounds 3] [--only regex]   (listening, wrk at 32 connections: CPU µs a request served)
//
// Without --dir it copies bench/data/full.db to a temp dir first (1.5 GB, ~2 s) and removes it.
import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { createDeps } from "../src/runtime";
import { createApp } from "../src/app";
import { liveCopy } from "./live-copy";
import { driveWrk } from "./wrk";
import { SOCKET_BODY_CAP } from "../src/shared/http";
import { mulberry32 } from "../test/fixtures/prng";
import { variedEndpoints, vocabulary } from "./run";
import { argOf } from "./args";

const iterations = Number(argOf("iterations", "20000"));
const rounds = Number(argOf("rounds", "5"));
const only = new RegExp(argOf("only", "."));
// --dir <d>: work on <d>/loadout.db, copied there once and kept (bench/live-copy.ts shifts its
// online servers to now on each run); without it a temp copy is made and removed.
const { dir, meta, done } = liveCopy("full", argOf("dir", ""));
const env = {
  ...process.env,
  LOADOUT_DATA_DIR: dir,
  LOADOUT_SCHEDULES: "off",
  LOADOUT_TRUST_PROXY: "true",
  LOADOUT_RATE_LIMIT_USER: "1000000",
  LOADOUT_LOG_LEVEL: process.env.LOADOUT_LOG_LEVEL ?? "info",
  LOADOUT_JWT_SECRET: "bench-jwt-secret-bench-jwt-secret-0123456789",
};
const config = loadConfig(env);
// The log lines go to a file, as the bench's service writes them (its stdout is a file).
const realWrite = process.stdout.write.bind(process.stdout);
const logFd = openSync(join(dir, "fixed-cost.log"), "w");
process.stdout.write = ((chunk: any) => (writeSync(logFd, chunk), true)) as any;
const say = (s: string) => realWrite(s + "\n");

const deps = createDeps(config);
const app = createApp(deps);
// --before <tree>: another checkout's app (its src/config, runtime and app modules: say, the tree
// before a change, exported with `git archive` and node_modules linked) in this same process on
// the same database, measured in rounds alternated with this tree's: both see the same machine
// load, which on a shared machine moves more than the change being measured.
const beforeTree = argOf("before", "");
type App = { handle(r: Request): Promise<Response> };
const apps: { label: string; app: App; close: () => void }[] = [{ label: beforeTree ? "after" : "", app, close: () => deps.sqlite.close() }];
if (beforeTree) {
  const bConfig = (await import(join(beforeTree, "src/config.ts"))).loadConfig(env);
  const bDeps = (await import(join(beforeTree, "src/runtime.ts"))).createDeps(bConfig);
  const bApp = (await import(join(beforeTree, "src/app.ts"))).createApp(bDeps);
  apps.unshift({ label: "before", app: bApp, close: () => bDeps.sqlite.close() });
}

const id = meta.ids;
const fixed = (p: string) => () => p;
const VARIED = [
  "varied: game-server detail (any online)",
  "varied: game-servers filters",
  "varied: game-servers popular mod_ids",
  "varied: mods search 2 random words",
  "varied: mods tag + sort + page",
  "varied: mods deep pages",
  "varied: mods autocomplete prefixes",
  "varied: mod detail (any mod)",
  "varied: mod deps (any mod with some)",
  "varied: server stats (any online, 1–365 days)",
];
const rows: { name: string; path: () => string; vary?: (rnd: () => number) => string; paths?: () => () => string }[] = [
  { name: "health", path: fixed("/api/v1/health") },
  { name: "mods list (cached page)", path: fixed("/api/v1/mods") },
  { name: "autocomplete", path: fixed(`/api/v1/mods/autocomplete?q=${id.autocomplete_terms[0]}`) },
  { name: "top-mods", path: fixed("/api/v1/stats/top-mods") },
  { name: "not found (404)", path: fixed("/api/v1/no-such-route") },
  { name: "server detail", path: fixed(`/api/v1/game-servers/${id.server_busy}`) },
  { name: "/mod/:id/metrics", path: fixed(`/mod/${id.mod_popular}/metrics`) },
  { name: "/community/:slug/metrics", path: fixed(`/community/${id.community_slug}/metrics`) },
  { name: "server stats 365 days", path: fixed(`/api/v1/game-servers/${id.server_typical}/stats?days=365`) },
  { name: "global players 365 days", path: fixed("/api/v1/stats/global-players?days=365") },
  ...(VARIED.some((n) => only.test(n))
    ? (() => {
        // The varied rows' query sequences, seeded as bench/run.ts's (each row its own stream).
        const v = variedEndpoints(vocabulary(join(dir, "loadout.db")));
        return VARIED.map((name) => {
          const vary = v.find((e) => e.name === name)!.vary!;
          const rnd = mulberry32(42);
          // paths(): a stream of its own from the same seed (each app of --before gets the same queries)
          return { name: name.replace("varied: ", ""), path: () => vary(rnd), vary, paths: () => { const r = mulberry32(42); return () => vary(r); } };
        });
      })()
    : []),
].filter((r) => only.test(r.name) || only.test("varied: " + r.name));

let ip = 1;
const handle = (path: string, to: App = app) => {
  const n = 1 + (ip++ % 20_000); // a pool of 20,000 client addresses, as bench/wrk.ts sends
  return to.handle(
    new Request("http://localhost" + path, { headers: { "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` } }),
  );
};

/**
 * `n` requests, BATCH at a time, then one turn of the event loop (setImmediate), as a server
 * under load answers a batch of ready sockets a turn: the hooks Elysia defers to the next turn
 * (afterResponse: the log line) and the log writer's flush run as they would there. A loop of
 * awaits alone never leaves the microtask queue, and those deferred callbacks would pile up.
 */
const BATCH = Number(argOf("batch", "32"));
const interleave = process.argv.includes("--interleave");
const consume = (p: Promise<Response>) => p.then((res) => res.arrayBuffer());
async function run(path: () => string, n: number, to: App = app) {
  for (let i = 0; i < n; i += BATCH) {
    const batch: Promise<ArrayBuffer>[] = [];
    for (let j = 0; j < BATCH && i + j < n; j++) batch.push(consume(handle(path(), to)));
    await Promise.all(batch);
    await new Promise((r) => setImmediate(r));
  }
}

// --serve S: the app listening (as `serve` listens), each row driven by wrk at 32 connections for
// S seconds a round (bench/wrk.ts: the varied rows' paths as bench/run.ts sends them); the CPU of
// this process over the load (the server's alone: wrk is another process) over wrk's request count.
const serveSeconds = Number(argOf("serve", "0"));
const bases = new Map<App, string>();
if (serveSeconds > 0) {
  for (const a of apps) {
    const listening = a.app as App & { listen(o: object): unknown; server: { port: number } | null };
    listening.listen({ port: 0, hostname: "127.0.0.1", maxRequestBodySize: SOCKET_BODY_CAP });
    bases.set(a.app, `http://127.0.0.1:${listening.server!.port}`);
  }
}

for (const r of rows) {
  if (serveSeconds > 0) {
    // Each app (this tree's, and --before's) driven in turn, rounds alternated; the other idles.
    const path = r.path();
    const per = apps.map((a) => ({ ...a, us: [] as number[], rps: [] as number[], p99: [] as number[] }));
    for (const a of per) await driveWrk(bases.get(a.app)!, { method: "GET", path, vary: r.vary }, 32, 1, 1, mulberry32(41)); // warm up
    for (let k = 0; k < rounds; k++) {
      for (const a of k % 2 ? per.slice().reverse() : per) {
        let c: NodeJS.CpuUsage | null = null;
        const l = await driveWrk(bases.get(a.app)!, { method: "GET", path, vary: r.vary }, 32, serveSeconds, 1, mulberry32(42), () => (c = process.cpuUsage()));
        const d = process.cpuUsage(c!);
        if (l.non2xx && !r.name.includes("404")) throw new Error(`${r.name}: ${l.non2xx} non-2xx answers`);
        a.us.push((d.user + d.system) / l.requests);
        a.rps.push(l.rps);
        a.p99.push(l.p99);
      }
    }
    const med = (a: number[]) => a.slice().sort((x, y) => x - y)[a.length >> 1]!;
    for (const a of per)
      say(`${(a.label ? `${a.label}: ` : "") + r.name}`.padEnd(38) + ` served: median ${med(a.us).toFixed(1)} µs CPU a request (rounds: ${a.us.map((x) => x.toFixed(1)).join(", ")}); ${med(a.rps).toFixed(0)} req/s, p99 ${med(a.p99)} ms`);
    continue;
  }
  const per = apps.map((a) => ({ ...a, path: r.paths?.() ?? r.path, us: [] as number[], bytes: 0 }));
  for (const a of per) {
    const p0 = a.path();
    const first = await handle(p0, a.app);
    const body = await first.text();
    if (first.status !== (r.name.includes("404") ? 404 : 200)) throw new Error(`${p0}: ${first.status} ${body.slice(0, 200)}`);
    a.bytes = body.length;
    await run(a.path, 2048, a.app);
  }
  if (interleave && per.length > 1) {
    // --interleave: within each round the apps take turns batch by batch (A B B A ...), each
    // batch's CPU counted to its app: a change of the machine's load within a round then falls on
    // both alike, where whole rounds of one app each see their own minute of it.
    for (let k = 0; k < rounds; k++) {
      const sums = per.map(() => 0);
      for (let i = 0; i < iterations; i += BATCH) {
        const order = (i / BATCH) % 2 ? per.map((_, j) => per.length - 1 - j) : per.map((_, j) => j);
        for (const j of order) {
          const c = process.cpuUsage();
          await run(per[j]!.path, BATCH, per[j]!.app);
          const d = process.cpuUsage(c);
          sums[j]! += d.user + d.system;
        }
      }
      per.forEach((a, j) => a.us.push(sums[j]! / iterations));
    }
  } else for (let k = 0; k < rounds; k++) {
    // Alternated (before, after, after, before, ...) so neither always runs first.
    for (const a of k % 2 ? per.slice().reverse() : per) {
      // CPU time of the process, not wall time: on a shared machine the wall clock counts the
      // neighbours' turns too.
      const c = process.cpuUsage();
      await run(a.path, iterations, a.app);
      const d = process.cpuUsage(c);
      a.us.push((d.user + d.system) / iterations);
    }
  }
  for (const a of per) {
    const us = a.us.slice().sort((x, y) => x - y);
    say(`${(a.label ? `${a.label}: ` : "") + r.name}`.padEnd(38) + ` ${String(a.bytes).padStart(7)} B  median ${us[us.length >> 1]!.toFixed(2)} µs CPU  (rounds: ${a.us.map((x) => x.toFixed(2)).join(", ")})`);
  }
}
await new Promise((r) => setImmediate(r)); // the last batch's log lines
closeSync(logFd);
for (const a of apps) a.close();
done();
process.exit(0);
