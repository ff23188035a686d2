// In-process CPU cost per request of the live and catalog rows of `bun bench/run.ts` (issue 29): app.handle
// through the whole stack on a temp copy of bench/data/full.db, µs per request, no network.
//   bun bench/live-rows.ts [--only <regex>] [--iterations N] [--scale full|small]
// With `bun --cpu-prof bench/live-rows.ts --only <row>` it is also the loop to profile.
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { createDeps } from "../src/runtime";
import { createApp } from "../src/app";
import { mulberry32 } from "../test/fixtures/prng";
import { variedEndpoints, vocabulary } from "./run";
import { liveCopy } from "./live-copy";
import { argOf } from "./args";

const scale = argOf("scale", "full");
const iterations = Number(argOf("iterations", "2000"));
const only = new RegExp(argOf("only", "."));
// --dir <d>: work on <d>/loadout.db, a copy made there once and kept (profiles then show only
// the requests); without it a temp copy is made and removed.
const { dir, meta, done } = liveCopy(scale, argOf("dir", ""));
const config = loadConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "error", LOADOUT_TRUST_PROXY: "true" });
const deps = createDeps(config);
const app = createApp(deps);
const id = meta.ids;
const vocab = vocabulary(join(dir, "loadout.db"));
const varied = Object.fromEntries(variedEndpoints(vocab).map((e) => [e.name, e.vary!]));
const fixed = (p: string) => () => p;
/** The paths in a shuffled order (the same every run), each once, then again from the start. */
function eachOnce(paths: string[]) {
  const r = mulberry32(7);
  const a = paths.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  let k = 0;
  return () => a[k++ % a.length]!;
}
const rows: { name: string; path: (r: () => number) => string }[] = [
  { name: "game-servers search+filters", path: fixed("/api/v1/game-servers?search=conflict%20eu&min_players=5&official=false&password_protected=false&sort_by=popularity") },
  { name: "game-servers search conflict everon", path: fixed("/api/v1/game-servers?search=conflict%20everon&min_players=10") },
  { name: "game-servers mod_ids (2)", path: fixed(`/api/v1/game-servers?mod_ids=${id.popular_mod_ids[0]},${id.popular_mod_ids[1]}&sort_by=players_desc`) },
  { name: "game-servers tags+max_mod_size", path: fixed("/api/v1/game-servers?tags=pc&max_mod_size=20000000000&sort_by=mod_size_asc&limit=200") },
  { name: "varied: game-servers filters", path: varied["varied: game-servers filters"]! },
  { name: "varied: game-servers popular mod_ids", path: varied["varied: game-servers popular mod_ids"]! },
  { name: "game-server detail (130 mods)", path: fixed(`/api/v1/game-servers/${id.server_busy}`) },
  { name: "varied: game-server detail (any online)", path: varied["varied: game-server detail (any online)"]! },
  // Every online server once, in a shuffled order: each request is a first request of its server
  // (the miss path of the per-server answer cache; the per-mod parts warm up as they would).
  { name: "game-server detail, each online server once", path: eachOnce(vocab.onlineServers.map((s) => `/api/v1/game-servers/${s}`)) },
  { name: "server stats 1 day", path: fixed(`/api/v1/game-servers/${id.server_typical}/stats?days=1`) },
  { name: "server stats 14 days", path: fixed(`/api/v1/game-servers/${id.server_typical}/stats?days=14`) },
  { name: "server stats 365 days", path: fixed(`/api/v1/game-servers/${id.server_typical}/stats?days=365`) },
  { name: "varied: server stats (any online, 1–365 days)", path: varied["varied: server stats (any online, 1–365 days)"]! },
  { name: "global-players 7 days", path: fixed("/api/v1/stats/global-players") },
  { name: "global-players 365 days", path: fixed("/api/v1/stats/global-players?days=365") },
  { name: "community-players 7 days", path: fixed(`/api/v1/stats/community-players/${id.community_id}`) },
  { name: "top-mods", path: fixed("/api/v1/stats/top-mods") },
  { name: "/servers/:id/metrics", path: fixed(`/servers/${id.server_busy}/metrics`) },
  { name: "/community/:slug/metrics", path: fixed(`/community/${id.community_slug}/metrics`) },
  { name: "health", path: fixed("/api/v1/health") },
  // The catalog's rows (issue 29 round 2: their miss paths).
  ...[
    "varied: mods search 2 random words", "varied: mods search 1 word + sort", "varied: mods deep pages", "varied: mods tag + sort + page",
    "varied: mods autocomplete prefixes", "varied: mod detail (any mod)", "varied: mod deps (any mod with some)", "varied: mod stats (any mod)",
  ].map((name) => ({ name, path: varied[name]! })),
  { name: "mod deps (6 deep)", path: fixed(`/api/v1/mods/${id.mod_deep}/deps`) },
  { name: "mod growth 180 days", path: fixed(`/api/v1/mods/${id.mod_popular}/stats/growth?days=180`) },
  { name: "mods autocomplete", path: fixed(`/api/v1/mods/autocomplete?q=${id.autocomplete_terms[0]}`) },
];
let ip = 1;
const req = (path: string) =>
  app.handle(new Request("http://localhost" + path, { headers: { "x-forwarded-for": `10.9.${(ip >> 8) & 255}.${ip++ & 255}` } })).then(async (r) => {
    const b = await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${new TextDecoder().decode(b)}`);
    return b.byteLength;
  });
console.log(`scale ${scale}, ${iterations} iterations; µs per request (app.handle, whole stack; CPU time of this process, robust to a busy machine, and wall time)`);
console.log("| row | bytes | CPU µs/request | wall µs/request |\n|---|---|---|---|");
for (const row of rows) {
  if (!only.test(row.name)) continue;
  const rnd = mulberry32(42);
  let bytes = 0;
  for (let i = 0; i < 50; i++) bytes = await req(row.path(rnd));
  const t = performance.now();
  const c = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await req(row.path(rnd));
  const cpu = process.cpuUsage(c);
  const us = ((performance.now() - t) / iterations) * 1000;
  console.log(`| ${row.name} | ${bytes} | ${((cpu.user + cpu.system) / iterations).toFixed(0)} | ${us.toFixed(0)} |`);
}
done();
process.exit(0);
