// Live-servers benchmark at the scale, against the fake BattleMetrics:
//   bun test/fakes/battlemetrics-bench.ts [--year] [--keep DIR]
// 1. scans 5,000 generated online servers (50 pages, ~40 mods each) twice (first sight, then a
//    steady-state scan with some changes) and reports the CPU time of each;
// 2. seeds ~90,000 more known (offline) servers and, with --year, a year of roll-up history for
//    5,000 servers (3-hour buckets 365 days, hourly 14 days, raw 24 h) and reports the file size;
// 3. times the read endpoints through the real app (p50/p99 over many requests).
import { serverSearchText } from "../../src/features/live/search";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testConfig } from "../../src/config";
import { createDeps } from "../../src/runtime";
import { createApp } from "../../src/app";
import { createMemoryLogger } from "../../src/shared/log";
import { BattleMetricsClient } from "../../src/features/live/battlemetrics";
import { runScan } from "../../src/features/live/scan";
import { runRollups } from "../../src/features/live/rollup";
import { bulkLoadSeries } from "../../src/features/live/series-days";
import { DAY, HOUR, THREE_HOURS } from "../../src/features/live/repository";
import { generatedModId } from "./battlemetrics";

const year = process.argv.includes("--year");
const keepIdx = process.argv.indexOf("--keep");
const dir = keepIdx > 0 ? process.argv[keepIdx + 1]! : mkdtempSync(join(tmpdir(), "loadout-live-bench-"));
const ONLINE = 5000;
const KNOWN = 95_000;

let now = Date.UTC(2026, 10, 22, 12, 2, 0);
const clock = { now: () => now };
// Requests come from many client addresses so the global per-IP rate limit does not interfere.
const config = testConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_TRUST_PROXY: "true" });
const deps = createDeps(config, { log: createMemoryLogger("error"), clock });
const app = createApp(deps);
const { sqlite } = deps;

function cpu<T>(fn: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = process.cpuUsage();
  return fn().then((result) => {
    const d = process.cpuUsage(start);
    return { ms: (d.user + d.system) / 1000, result };
  });
}

// Catalog sizes for the generated mod pool, so mod-size sums and filters are realistic.
sqlite.transaction(() => {
  const ins = sqlite.prepare(`INSERT OR IGNORE INTO mods (workshop_id, name, version, size_bytes, state) VALUES (?, ?, '1.0.0', ?, 'active')`);
  for (let i = 0; i < 3000; i++) ins.run(generatedModId(i), `Generated Mod ${i}`, 1_000_000 + ((i * 7919) % 900_000_000));
})();

// The fake runs in its own process so that only our side is measured: seed 42 first, then
// seed 42 with 5 % of servers changed (see battlemetrics-serve.ts).
async function serveFake(args: string[]) {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "battlemetrics-serve.ts"), ...args], { stdout: "pipe" });
  const { value } = await proc.stdout.getReader().read();
  return { url: new TextDecoder().decode(value).trim(), stop: () => proc.kill() };
}
let fake = await serveFake([String(ONLINE), "42"]);
const client = () => new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} });

const first = await cpu(() => runScan(deps, { client: client() }));
console.log(`scan 1 (first sight, ${first.result.servers} servers, ${first.result.pages} pages, ${first.result.mod_changes} changelog rows): ${first.ms.toFixed(0)} ms CPU`);
fake.stop();
fake = await serveFake([String(ONLINE), "42", "--churn"]);
now += 5 * 60_000;
const second = await cpu(() => runScan(deps, { client: client() }));
console.log(`scan 2 (steady, ${second.result.mod_changes} changelog rows): ${second.ms.toFixed(0)} ms CPU`);
fake.stop();

// ~90,000 more known servers, offline (seen over the last year).
sqlite.transaction(() => {
  const ins = sqlite.prepare(
    `INSERT INTO game_servers (id, sid, host_address, name, ip, port, tags, search_text, first_seen_at, last_seen_at)
     VALUES (?, ?, ?, ?, ?, 2001, ',vanilla,', ?, ?, ?)`,
  );
  for (let i = 0; i < KNOWN - ONLINE; i++) {
    const ip = `172.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const seen = now - (1 + (i % 360)) * DAY;
    ins.run(Bun.randomUUIDv7(), 1_000_000 + i, `${ip}:2001`, `Old Server ${i}`, ip, serverSearchText(`Old Server ${i}`, ""), seen - DAY, seen);
  }
})();

if (year) {
  const sids = (sqlite.query(`SELECT sid FROM game_servers WHERE online = 1`).all() as { sid: number }[]).map((r) => r.sid);
  const t0 = performance.now();
  const put3h = sqlite.prepare(`INSERT OR REPLACE INTO game_server_stats_3h VALUES (?, ?, 36, ?, ?, 0, 0, 0)`);
  const putH = sqlite.prepare(`INSERT OR REPLACE INTO game_server_stats_hourly VALUES (?, ?, 12, ?, ?, 0, 0, 0)`);
  const putRaw = sqlite.prepare(`INSERT OR REPLACE INTO game_server_stats_raw VALUES (?, ?, ?, 0, 0)`);
  const block0 = Math.floor(now / THREE_HOURS) * THREE_HOURS;
  const hour0 = Math.floor(now / HOUR) * HOUR;
  // The day rows of the buckets (src/features/live/series-days.ts) in one pass after the load.
  bulkLoadSeries(sqlite, () => {
  for (const sid of sids) {
    sqlite.transaction(() => {
      for (let b = 1; b <= 365 * 8; b++) {
        const p = (sid * 31 + b * 7) % 90;
        put3h.run(sid, block0 - b * THREE_HOURS, p * 36, p + 5);
      }
      for (let h = 1; h <= 14 * 24; h++) {
        const p = (sid * 17 + h * 5) % 90;
        putH.run(sid, hour0 - h * HOUR, p * 12, p + 3);
      }
      for (let r = 2; r <= 288; r++) putRaw.run(sid, now - r * 5 * 60_000, (sid + r) % 90);
    })();
  }
  });
  sqlite.transaction(() => {
    for (let b = 1; b <= 365 * 8; b++)
      sqlite.query(`INSERT OR REPLACE INTO live_global_stats_3h VALUES (?, 36, ?, ?, 0, ?, ?)`).run(block0 - b * THREE_HOURS, 36 * 150_000, 160_000, 36 * 5000, 5100);
    for (let h = 1; h <= 14 * 24; h++)
      sqlite.query(`INSERT OR REPLACE INTO live_global_stats_hourly VALUES (?, 12, ?, ?, 0, ?, ?)`).run(hour0 - h * HOUR, 12 * 150_000, 160_000, 12 * 5000, 5100);
  })();
  console.log(`seeded a year of history for ${sids.length} servers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

const roll = await cpu(async () => runRollups(deps, now));
console.log(`roll-up (first run, catches up on all history): ${roll.ms.toFixed(0)} ms CPU`);
// Steady state: the next hour's scan points, then the hourly roll-up.
now += HOUR;
sqlite.transaction(() => {
  const put = sqlite.prepare(`INSERT OR REPLACE INTO game_server_stats_raw VALUES (?, ?, ?, 0, 0)`);
  const sids = sqlite.query(`SELECT sid FROM game_servers WHERE online = 1`).all() as { sid: number }[];
  for (let k = 12; k >= 1; k--) for (const { sid } of sids) put.run(sid, now - k * 5 * 60_000, sid % 90);
})();
const roll2 = await cpu(async () => runRollups(deps, now));
console.log(`roll-up (steady, one hour): ${roll2.ms.toFixed(0)} ms CPU`);
sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
sqlite.exec("ANALYZE");
const size = statSync(join(dir, "loadout.db"), { throwIfNoEntry: false })?.size ?? 0;
console.log(`database file: ${(size / 1024 / 1024).toFixed(0)} MiB`);

async function time(label: string, paths: string[], n = 300) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = paths[i % paths.length]!;
    const t = performance.now();
    const res = await app.handle(new Request(`http://localhost${p}`, { headers: { "x-forwarded-for": `10.9.${i >> 8}.${i & 255}` } }));
    await res.text();
    if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const q = (f: number) => times[Math.min(times.length - 1, Math.floor(times.length * f))]!.toFixed(2);
  console.log(`${label.padEnd(34)} p50 ${q(0.5)} ms  p99 ${q(0.99)} ms`);
}

const anyId = (sqlite.query(`SELECT id FROM game_servers WHERE online = 1 ORDER BY player_count DESC LIMIT 1`).get() as { id: string }).id;
const popular = [generatedModId(0), generatedModId(1), generatedModId(5)];
const sorts = ["recent", "popularity", "players_desc", "players_asc", "mod_size_desc", "mod_size_asc", "name_asc", "name_desc"];
await time("list, each sort", sorts.map((s) => `/api/v1/game-servers?sort_by=${s}`));
await time(
  "list, filter combinations",
  [
    "/api/v1/game-servers?search=conflict%20everon&sort_by=players_desc",
    `/api/v1/game-servers?mod_ids=${popular[0]},${popular[1]}&sort_by=popularity`,
    `/api/v1/game-servers?mod_ids=${popular.join(",")}&min_players=10&tags=pc,battleye`,
    "/api/v1/game-servers?official=false&password_protected=false&max_mod_size=20000000000&sort_by=mod_size_desc",
    "/api/v1/game-servers?tags=crossplay&min_players=30&sort_by=name_asc&offset=100&limit=200",
    "/api/v1/game-servers?search=generated%20server%204&tags=modded&sort_by=recent",
  ],
);
await time("detail", [`/api/v1/game-servers/${anyId}`]);
await time("mods page", [`/api/v1/game-servers/${anyId}/mods?limit=50`]);
await time("stats?days=1", [`/api/v1/game-servers/${anyId}/stats?days=1`]);
await time("stats?days=14", [`/api/v1/game-servers/${anyId}/stats?days=14`]);
await time("stats?days=365", [`/api/v1/game-servers/${anyId}/stats?days=365`]);
await time("top-mods", ["/api/v1/stats/top-mods"]);
await time("top-servers", ["/api/v1/stats/top-servers"]);
await time("global-players (7 d)", ["/api/v1/stats/global-players"]);
await time("global-players?days=365", ["/api/v1/stats/global-players?days=365"]);
await time("server metrics", [`/servers/${anyId}/metrics`]);

await deps.jobs.stop(1000);
sqlite.close();
if (keepIdx < 0) rmSync(dir, { recursive: true, force: true });
