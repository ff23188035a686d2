// Where a request's time goes, in process, no network: for a few hot endpoints on the seeded
// database, the mean cost of
//   work      the service function alone (SQL + object building; what the baseline does)
//   schema    the route's zod response schema validating that object (Elysia does this per response)
//   stringify JSON.stringify of the object
//   app       the whole stack: app.handle(Request) through Elysia (hooks, query/params validation,
//             auth/access, rate limiter, handler, response validation, serialisation, log line)
//   health    app.handle of GET /api/v1/health: the fixed cost every request pays
//
//   bun bench/profile.ts [--scale full|small] [--iterations N]
//
// It works on a temp copy of bench/data/<scale>.db (createDeps runs the migration check).
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";
import { loadConfig } from "../src/config";
import { createDeps } from "../src/runtime";
import { createApp } from "../src/app";
import * as catalog from "../src/features/catalog/service";
import * as CM from "../src/features/catalog/model";
import * as live from "../src/features/live/service";
import * as LM from "../src/features/live/model";
import * as lists from "../src/features/lists/service";
import * as LiM from "../src/features/lists/model";
import { resolveListAccess } from "../src/features/lists/access";
import type { SeedMeta } from "./seed";
import { argOf } from "./args";

const ROOT = resolve(import.meta.dir, "..");
const scale = argOf("scale", "full");
const iterations = Number(argOf("iterations", "300"));
const src = join(ROOT, `bench/data/${scale}.db`);
const meta = JSON.parse(readFileSync(`${src}.meta.json`, "utf8")) as SeedMeta;
const dir = mkdtempSync(join(tmpdir(), "loadout-profile-"));
copyFileSync(src, join(dir, "loadout.db"));
{
  const { Database } = await import("bun:sqlite");
  const db = new Database(join(dir, "loadout.db"));
  const shift = Date.now() - meta.now;
  if (shift > 0) db.query("UPDATE game_servers SET last_seen_at = last_seen_at + ? WHERE online = 1").run(shift);
  db.close();
}
const config = loadConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: process.env.LOADOUT_LOG_LEVEL ?? "info", LOADOUT_TRUST_PROXY: "true" });
// The request log line goes to stdout in production; here it goes to a file so the output stays readable.
const logPath = join(dir, "profile.log");
const realWrite = process.stdout.write.bind(process.stdout);
const sink = Bun.file(logPath).writer();
const deps = createDeps(config);
const app = createApp(deps);

function time(fn: () => unknown, n = iterations): number {
  for (let i = 0; i < Math.min(30, n); i++) fn(); // warm-up
  const t = performance.now();
  for (let i = 0; i < n; i++) fn();
  return ((performance.now() - t) / n) * 1000; // µs
}
async function timeAsync(fn: () => Promise<unknown>, n = iterations): Promise<number> {
  for (let i = 0; i < Math.min(30, n); i++) await fn();
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return ((performance.now() - t) / n) * 1000;
}
let ip = 1;
const req = (path: string, init: RequestInit = {}) => {
  const h = new Headers(init.headers);
  h.set("x-forwarded-for", `10.9.${(ip >> 8) & 255}.${ip++ & 255}`);
  return app.handle(new Request("http://localhost" + path, { ...init, headers: h })).then((r) => r.text());
};

const id = meta.ids;
const access = (listId: string) => resolveListAccess(deps, listId, null)!;
const cases: { name: string; path: string; work: () => unknown; schema: z.ZodType }[] = [
  { name: "mods list", path: "/api/v1/mods", work: () => catalog.listMods(deps, { page: 1, limit: 20 } as any), schema: CM.modListResponse },
  { name: "mods search", path: `/api/v1/mods?search=${encodeURIComponent(id.search_terms[0]!)}`, work: () => catalog.listMods(deps, { search: id.search_terms[0], page: 1, limit: 20 } as any), schema: CM.modListResponse },
  { name: "mod detail", path: `/api/v1/mods/${id.mod_detail}`, work: () => catalog.getModDetail(deps, id.mod_detail), schema: CM.modDetail },
  { name: "list detail 130", path: `/api/v1/lists/${id.list130}`, work: () => lists.listDetail(deps, access(id.list130)), schema: LiM.listDetail },
  { name: "list detail 1,000", path: `/api/v1/lists/${id.list1000}`, work: () => lists.listDetail(deps, access(id.list1000)), schema: LiM.listDetail },
  { name: "game-servers", path: "/api/v1/game-servers", work: () => live.listServers(deps, { limit: 100, offset: 0, sort_by: "players_desc" } as any), schema: z.array(LM.serverEntry) },
  { name: "game-server detail", path: `/api/v1/game-servers/${id.server_busy}`, work: () => live.serverDetail(deps, id.server_busy), schema: LM.serverDetail },
  { name: "server stats 365", path: `/api/v1/game-servers/${id.server_typical}/stats?days=365`, work: () => live.serverStats(deps, id.server_typical, 365), schema: z.array(LM.serverStatPoint) },
  { name: "top-mods", path: "/api/v1/stats/top-mods", work: () => live.topMods(deps), schema: z.array(LM.topMod) },
];

process.stdout.write = ((chunk: any) => sink.write(chunk)) as any;
const rows: Record<string, unknown>[] = [];
const health = await timeAsync(() => req("/api/v1/health"), iterations * 5);
for (const c of cases) {
  const n = c.name.includes("1,000") ? Math.max(30, iterations / 10) : iterations;
  const obj = c.work();
  const work = time(c.work, n);
  const schema = time(() => c.schema.parse(obj), n);
  const stringify = time(() => JSON.stringify(obj), n);
  const full = await timeAsync(() => req(c.path), n);
  rows.push({ endpoint: c.name, bytes: JSON.stringify(obj).length, work_us: work, schema_us: schema, stringify_us: stringify, app_us: full, overhead_us: full - work - stringify });
}
process.stdout.write = realWrite as any;
await sink.end();
const f = (x: unknown) => (typeof x === "number" ? x.toFixed(0) : String(x));
console.log(`scale ${scale}, ${iterations} iterations (1,000-mod lists: ${Math.max(30, iterations / 10)}), log level ${config.LOADOUT_LOG_LEVEL}; µs per request`);
console.log(`GET /api/v1/health through app.handle: ${health.toFixed(1)} µs`);
console.log("| endpoint | JSON bytes | work | zod response schema | JSON.stringify | app.handle total | total − work − stringify |");
console.log("|---|---|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.endpoint} | ${r.bytes} | ${f(r.work_us)} | ${f(r.schema_us)} | ${f(r.stringify_us)} | ${f(r.app_us)} | ${f(r.overhead_us)} |`);
rmSync(dir, { recursive: true, force: true });
process.exit(0);
