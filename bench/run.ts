// The benchmark: the compiled service and a bare baseline on the same seeded database.
//
//   bun bench/run.ts [--scale full|small] [--duration S] [--connections 1,32] [--only REGEX]
//                    [--load wrk|autocannon] [--before bench/results/<earlier>.json] [--bin PATH] [--no-build] [--out bench/results/<date>.json] [--no-docs]
//
// 1. Builds dist/loadout (`bun run build`) unless it exists and is newer than every source file.
// 2. Copies bench/data/<scale>.db (from `bun run seed:bench --scale <scale>`) into a temp data
//    dir and moves the online servers' last_seen_at forward by the time since seeding (the live
//    feature calls "online" what reported within the last hour).
// 3. Cold start: spawns the binary three times, time from spawn to the first 200 of /api/v1/health.
// 4. Starts the service (LOADOUT_SCHEDULES=off, LOADOUT_TRUST_PROXY=true) and bench/baseline.ts,
//    checks each endpoint once on both (status; same body?), then drives each with wrk (bench/wrk.ts;
//    autocannon when wrk is not installed, or for the smoke test's fixed request counts) at
//    every connection count for a fixed time, service first, then baseline. Anonymous requests
//    rotate X-Forwarded-For over many addresses and authenticated ones rotate over the bench
//    user's API keys, so the per-IP / per-credential rate limits (300 / 1,200 a minute) stay in
//    the measured path without turning the run into a 429 benchmark.
// 5. Prints a table, writes bench/results/<date>.json and the results section of docs/performance.md.
// Over 500 lines on purpose: one script (build, seed, start, every scenario, the report), run as a whole.
import autocannon from "autocannon";
import { spawn, type Subprocess } from "bun";
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, totalmem, tmpdir, release, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { seed, schemaFingerprint, benchApiKey, type SeedMeta } from "./seed";
import { driveWrites, writePlan, type LoadFigures, type WriteLoad } from "./writes";
import { mulberry32 } from "../test/fixtures/prng";
import { driveWrk, wrkAvailable } from "./wrk";
import { argOf } from "./args";

const ROOT = resolve(import.meta.dir, "..");
const BUN = process.execPath;

const flag = (name: string) => process.argv.includes(`--${name}`);

// ------------------------------------------------------------------------------------------
// Endpoints

export interface Endpoint {
  name: string;
  area: "catalog" | "lists" | "live" | "events" | "metrics";
  method?: "GET" | "POST";
  path: string;
  body?: string;
  auth?: boolean;
  /** p99 budget at 32 connections (ms) from the feature issues, when one is set. */
  budget?: number;
  budgetSource?: string;
  /**
   * Connections the budget is stated for: the catalog's at 32 concurrent clients; the lists'
   * and live's name none (read as one client).
   */
  budgetAt?: number;
  text?: boolean;
  /**
   * A new path for every request (the query changes each time, so the answer caches see real
   * traffic); `path` is then the first sample. Given a PRNG so the service and the baseline get
   * the same sequence.
   */
  vary?: (rnd: () => number) => string;
  /** Report the catalog answer caches' hit rate over the measurement (from the service's /metrics). */
  cacheRate?: boolean;
}

/** Words and ids the varied rows draw from, read from the seeded database. */
export interface Vocabulary {
  /** Words of mod names (lower case, two letters or more). */
  modWords: string[];
  tags: string[];
  /** Words of the online servers' names, hosts and scenarios. */
  serverWords: string[];
  /** The 20 mods most servers run. */
  popularMods: string[];
  catalogPages: number;
  /** A sample of catalog mods, and of those with dependencies (ids, sorted; the same every run). */
  modIds: string[];
  modsWithDeps: string[];
  /** The online servers' ids. */
  onlineServers: string[];
}

export function vocabulary(dbPath: string): Vocabulary {
  const db = new Database(dbPath, { readonly: true });
  const words = (rows: { t: string }[]) => {
    const set = new Set<string>();
    for (const r of rows) for (const w of r.t.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (w.length >= 2 && !/^\d+$/.test(w)) set.add(w);
    return [...set].sort();
  };
  const v: Vocabulary = {
    modWords: words(db.query("SELECT name AS t FROM mods WHERE state != 'unknown'").all() as { t: string }[]),
    tags: (db.query("SELECT DISTINCT tag FROM mod_tags ORDER BY tag").all() as { tag: string }[]).map((r) => r.tag),
    serverWords: words(db.query("SELECT search_text AS t FROM game_servers WHERE online = 1").all() as { t: string }[]),
    // The 20 mods the most servers seen in the hour before the last usage count run (live_mod_usage keeps only the top 10).
    popularMods: (
      db
        .query(
          `SELECT gm.workshop_id FROM game_servers g JOIN game_server_mods_by_sid gm ON gm.server_sid = g.sid
           WHERE g.last_seen_at >= (SELECT value FROM live_state WHERE key = 'mod_usage_at') - 3600000
           GROUP BY gm.workshop_id ORDER BY count(*) DESC, gm.workshop_id LIMIT 20`,
        )
        .all() as { workshop_id: string }[]
    ).map((r) => r.workshop_id),
    catalogPages: Math.ceil((db.query("SELECT count(*) AS n FROM mods WHERE state != 'unknown'").get() as { n: number }).n / 20),
    modIds: (db.query("SELECT workshop_id FROM mods WHERE state != 'unknown' ORDER BY workshop_id").all() as { workshop_id: string }[]).map((r) => r.workshop_id),
    modsWithDeps: (db.query("SELECT DISTINCT d.workshop_id FROM mod_dependencies d JOIN mods m ON m.workshop_id = d.workshop_id WHERE m.state != 'unknown' ORDER BY d.workshop_id").all() as { workshop_id: string }[]).map((r) => r.workshop_id),
    onlineServers: (db.query("SELECT id FROM game_servers WHERE online = 1 ORDER BY id").all() as { id: string }[]).map((r) => r.id),
  };
  db.close();
  return v;
}

const MOD_SORTS = ["name_asc", "name_desc", "size_desc", "updated_desc"];
const SERVER_SORTS = ["recent", "popularity", "players_desc", "players_asc", "mod_size_desc", "mod_size_asc", "name_asc", "name_desc"];

/** The rows whose query changes on every request (no answer cache can hold them all). */
export function variedEndpoints(v: Vocabulary): Endpoint[] {
  const pick = <T>(rnd: () => number, a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
  const enc = encodeURIComponent;
  const rows: Omit<Endpoint, "path">[] = [
    {
      name: "varied: mods search 2 random words", area: "catalog", budget: 10, budgetSource: "#15", cacheRate: true,
      vary: (r) => `/api/v1/mods?search=${enc(`${pick(r, v.modWords)} ${pick(r, v.modWords)}`)}`,
    },
    {
      name: "varied: mods search 1 word + sort", area: "catalog", budget: 10, budgetSource: "#15", cacheRate: true,
      vary: (r) => `/api/v1/mods?search=${enc(pick(r, v.modWords))}&sort=${pick(r, MOD_SORTS)}`,
    },
    {
      name: "varied: mods deep pages", area: "catalog", budget: 10, budgetSource: "#15", cacheRate: true,
      vary: (r) => `/api/v1/mods?sort=${pick(r, MOD_SORTS)}&page=${1 + Math.floor(r() * v.catalogPages)}`,
    },
    {
      name: "varied: mods tag + sort + page", area: "catalog", budget: 10, budgetSource: "#15", cacheRate: true,
      vary: (r) => `/api/v1/mods?tag=${enc(pick(r, v.tags))}&sort=${pick(r, MOD_SORTS)}&page=${1 + Math.floor(r() * 10)}`,
    },
    {
      name: "varied: mods autocomplete prefixes", area: "catalog", budget: 5, budgetSource: "#15", cacheRate: true,
      vary: (r) => {
        const w = pick(r, v.modWords);
        return `/api/v1/mods/autocomplete?q=${enc(w.slice(0, Math.min(w.length, 2 + Math.floor(r() * 3))))}`;
      },
    },
    { name: "varied: mod detail (any mod)", area: "catalog", vary: (r) => `/api/v1/mods/${pick(r, v.modIds)}` },
    { name: "varied: mod deps (any mod with some)", area: "catalog", vary: (r) => `/api/v1/mods/${pick(r, v.modsWithDeps)}/deps` },
    { name: "varied: mod stats (any mod)", area: "catalog", vary: (r) => `/api/v1/mods/${pick(r, v.modIds)}/stats` },
    { name: "varied: game-server detail (any online)", area: "live", vary: (r) => `/api/v1/game-servers/${pick(r, v.onlineServers)}` },
    {
      name: "varied: server stats (any online, 1–365 days)", area: "live",
      vary: (r) => `/api/v1/game-servers/${pick(r, v.onlineServers)}/stats?days=${pick(r, [1, 7, 14, 30, 90, 365])}`,
    },
    {
      name: "varied: game-servers filters", area: "live", budget: 15, budgetSource: "#15",
      vary: (r) => {
        const q: string[] = [`sort_by=${pick(r, SERVER_SORTS)}`];
        if (r() < 0.5) q.push(`search=${enc(r() < 0.7 ? pick(r, v.serverWords) : `${pick(r, v.serverWords)} ${pick(r, v.serverWords)}`)}`);
        if (r() < 0.4) q.push(`min_players=${pick(r, [1, 5, 10, 20, 40])}`);
        if (r() < 0.3) q.push(`official=${r() < 0.5}`);
        if (r() < 0.3) q.push(`password_protected=${r() < 0.5}`);
        if (r() < 0.3) q.push(`tags=${pick(r, ["pc", "xbox", "modded", "vanilla", "crossplay", "battleye", "pc,modded"])}`);
        if (r() < 0.2) q.push(`max_mod_size=${pick(r, [1e9, 5e9, 2e10])}`);
        if (r() < 0.2) q.push(`mod_ids=${pick(r, v.popularMods)}`);
        if (r() < 0.3) q.push(`offset=${pick(r, [100, 200, 500, 1000])}`);
        q.push(`limit=${pick(r, [20, 50, 100])}`);
        return `/api/v1/game-servers?${q.join("&")}`;
      },
    },
    {
      name: "varied: game-servers popular mod_ids", area: "live", budget: 15, budgetSource: "#15",
      vary: (r) => {
        const n = 1 + Math.floor(r() * 3);
        const ids = new Set<string>();
        while (ids.size < n) ids.add(pick(r, v.popularMods.slice(0, 10)));
        return `/api/v1/game-servers?mod_ids=${[...ids].join(",")}&sort_by=${pick(r, SERVER_SORTS)}`;
      },
    },
  ];
  return rows.map((e) => ({ ...e, path: e.vary!(mulberry32(1)) }));
}

export function endpoints(meta: SeedMeta, importBody: string): Endpoint[] {
  const id = meta.ids;
  return ([
    { name: "mods list (updated_desc)", area: "catalog", path: "/api/v1/mods", budget: 10, budgetSource: "#3" },
    { name: "mods list tag+size_desc p3", area: "catalog", path: `/api/v1/mods?tag=${id.tag}&sort=size_desc&page=3`, budget: 10, budgetSource: "#3" },
    { name: "mods list name_asc p200", area: "catalog", path: "/api/v1/mods?sort=name_asc&page=200&limit=50", budget: 10, budgetSource: "#3" },
    { name: "mods search (2 words)", area: "catalog", path: `/api/v1/mods?search=${encodeURIComponent(id.search_terms[0]!)}`, budget: 10, budgetSource: "#3" },
    { name: "mods search (1 prefix)", area: "catalog", path: `/api/v1/mods?search=${encodeURIComponent(id.search_terms[1]!)}&sort=name_asc`, budget: 10, budgetSource: "#3" },
    { name: "mods autocomplete", area: "catalog", path: `/api/v1/mods/autocomplete?q=${id.autocomplete_terms[0]}`, budget: 5, budgetSource: "#3" },
    { name: "mod detail", area: "catalog", path: `/api/v1/mods/${id.mod_detail}`, budget: 10, budgetSource: "#3" },
    { name: "mod deps (6 deep)", area: "catalog", path: `/api/v1/mods/${id.mod_deep}/deps`, budget: 10, budgetSource: "#3" },
    { name: "mod stats (most used mod)", area: "catalog", path: `/api/v1/mods/${id.mod_popular}/stats` },
    { name: "mod servers (most used mod)", area: "catalog", path: `/api/v1/mods/${id.mod_popular}/servers` },
    { name: "mod growth 180 days", area: "catalog", path: `/api/v1/mods/${id.mod_popular}/stats/growth?days=180` },
    { name: "list detail 130 mods", area: "lists", path: `/api/v1/lists/${id.list130}`, budget: 20, budgetSource: "#4 (1,000-mod figure)" },
    { name: "list detail 1,000 mods", area: "lists", path: `/api/v1/lists/${id.list1000}`, budget: 20, budgetSource: "#4" },
    { name: "import-preview 1,000", area: "lists", method: "POST", path: `/api/v1/lists/${id.list1000}/import-preview`, body: importBody, auth: true, budget: 100, budgetSource: "#4" },
    { name: "export 1,000 (fixed)", area: "lists", path: `/api/v1/lists/${id.list1000}/export?type=fixed`, budget: 10, budgetSource: "#4" },
    { name: "game-servers (default)", area: "live", path: "/api/v1/game-servers", budget: 15, budgetSource: "#7" },
    { name: "game-servers search+filters", area: "live", path: "/api/v1/game-servers?search=conflict%20eu&min_players=5&official=false&password_protected=false&sort_by=popularity", budget: 15, budgetSource: "#7" },
    { name: "game-servers mod_ids (2)", area: "live", path: `/api/v1/game-servers?mod_ids=${id.popular_mod_ids[0]},${id.popular_mod_ids[1]}&sort_by=players_desc`, budget: 15, budgetSource: "#7" },
    { name: "game-servers tags+max_mod_size", area: "live", path: "/api/v1/game-servers?tags=pc&max_mod_size=20000000000&sort_by=mod_size_asc&limit=200", budget: 15, budgetSource: "#7" },
    { name: "game-server detail (130 mods)", area: "live", path: `/api/v1/game-servers/${id.server_busy}` },
    { name: "server stats 1 day", area: "live", path: `/api/v1/game-servers/${id.server_typical}/stats?days=1` },
    { name: "server stats 14 days", area: "live", path: `/api/v1/game-servers/${id.server_typical}/stats?days=14` },
    { name: "server stats 365 days", area: "live", path: `/api/v1/game-servers/${id.server_typical}/stats?days=365`, budget: 20, budgetSource: "#7" },
    { name: "top-mods", area: "live", path: "/api/v1/stats/top-mods", budget: 10, budgetSource: "#7" },
    { name: "global-players 7 days", area: "live", path: "/api/v1/stats/global-players", budget: 10, budgetSource: "#7" },
    { name: "global-players 365 days", area: "live", path: "/api/v1/stats/global-players?days=365", budget: 10, budgetSource: "#7" },
    { name: "community-players 7 days", area: "live", path: `/api/v1/stats/community-players/${id.community_id}` },
    { name: "unread-count", area: "events", path: "/api/v1/notifications/unread-count", auth: true },
    { name: "/metrics", area: "metrics", path: "/metrics", text: true },
    { name: "/mod/:id/metrics", area: "metrics", path: `/mod/${id.mod_popular}/metrics`, text: true },
    { name: "/servers/:id/metrics", area: "metrics", path: `/servers/${id.server_busy}/metrics`, text: true },
    { name: "/community/:slug/metrics", area: "metrics", path: `/community/${id.community_slug}/metrics`, text: true },
  ] as Endpoint[]).map((e) =>
    e.budget
      ? e.name.startsWith("game-servers (") || e.name.startsWith("game-servers ")
        ? // The game-servers budget is stated at 32 clients.
          { ...e, budgetAt: 32, budgetSource: "#7, #15" }
        : { ...e, budgetAt: e.area === "catalog" ? 32 : 1 }
      : e,
  );
}


/** A server.json of 1,000 entries against the 1,000-mod list: 950 kept (50 with another version), 50 new. */
function buildImportBody(dbPath: string, meta: SeedMeta): string {
  const db = new Database(dbPath, { readonly: true });
  // "Another version" is an older version the catalog has (imports refuse pins to versions it
  // lacks), or the latest when the mod has only one.
  const items = db.query(`SELECT li.workshop_id, li.name, m.version,
      coalesce((SELECT v.version FROM mod_versions v WHERE v.workshop_id = li.workshop_id AND v.version != m.version ORDER BY v.created_at DESC LIMIT 1), m.version) AS older
    FROM list_items li LEFT JOIN mods m ON m.workshop_id = li.workshop_id
    WHERE li.list_id = ? ORDER BY li.position`).all(meta.ids.list1000) as { workshop_id: string; name: string; version: string; older: string }[];
  const extra = db.query(`SELECT workshop_id, name, version FROM mods WHERE workshop_id NOT IN (SELECT workshop_id FROM list_items WHERE list_id = ?)
    ORDER BY workshop_id LIMIT 50`).all(meta.ids.list1000) as { workshop_id: string; name: string; version: string }[];
  db.close();
  const keep = items.slice(0, Math.max(0, items.length - extra.length));
  const mods = [
    ...keep.map((m, i) => ({ modId: m.workshop_id, name: m.name, version: i % 19 === 0 ? m.older : m.version })),
    ...extra.map((m) => ({ modId: m.workshop_id, name: m.name, version: m.version })),
  ];
  return JSON.stringify({ game: { mods } }, null, 2);
}

// ------------------------------------------------------------------------------------------
// Processes

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

async function ensureBinary(out?: string): Promise<{ path: string; built: boolean; seconds: number }> {
  if (out) {
    // A private build (the smoke test): never touch dist/ that other runs may be using.
    const t = performance.now();
    const p = spawn([BUN, "scripts/build.ts", out], { cwd: ROOT, stdout: "ignore", stderr: "inherit" });
    if ((await p.exited) !== 0) throw new Error("build failed");
    return { path: out, built: true, seconds: Math.round(performance.now() - t) / 1000 };
  }
  // A binary built elsewhere (an older tree's, for a before/after pair on the same machine state).
  const given = argOf("bin");
  if (given) return { path: resolve(given), built: false, seconds: 0 };
  const bin = join(ROOT, "dist/loadout");
  const stale = !existsSync(bin) || Math.max(newestMtime(join(ROOT, "src")), newestMtime(join(ROOT, "drizzle"))) > statSync(bin).mtimeMs;
  if (flag("no-build") && existsSync(bin)) return { path: bin, built: false, seconds: 0 };
  if (!stale && !flag("build")) return { path: bin, built: false, seconds: 0 };
  const t = performance.now();
  console.log("building dist/loadout …");
  const p = spawn([BUN, "scripts/build.ts"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if ((await p.exited) !== 0) throw new Error("build failed");
  return { path: bin, built: true, seconds: Math.round(performance.now() - t) / 1000 };
}

async function waitFor200(url: string, timeoutMs: number): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    try {
      const r = await fetch(url);
      if (r.status === 200) {
        await r.arrayBuffer();
        return performance.now() - t0;
      }
    } catch {}
    await Bun.sleep(2);
  }
  throw new Error(`no 200 from ${url} within ${timeoutMs} ms`);
}

function serviceEnv(dataDir: string, port: number): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    LOADOUT_DATA_DIR: dataDir,
    LOADOUT_PORT: String(port),
    LOADOUT_HOST: "127.0.0.1",
    LOADOUT_SCHEDULES: "off",
    LOADOUT_TRUST_PROXY: "true",
    // The mixed-writes row sends ~50,000 writes a minute as the bench user: the per-user limit
    // (1,200 a minute) stays in the request path, far above what it counts.
    LOADOUT_RATE_LIMIT_USER: "1000000",
    LOADOUT_LOG_LEVEL: process.env.LOADOUT_LOG_LEVEL ?? "info",
    LOADOUT_JWT_SECRET: "bench-jwt-secret-bench-jwt-secret-0123456789",
  };
}

/** A port nothing listens on right now (bind to 0, read it, close). */
async function freePort(): Promise<number> {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const p = s.port;
  s.stop(true);
  return p;
}

function rssOf(pid: number, field = "VmRSS"): number {
  try {
    const m = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`${field}:\\s+(\\d+) kB`));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * RSS split as the kernel counts it: anonymous memory (the JavaScript heap, SQLite's page cache,
 * the allocator's free pages) and file-backed pages (the binary, and the database pages SQLite
 * reads through its memory map: page cache the kernel may drop, shared with every reader).
 */
function rssParts(pid: number) {
  return { rss: rssOf(pid), anon: rssOf(pid, "RssAnon"), file: rssOf(pid, "RssFile") };
}

async function stop(p: Subprocess) {
  p.kill("SIGTERM");
  const t = setTimeout(() => p.kill("SIGKILL"), 5_000);
  await p.exited;
  clearTimeout(t);
}

// ------------------------------------------------------------------------------------------
// Load

interface Load extends LoadFigures {
  bytes_per_response: number;
  /**
   * CPU time of the answering process (service or baseline: user + system, all its threads, from
   * /proc/<pid>/stat) over the load, divided by the requests answered: µs a request, robust to a
   * busy machine where req/s and p99 are not (wrk only).
   */
  cpu_us_per_request?: number;
  /** Catalog answer caches (list + count + autocomplete) over this measurement, when asked. */
  cache_hit_rate?: number | null;
}

/** The service's own metrics (a sample per series), read after /metrics's 1 s body cache. */
async function scrape(base: string, wait: boolean): Promise<Map<string, number>> {
  if (wait) await Bun.sleep(1_100);
  const text = await (await fetch(`${base}/metrics`, { headers: { "x-forwarded-for": "192.0.2.9" } })).text();
  const m = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    m.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return m;
}

const cacheTotals = (m: Map<string, number>) => {
  let hits = 0, misses = 0;
  for (const [k, v] of m) {
    if (!k.startsWith("loadout_catalog_cache_lookups_total")) continue;
    if (k.includes('result="hit"')) hits += v;
    else misses += v;
  }
  return { hits, misses };
};

let ipCounter = 1;
let keyCounter = 0;

type LoadGenerator = "wrk" | "autocannon";

/** CPU ticks (user + system) the process has used; 0 when /proc cannot tell. */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
  } catch {
    return 0;
  }
}
const CLK_TCK = (() => {
  try {
    return Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

async function drive(base: string, ep: Endpoint, connections: number, seconds: number, apiKeys: number, amount: number | undefined, load: LoadGenerator, pid?: number): Promise<Load> {
  const rnd = mulberry32(42); // the same sequence of queries for the service and the baseline
  if (load === "wrk") {
    let t0 = 0;
    const l: Load = await driveWrk(base, { method: ep.method ?? "GET", path: ep.path, vary: ep.vary, body: ep.body, auth: ep.auth }, connections, seconds, apiKeys, rnd, () => {
      if (pid) t0 = cpuTicks(pid);
    });
    if (pid && l.requests > 0) l.cpu_us_per_request = Math.round((((cpuTicks(pid) - t0) / CLK_TCK) * 1e6) / l.requests);
    return l;
  }
  const headers: Record<string, string> = {};
  if (ep.body) headers["content-type"] = "application/json";
  const r = await autocannon({
    url: base + ep.path,
    method: ep.method ?? "GET",
    body: ep.body,
    headers,
    connections,
    // autocannon's duration has a floor of about a second; the smoke test asks for a request count.
    ...(amount ? { amount, sampleInt: 50 } : { duration: seconds }),
    timeout: 30,
    requests: [
      {
        setupRequest: (req: any) => {
          if (ep.vary) req.path = ep.vary(rnd);
          const h: Record<string, string> = { ...req.headers };
          // A bounded pool of client addresses (20,000 × 300 a minute is far above what 2 cores serve).
          const n = ipCounter++ % 20_000;
          h["x-forwarded-for"] = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
          if (ep.auth) h["x-api-key"] = `lo_benchmark-key-not-a-secret-${String(keyCounter++ % apiKeys).padStart(6, "0")}`;
          req.headers = h;
          return req;
        },
      },
    ],
  });
  const total = r.requests.total || 1;
  return {
    connections,
    requests: r.requests.total,
    rps: Math.round(r.requests.average * 10) / 10,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    bytes_per_response: Math.round(r.throughput.total / total),
  };
}

async function probe(base: string, ep: Endpoint, apiKey: string) {
  const headers: Record<string, string> = { "x-forwarded-for": "192.0.2.1" };
  if (ep.body) headers["content-type"] = "application/json";
  if (ep.auth) headers["x-api-key"] = apiKey;
  const r = await fetch(base + ep.path, { method: ep.method ?? "GET", body: ep.body, headers });
  return { status: r.status, body: await r.text() };
}

/** Same JSON (parsed, key order ignored) or same text, with volatile lines of process metrics ignored. */
function sameBody(a: string, b: string, ep: Endpoint): boolean | null {
  if (ep.path === "/metrics") return null; // process metrics differ by nature (two processes)
  if (ep.text) return a === b;
  try {
    return Bun.deepEquals(JSON.parse(a), JSON.parse(b));
  } catch {
    return a === b;
  }
}

// ------------------------------------------------------------------------------------------

/** Writes under load: clients, the writes' latencies and the health checks' waits meanwhile. */
interface WriteRow {
  name: string;
  clients: number;
  seconds: number;
  /** Health budget: no check waits longer (ms); write p99 budget (ms). */
  budget_health_max_ms: number;
  budget_write_p99_ms: number;
  service: WriteLoad | null;
  baseline: WriteLoad | null;
  within_budget: boolean | null;
  note?: string;
}

export const WRITE_CLIENTS = 20;

interface Row {
  name: string;
  area: string;
  method: string;
  path: string;
  available: boolean;
  note?: string;
  status?: number;
  same_body?: boolean | null;
  response_bytes?: number;
  budget_p99_ms?: number;
  budget_source?: string;
  budget_connections?: number;
  service: Load[];
  baseline: Load[];
  ratio_rps: (number | null)[];
  within_budget?: boolean | null;
}

function wrkVersion(): string | null {
  if (!wrkAvailable()) return null;
  const r = Bun.spawnSync(["wrk", "-v"]);
  return /wrk (\S+)/.exec(r.stdout.toString() + r.stderr.toString())?.[1] ?? "?";
}

function machine() {
  const cpu = cpus();
  let bunVersion = Bun.version;
  const pkg = (name: string) => {
    try {
      return JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")).version as string;
    } catch {
      return "?";
    }
  };
  const db = new Database(":memory:");
  const sqliteVersion = (db.query("SELECT sqlite_version() AS v").get() as { v: string }).v;
  db.close();
  return {
    nproc: navigator.hardwareConcurrency,
    cpu_model: cpu[0]?.model ?? "?",
    memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    kernel: release(),
    bun: bunVersion,
    sqlite: sqliteVersion,
    elysia: pkg("elysia"),
    zod: pkg("zod"),
    drizzle_orm: pkg("drizzle-orm"),
    autocannon: pkg("autocannon"),
    wrk: wrkVersion(),
  };
}

/**
 * The hot reads (what a community's page, a launcher or a bot asks: catalog, live, metrics
 * rows) and their goal at 32 clients. Not hot: the list rows (an editor's page) and the servers of
 * the most used mod, a 1.1 MB answer (5,000 a second would be 5.5 GB/s).
 */
export function hotGoal(e: { name: string; area: string }): { rps: number; p99: number } | null {
  if (!["catalog", "live", "metrics"].includes(e.area) || e.name.startsWith("mod servers")) return null;
  return { rps: 5_000, p99: e.name.includes("autocomplete") ? 5 : 10 };
}

const fmt = (n: number | undefined | null, d = 1) => (n === undefined || n === null ? "—" : n === 0 ? "<1" : n.toFixed(d).replace(/\.0$/, ""));

const mib = (b: number) => (b / 2 ** 20).toFixed(0);

function markdown(res: any): string {
  const conns: number[] = res.method.connections;
  const byWrk = String(res.method.load_generator).startsWith("wrk");
  const lat = (n: number | undefined | null) => (byWrk ? (n == null ? "—" : n.toFixed(1)) : fmt(n, 0));
  const L: string[] = [];
  L.push(`Run ${res.date} · scale **${res.scale}** · ${res.method.duration_s} s per measurement · connections ${conns.join(" and ")}`);
  L.push("");
  L.push(`Machine: ${res.machine.nproc} cores (${res.machine.cpu_model}), ${res.machine.memory_gib} GiB, Linux ${res.machine.kernel}. ` +
    `Load average before/after: ${res.machine.loadavg_before.map((x: number) => x.toFixed(2)).join(" ")} / ${res.machine.loadavg_after.map((x: number) => x.toFixed(2)).join(" ")}. ` +
    `Bun ${res.machine.bun}, SQLite ${res.machine.sqlite}, Elysia ${res.machine.elysia}, zod ${res.machine.zod}, drizzle-orm ${res.machine.drizzle_orm}, load by ${byWrk ? `wrk ${res.machine.wrk ?? "?"}` : `autocannon ${res.machine.autocannon}`}.`);
  L.push("");
  L.push(`Database: ${(res.database.bytes / 2 ** 20).toFixed(0)} MiB (seeded in ${res.database.seed_seconds} s). ` +
    `Cold start of dist/loadout to the first 200: ${res.cold_start_ms.map((x: number) => x.toFixed(0)).join(", ")} ms (median ${res.cold_start_median_ms.toFixed(0)} ms). ` +
    `Service RSS: ${(res.rss.idle_bytes / 2 ** 20).toFixed(0)} MiB idle after start, ${(res.rss.max_bytes / 2 ** 20).toFixed(0)} MiB max under load, ${((res.rss.after_bytes ?? 0) / 2 ** 20).toFixed(0)} MiB after the run; baseline ${(res.rss.baseline_max_bytes / 2 ** 20).toFixed(0)} MiB max.` +
    (res.rss.after && res.rss.after_15s ? ` After the run, anonymous / file-backed (the binary and SQLite's memory-mapped database pages): ${mib(res.rss.after.anon)} / ${mib(res.rss.after.file)} MiB at 2 s, ${mib(res.rss.after_15s.anon)} / ${mib(res.rss.after_15s.file)} MiB at 15 s (RSS ${mib(res.rss.after_15s.rss)} MiB).` : ""));
  const mem = res.in_memory ?? {};
  if (mem.live_snapshot_servers != null) {
    L.push("");
    L.push(`In memory after the run: live snapshot of ${mem.live_snapshot_servers} online servers, ~${((mem.live_snapshot_bytes ?? 0) / 2 ** 20).toFixed(1)} MiB (estimate), ` +
      `built in ${mem.live_snapshot_build_ms} ms; catalog sort orders of ${mem.catalog_orders_mods ?? "—"} mods, built in ${mem.catalog_orders_build_ms ?? "—"} ms; ` +
      `catalog search index of ${mem.catalog_search_terms ?? "—"} terms, ~${((mem.catalog_search_bytes ?? 0) / 2 ** 20).toFixed(1)} MiB, built in ${mem.catalog_search_build_ms ?? "—"} ms; ` +
      `catalog dependency graph ~${((mem.catalog_graph_bytes ?? 0) / 2 ** 20).toFixed(1)} MiB, built in ${mem.catalog_graph_build_ms ?? "—"} ms; ` +
      `server details kept for the snapshot: ${mem.live_detail_cache_servers ?? "—"}, ${((mem.live_detail_cache_bytes ?? 0) / 2 ** 20).toFixed(2)} MiB; ` +
      `catalog mods kept for them, items serialised: ${mem.live_detail_catalog_mods ?? "—"}, ${((mem.live_detail_catalog_bytes ?? 0) / 2 ** 20).toFixed(2)} MiB, ${mem.live_detail_parts ?? "—"} variants' parts; ` +
      `servers' mod lists kept for them: ${mem.live_detail_lists ?? "—"}, ${((mem.live_detail_lists_bytes ?? 0) / 2 ** 20).toFixed(2)} MiB; ` +
      `stat series answers kept: ${mem.live_series_cache_answers ?? "—"}, ${((mem.live_series_cache_bytes ?? 0) / 2 ** 20).toFixed(2)} MiB; ` +
      `live list search indexes and encoded entries: ${((mem.live_search_index_bytes ?? 0) / 2 ** 20).toFixed(2)} MiB; ` +
      `per-mod answers (detail, deps, labels, growth): ${((mem.catalog_answers_bytes ?? 0) / 2 ** 20).toFixed(2)} MiB` +
      (mem.answer_caches_bytes != null
        ? `; all answer caches together: ${(mem.answer_caches_bytes / 2 ** 20).toFixed(2)} of a ${((mem.answer_caches_budget_bytes ?? 0) / 2 ** 20).toFixed(0)} MiB budget (${mem.answer_caches_evictions ?? 0} answers dropped for it).`
        : "."));
  }
  L.push("");
  const head = ["endpoint", "budget p99"];
  for (const c of conns) head.push(`c=${c} p50 / p99 ms`, `c=${c} req/s`, `c=${c} baseline req/s`, `c=${c} ratio`);
  head.push("cache hits", "same body");
  L.push(`| ${head.join(" | ")} |`);
  L.push(`|${head.map(() => "---").join("|")}|`);
  for (const r of res.endpoints as Row[]) {
    if (!r.available) {
      L.push(`| ${r.name} | ${r.budget_p99_ms ?? "—"} | not available: ${r.note} |${" |".repeat(head.length - 3)}`);
      continue;
    }
    const cells = [r.name, r.budget_p99_ms ? `${r.budget_p99_ms} ms @c=${r.budget_connections}${r.within_budget === false ? " **missed**" : r.within_budget ? " ok" : ""}` : "—"];
    conns.forEach((_, i) => {
      const s = r.service[i];
      const b = r.baseline[i];
      const ratio = r.ratio_rps[i];
      const bad = s && (s.non2xx > 0 || s.errors > 0) ? ` (${s.non2xx} non-2xx, ${s.errors} errors)` : "";
      cells.push(s ? `${lat(s.p50)} / ${lat(s.p99)}${bad}` : "—", s ? fmt(s.rps, 0) : "—", b ? fmt(b.rps, 0) : "—",
        ratio == null ? "—" : `${ratio.toFixed(2)}${ratio < 0.5 ? " **<0.5**" : ""}`);
    });
    const rates = r.service.map((x) => x.cache_hit_rate).filter((x): x is number => typeof x === "number");
    cells.push(rates.length ? rates.map((x) => `${(x * 100).toFixed(0)}%`).join(" / ") : "—");
    cells.push(r.same_body === null || r.same_body === undefined ? "n/a" : r.same_body ? "yes" : "**no**");
    L.push(`| ${cells.join(" | ")} |`);
  }
  L.push("");
  const at32 = conns.indexOf(32);
  if (at32 >= 0) {
    const before = new Map<string, Load>();
    const bi = res.before ? (res.before.connections as number[]).indexOf(32) : -1;
    if (res.before && bi >= 0) for (const r of res.before.endpoints as Row[]) if (r.available && r.service[bi]) before.set(r.name, r.service[bi]!);
    const cell = (x: Load | undefined) => (x ? `${fmt(x.rps, 0)} · ${byWrk ? x.p99.toFixed(1) : fmt(x.p99, 0)}` : "—");
    L.push("");
    L.push(`Hot reads at 32 clients against their goal (≥ 5,000 req/s and p99 ≤ 10 ms; autocomplete ≤ 5 ms)` +
      (res.before ? `, before = \`${res.before.file}\` (${res.before.date}, ${res.before.load_generator})` : "") + ":");
    L.push("");
    L.push(`| hot read |${res.before ? " before req/s · p99 ms |" : ""} req/s · p99 ms | baseline req/s · p99 ms | goal |`);
    L.push(`|---|${res.before ? "---|" : ""}---|---|---|`);
    for (const r of res.endpoints as Row[]) {
      const g = hotGoal(r);
      if (!g || !r.available) continue;
      const s = r.service[at32], b = r.baseline[at32];
      const met = s ? s.rps >= g.rps && s.p99 <= g.p99 && s.non2xx === 0 : false;
      L.push(`| ${r.name} |${res.before ? ` ${cell(before.get(r.name))} |` : ""} ${cell(s)} | ${cell(b)} | ${met ? "met" : "**not met**"} |`);
    }
  }
  L.push("");
  L.push((byWrk ? "Latencies are wrk's (microsecond resolution, shown to 0.1 ms; wrk runs 2 threads on the same 2 cores). "
    : "Latencies are autocannon's (1 ms histogram resolution: `<1` means under a millisecond). ") +
    "ratio = service req/s ÷ baseline req/s at the same connection count.");
  for (const w of (res.writes ?? []) as WriteRow[]) {
    L.push("");
    if (!w.service) {
      L.push(`${w.name}: not available (${w.note}).`);
      continue;
    }
    const h = (x: WriteLoad | null) => (x?.health ? `${fmt(x.health.max, 0)} ms (p99 ${fmt(x.health.p99, 0)}, ${x.health.over_100ms} of ${x.health.probes} over 100 ms)` : "—");
    const l = (x: WriteLoad | null) => (x ? `${fmt(x.p50, 0)} / ${fmt(x.p99, 0)} / ${fmt(x.max, 0)}${x.non2xx || x.errors ? ` (${x.non2xx} non-2xx, ${x.errors} errors)` : ""}` : "—");
    L.push(`| ${w.name} (${w.clients} clients, ${w.seconds} s) | budget | service | baseline |`);
    L.push("|---|---|---|---|");
    L.push(`| writes/s | | ${fmt(w.service.rps, 0)} | ${w.baseline ? fmt(w.baseline.rps, 0) : "—"} |`);
    L.push(`| write p50 / p99 / max ms | p99 ≤ ${w.budget_write_p99_ms} ms${w.within_budget === false ? " **missed**" : w.within_budget ? " ok" : ""} | ${l(w.service)} | ${l(w.baseline)} |`);
    L.push(`| longest health check during the writes | ≤ ${w.budget_health_max_ms} ms | ${h(w.service)} | ${h(w.baseline)} |`);
    L.push("");
    L.push("Each client cycles add → pin → unpin → remove of its own mod on the bench user's lists (every request a real change with an event); " +
      "a separate process asks `/api/v1/health` every 20 ms meanwhile. The baseline runs the same service functions on its own copy of the database, " +
      "without Elysia and without a job worker (its events stay in its outbox: the service's row includes the fan-out, the baseline's does not).");
  }
  return L.join("\n");
}

function writeDocs(md: string) {
  const file = join(ROOT, "docs/performance.md");
  const START = "<!-- bench:results:start -->";
  const END = "<!-- bench:results:end -->";
  let doc = existsSync(file) ? readFileSync(file, "utf8") : `# Performance\n\n${START}\n${END}\n`;
  if (!doc.includes(START)) doc += `\n${START}\n${END}\n`;
  const a = doc.indexOf(START) + START.length;
  const b = doc.indexOf(END);
  doc = doc.slice(0, a) + "\n" + md + "\n" + doc.slice(b);
  writeFileSync(file, doc);
}

export interface BenchOptions {
  scale: string;
  duration: number;
  connections: number[];
  only?: RegExp;
  out?: string;
  docs: boolean;
  /** Seeded database (default bench/data/<scale>.db, with its .meta.json beside it). */
  db?: string;
  /** Build the binary to this path instead of reusing/refreshing dist/loadout. */
  binaryOut?: string;
  quiet?: boolean;
  /** Fixed number of requests per measurement instead of a duration (smoke test). */
  amount?: number;
  /** Default: wrk when installed (and no `amount`), else autocannon. */
  load?: LoadGenerator;
  /** A previous results file: the hot-reads table shows its figures beside this run's. */
  before?: string;
}

function beforeOf(file: string) {
  const r = JSON.parse(readFileSync(file, "utf8"));
  return { file: file.replace(ROOT + "/", ""), date: r.date, load_generator: r.method.load_generator, connections: r.method.connections,
    endpoints: (r.endpoints as Row[]).map((e) => ({ name: e.name, available: e.available, service: e.service })) };
}

export async function runBench(opts: BenchOptions) {
  const load: LoadGenerator = opts.amount ? "autocannon" : opts.load ?? (wrkAvailable() ? "wrk" : "autocannon");
  const dbSrc = opts.db ?? join(ROOT, `bench/data/${opts.scale}.db`);
  if (!existsSync(dbSrc) || !existsSync(`${dbSrc}.meta.json`)) throw new Error(`no seeded database: run \`bun run seed:bench --scale ${opts.scale}\` first`);
  let meta = JSON.parse(readFileSync(`${dbSrc}.meta.json`, "utf8")) as SeedMeta;
  // drizzle/ is regenerated as a whole before the first release: a database seeded under an
  // older schema would not migrate, so seed it again (same rows, new schema).
  if (JSON.stringify(meta.schema) !== JSON.stringify(schemaFingerprint())) {
    console.log(`${dbSrc} was seeded under another schema (drizzle/ changed): seeding again …`);
    meta = await seed(meta.scale ?? opts.scale, dbSrc);
  }
  const bin = await ensureBinary(opts.binaryOut);
  const log = opts.quiet ? (..._: unknown[]) => {} : console.log;

  // A private copy: the service writes (api_keys.last_used_at, the job table, WAL).
  const dataDir = mkdtempSync(join(tmpdir(), "loadout-bench-"));
  const dbPath = join(dataDir, "loadout.db");
  copyFileSync(dbSrc, dbPath);
  {
    const db = new Database(dbPath);
    const shift = Date.now() - meta.now;
    if (shift > 0) db.query("UPDATE game_servers SET last_seen_at = last_seen_at + ? WHERE online = 1").run(shift);
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    db.close();
  }
  const importBody = buildImportBody(dbPath, meta);
  // Other work on the machine skews absolute numbers (ratios less: both sides run back to back).
  const loadBefore = loadavg();
  const vocab = vocabulary(dbPath);
  const eps = [...endpoints(meta, importBody), ...variedEndpoints(vocab).map((e) => ({ ...e, budgetAt: 32 }))].filter(
    (e) => !opts.only || opts.only.test(e.name),
  );

  // Cold start, three times (the first also runs the migration check on this database).
  const port = await freePort();
  const cold: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const p = spawn([bin.path], { env: serviceEnv(dataDir, port), stdout: "ignore", stderr: "ignore" });
    await waitFor200(`http://127.0.0.1:${port}/api/v1/health`, 30_000).catch(async (e) => {
      await stop(p);
      throw e;
    });
    cold.push(performance.now() - t0);
    await stop(p);
  }

  const logFile = join(dataDir, "service.log");
  const svc = spawn([bin.path], { env: serviceEnv(dataDir, port), stdout: Bun.file(logFile), stderr: "inherit" });
  const bport = await freePort();
  // The baseline reads and writes its own copy (same rows): the service's job worker writing to
  // a shared file would make the baseline's writes wait for SQLite's lock across processes.
  const baseDbPath = join(dataDir, "baseline.db");
  copyFileSync(dbPath, baseDbPath);
  const base = spawn([BUN, join(ROOT, "bench/baseline.ts"), baseDbPath, String(bport)], { cwd: ROOT, stdout: "ignore", stderr: "inherit" });
  const S = `http://127.0.0.1:${port}`;
  const B = `http://127.0.0.1:${bport}`;
  const rows: Row[] = [];
  const writes: WriteRow[] = [];
  let maxRss = 0, baseMaxRss = 0, idleRss = 0, afterRss = 0;
  let afterParts: ReturnType<typeof rssParts> | null = null, settledParts: ReturnType<typeof rssParts> | null = null;
  let memory: Record<string, number | null> = {};
  try {
    await waitFor200(`${S}/api/v1/health`, 30_000);
    await waitFor200(`${B}/api/v1/health`, 30_000);
    await Bun.sleep(300);
    idleRss = rssOf(svc.pid);
    const sampler = setInterval(() => {
      maxRss = Math.max(maxRss, rssOf(svc.pid));
      baseMaxRss = Math.max(baseMaxRss, rssOf(base.pid));
    }, 100);

    for (const ep of eps) {
      const row: Row = {
        name: ep.name, area: ep.area, method: ep.method ?? "GET", path: ep.path.length > 120 ? ep.path.slice(0, 117) + "..." : ep.path,
        available: false, budget_p99_ms: ep.budget, budget_source: ep.budgetSource, budget_connections: ep.budgetAt, service: [], baseline: [], ratio_rps: [],
      };
      rows.push(row);
      const ps = await probe(S, ep, meta.ids.api_key);
      row.status = ps.status;
      if (ps.status < 200 || ps.status >= 300) {
        row.note = `service answered ${ps.status} ${ps.body.slice(0, 80)}`;
        log(`${ep.name.padEnd(32)} not available (${row.note})`);
        continue;
      }
      const pb = await probe(B, ep, meta.ids.api_key);
      row.available = true;
      row.response_bytes = ps.body.length;
      row.same_body = pb.status === 200 ? sameBody(ps.body, pb.body, ep) : false;
      for (const c of opts.connections) {
        const before = ep.cacheRate ? cacheTotals(await scrape(S, !opts.amount)) : null;
        const s = await drive(S, ep, c, opts.duration, meta.ids.api_keys ?? 1, opts.amount, load, svc.pid);
        if (before) {
          const after = cacheTotals(await scrape(S, !opts.amount));
          const n = after.hits + after.misses - before.hits - before.misses;
          s.cache_hit_rate = opts.amount ? null : n > 0 ? Math.round(((after.hits - before.hits) / n) * 1000) / 1000 : null;
        }
        const b = await drive(B, ep, c, opts.duration, meta.ids.api_keys ?? 1, opts.amount, load, base.pid);
        row.service.push(s);
        row.baseline.push(b);
        row.ratio_rps.push(b.rps > 0 ? Math.round((s.rps / b.rps) * 100) / 100 : null);
        const lat = (n: number) => (load === "wrk" ? n.toFixed(1) : fmt(n, 0));
        log(`${ep.name.padEnd(32)} c=${String(c).padEnd(3)} service p50 ${lat(s.p50).padStart(4)} p99 ${lat(s.p99).padStart(5)} ms ${String(s.rps).padStart(8)} req/s` +
          ` | baseline p50 ${lat(b.p50).padStart(4)} p99 ${lat(b.p99).padStart(5)} ms ${String(b.rps).padStart(8)} req/s | ratio ${row.ratio_rps.at(-1)}` +
          (s.non2xx || s.errors ? ` | service non-2xx ${s.non2xx} errors ${s.errors}` : "") +
          (s.cache_hit_rate != null ? ` | cache hits ${(s.cache_hit_rate * 100).toFixed(1)}%` : "") +
          (s.cpu_us_per_request != null ? ` | CPU µs/request ${s.cpu_us_per_request} (baseline ${b.cpu_us_per_request ?? "?"})` : ""));
      }
      const ib = opts.connections.indexOf(ep.budgetAt ?? 1);
      const at = ib >= 0 ? row.service[ib] : undefined;
      row.within_budget = ep.budget && at ? at.p99 <= ep.budget && at.non2xx === 0 : null;
    }
    if (!opts.only || opts.only.test("mixed writes")) {
      const seconds = opts.amount ? 1 : Math.max(opts.duration, 10);
      const w: WriteRow = {
        name: "mixed writes", clients: WRITE_CLIENTS, seconds, budget_health_max_ms: 100, budget_write_p99_ms: 50,
        service: null, baseline: null, within_budget: null,
      };
      writes.push(w);
      try {
        const plan = writePlan(dbPath, meta.ids.user_id, WRITE_CLIENTS);
        const keys = meta.ids.api_keys ?? 1;
        const o = { connections: WRITE_CLIENTS, seconds, amount: opts.amount, apiKey: (n: number) => benchApiKey(n % keys) };
        w.service = await driveWrites(S, plan, { ...o, healthUrl: `${S}/api/v1/health` });
        await Bun.sleep(opts.amount ? 100 : 2_000); // the service's dispatcher finishes its events
        w.baseline = await driveWrites(B, plan, { ...o, healthUrl: `${B}/api/v1/health` });
        const sv = w.service;
        w.within_budget = !!sv.health && sv.health.max <= w.budget_health_max_ms && sv.p99 <= w.budget_write_p99_ms && sv.non2xx === 0 && sv.errors === 0;
        const line = (x: WriteLoad) => `p50 ${fmt(x.p50, 0)} p99 ${fmt(x.p99, 0)} max ${fmt(x.max, 0)} ms ${x.rps} writes/s | health max ${x.health?.max} ms, ${x.health?.over_100ms} over 100 ms` +
          (x.non2xx || x.errors ? ` | non-2xx ${x.non2xx} errors ${x.errors}: ${x.samples.join("; ")}` : "");
        log(`${"mixed writes".padEnd(32)} c=${WRITE_CLIENTS} service ${line(sv)}`);
        log(`${"".padEnd(32)}      baseline ${line(w.baseline)}`);
      } catch (e) {
        w.note = String(e);
        log(`mixed writes not available (${w.note})`);
      }
    }
    clearInterval(sampler);
    // What the service keeps after the whole run (budget 300 MiB), once the last
    // responses are gone: sampled after a pause.
    await Bun.sleep(2_000);
    afterRss = rssOf(svc.pid);
    afterParts = rssParts(svc.pid);
    // And once the allocator has had time to give back what the last responses used.
    if (!opts.amount) await Bun.sleep(13_000);
    settledParts = rssParts(svc.pid);
    const m = await scrape(S, !opts.amount);
    memory = {
      live_snapshot_servers: m.get("loadout_live_snapshot_servers") ?? null,
      live_snapshot_bytes: m.get("loadout_live_snapshot_bytes") ?? null,
      live_snapshot_build_ms: m.has("loadout_live_snapshot_build_seconds") ? Math.round(m.get("loadout_live_snapshot_build_seconds")! * 1e4) / 10 : null,
      catalog_orders_mods: m.get("loadout_catalog_orders_mods") ?? null,
      catalog_orders_build_ms: m.has("loadout_catalog_orders_build_seconds") ? Math.round(m.get("loadout_catalog_orders_build_seconds")! * 1e4) / 10 : null,
      catalog_search_terms: m.get("loadout_catalog_search_terms") ?? null,
      catalog_search_bytes: m.get("loadout_catalog_search_bytes") ?? null,
      catalog_search_build_ms: m.has("loadout_catalog_search_build_seconds") ? Math.round(m.get("loadout_catalog_search_build_seconds")! * 1e4) / 10 : null,
      catalog_graph_bytes: m.get("loadout_catalog_graph_bytes") ?? null,
      catalog_graph_build_ms: m.has("loadout_catalog_graph_build_seconds") ? Math.round(m.get("loadout_catalog_graph_build_seconds")! * 1e4) / 10 : null,
      live_detail_cache_servers: m.get("loadout_live_detail_cache_servers") ?? null,
      live_detail_cache_bytes: m.get("loadout_live_detail_cache_bytes") ?? null,
      live_detail_catalog_mods: m.get("loadout_live_detail_catalog_mods") ?? null,
      live_detail_catalog_bytes: m.get("loadout_live_detail_catalog_bytes") ?? null,
      live_detail_parts: m.get("loadout_live_detail_parts") ?? null,
      live_detail_lists: m.get("loadout_live_detail_lists") ?? null,
      live_detail_lists_bytes: m.get("loadout_live_detail_lists_bytes") ?? null,
      live_series_cache_answers: m.get("loadout_live_series_cache_answers") ?? null,
      live_series_cache_bytes: m.get("loadout_live_series_cache_bytes") ?? null,
      live_search_index_bytes: m.get("loadout_live_search_index_bytes") ?? null,
      // Per-mod answers (detail, deps, labels, growth), summed over the caches.
      catalog_answers_bytes: [...m].filter(([k]) => k.startsWith("loadout_catalog_answers_bytes")).reduce((n, [, v]) => n + v, 0),
      // Every answer cache together (details, series, live pages and search rows, per-mod answers)
      // against their shared budget (LOADOUT_CACHE_MB), and the answers the budget dropped.
      answer_caches_bytes: m.get("loadout_answer_cache_bytes") ?? null,
      answer_caches_budget_bytes: m.get("loadout_answer_cache_budget_bytes") ?? null,
      answer_caches_evictions: m.get("loadout_answer_cache_evictions_total") ?? null,
    };
  } finally {
    await stop(svc);
    await stop(base);
  }

  const loadAfter = loadavg();
  const sorted = [...cold].sort((a, b) => a - b);
  const res = {
    date: new Date().toISOString(),
    scale: opts.scale,
    method: {
      duration_s: opts.duration,
      connections: opts.connections,
      load_generator: load === "wrk" ? "wrk (2 threads, Lua script, same machine, same run)" : "autocannon (programmatic, same machine, same run)",
      service: `${bin.path.replace(ROOT + "/", "")}${bin.built ? " (built for this run)" : ""}, LOADOUT_SCHEDULES=off, LOADOUT_TRUST_PROXY=true, log level ${process.env.LOADOUT_LOG_LEVEL ?? "info"} to a file`,
      baseline: "bench/baseline.ts: Bun.serve + bun:sqlite, same repository SQL and service object builders",
    },
    machine: { ...machine(), loadavg_before: loadBefore, loadavg_after: loadAfter },
    database: { bytes: statSync(dbPath).size, seed_seconds: meta.seconds, seeded_at: meta.seeded_at, counts: meta.counts },
    cold_start_ms: cold.map((x) => Math.round(x * 10) / 10),
    cold_start_median_ms: Math.round(sorted[1]! * 10) / 10,
    rss: { idle_bytes: idleRss, max_bytes: maxRss, after_bytes: afterRss, baseline_max_bytes: baseMaxRss, after: afterParts, after_15s: settledParts },
    /** What the in-memory answers hold (the service's own gauges after the run). */
    in_memory: memory,
    endpoints: rows,
    writes,
    before: opts.before ? beforeOf(opts.before) : undefined,
  };
  rmSync(dataDir, { recursive: true, force: true });

  const out = opts.out ?? join(ROOT, `bench/results/${res.date.slice(0, 10)}-${opts.scale}.json`);
  mkdirSync(resolve(out, ".."), { recursive: true });
  writeFileSync(out, JSON.stringify(res, null, 2) + "\n");
  const md = markdown(res);
  log("\n" + md + "\n");
  if (opts.docs) writeDocs(md);
  log(`results: ${out}`);
  return { res, out };
}

if (import.meta.main) {
  const scale = argOf("scale") ?? (existsSync(join(ROOT, "bench/data/full.db")) ? "full" : "small");
  const duration = Number(argOf("duration", scale === "full" ? "5" : "1"));
  const connections = argOf("connections", "1,32").split(",").map(Number);
  const only = argOf("only");
  await runBench({ scale, duration, connections, only: only ? new RegExp(only, "i") : undefined, out: argOf("out"), docs: !flag("no-docs"), load: argOf("load") as LoadGenerator | undefined, before: argOf("before") });
  process.exit(0);
}
