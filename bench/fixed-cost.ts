// The fixed cost of a request, in process: app.handle(new Request(...)) in a loop on cheap rows
// (health, a cached /mods page, autocomplete, server detail), against the app as production
// composes it (createApp with the default config: response validation off), the request log line
// going to a file as under the bench. µs per request, median of several rounds.
//
//   bun bench/fixed-cost.ts [--db <copy of full.db>] [--iterations N] [--rounds R] [--only regex]
//   bun --cpu-prof --cpu-prof-dir /tmp/x bench/fixed-cost.ts --only health --iterations 200000 --rounds 1
//
// Without --db it copies bench/data/full.db to a temp dir first (1.5 GB, ~2 s); with --db it
// opens that file as it is (give it a copy: the app runs its migration check and may write).
import { closeSync, copyFileSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { loadConfig } from "../src/config";
import { createDeps } from "../src/runtime";
import { createApp } from "../src/app";
import type { SeedMeta } from "./seed";

const ROOT = resolve(import.meta.dir, "..");
const argOf = (n: string, d: string) => {
  const i = process.argv.indexOf(`--${n}`);
  return i >= 0 ? process.argv[i + 1]! : d;
};
const iterations = Number(argOf("iterations", "20000"));
const rounds = Number(argOf("rounds", "5"));
const only = new RegExp(argOf("only", "."));
const meta = JSON.parse(readFileSync(join(ROOT, "bench/data/full.db.meta.json"), "utf8")) as SeedMeta;
let dir: string;
let owned = false;
const given = argOf("db", "");
if (given) dir = dirname(given);
else {
  dir = mkdtempSync(join(tmpdir(), "loadout-fixed-"));
  owned = true;
  copyFileSync(join(ROOT, "bench/data/full.db"), join(dir, "loadout.db"));
}
{
  const { Database } = await import("bun:sqlite");
  const db = new Database(join(dir, "loadout.db"));
  const shift = Date.now() - meta.now;
  if (shift > 60_000) db.query("UPDATE game_servers SET last_seen_at = last_seen_at + ? WHERE online = 1").run(shift);
  db.close();
}
const config = loadConfig({
  ...process.env,
  LOADOUT_DATA_DIR: dir,
  LOADOUT_SCHEDULES: "off",
  LOADOUT_TRUST_PROXY: "true",
  LOADOUT_RATE_LIMIT_USER: "1000000",
  LOADOUT_LOG_LEVEL: process.env.LOADOUT_LOG_LEVEL ?? "info",
  LOADOUT_JWT_SECRET: "bench-jwt-secret-bench-jwt-secret-0123456789",
});
// The log lines go to a file, as the bench's service writes them (its stdout is a file).
const realWrite = process.stdout.write.bind(process.stdout);
const logFd = openSync(join(dir, "fixed-cost.log"), "w");
process.stdout.write = ((chunk: any) => (writeSync(logFd, chunk), true)) as any;
const say = (s: string) => realWrite(s + "\n");

const deps = createDeps(config);
const app = createApp(deps);

const id = meta.ids;
const rows: { name: string; path: string }[] = [
  { name: "health", path: "/api/v1/health" },
  { name: "mods list (cached page)", path: "/api/v1/mods" },
  { name: "autocomplete", path: `/api/v1/mods/autocomplete?q=${id.autocomplete_terms[0]}` },
  { name: "server detail", path: `/api/v1/game-servers/${id.server_busy}` },
].filter((r) => only.test(r.name));

let ip = 1;
const handle = (path: string) => {
  const n = 1 + (ip++ % 20_000); // a pool of 20,000 client addresses, as bench/wrk.ts sends
  return app.handle(
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
const consume = (p: Promise<Response>) => p.then((res) => res.arrayBuffer());
async function run(path: string, n: number) {
  for (let i = 0; i < n; i += BATCH) {
    const batch: Promise<ArrayBuffer>[] = [];
    for (let j = 0; j < BATCH && i + j < n; j++) batch.push(consume(handle(path)));
    await Promise.all(batch);
    await new Promise((r) => setImmediate(r));
  }
}

for (const r of rows) {
  const first = await handle(r.path);
  const body = await first.text();
  if (first.status !== 200) throw new Error(`${r.path}: ${first.status} ${body.slice(0, 200)}`);
  await run(r.path, 2048);
  const us: number[] = [];
  for (let k = 0; k < rounds; k++) {
    // CPU time of the process, not wall time: on a shared machine the wall clock counts the
    // neighbours' turns too.
    const c = process.cpuUsage();
    await run(r.path, iterations);
    const d = process.cpuUsage(c);
    us.push((d.user + d.system) / iterations);
  }
  us.sort((a, b) => a - b);
  say(`${r.name.padEnd(26)} ${String(body.length).padStart(7)} B  median ${us[us.length >> 1]!.toFixed(2)} µs CPU  (rounds: ${us.map((x) => x.toFixed(2)).join(", ")})`);
}
await new Promise((r) => setImmediate(r)); // the last batch's log lines
closeSync(logFd);
deps.sqlite.close();
if (owned) rmSync(dir, { recursive: true, force: true });
process.exit(0);
