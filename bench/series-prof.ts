// Where a miss of a stat series read spends its time (issue 29 round 2): random online and
// offline servers and random ranges on a copy of bench/data/full.db, in-process, no HTTP.
//   bun bench/series-prof.ts <copy of full.db> [iterations]
import { Database } from "bun:sqlite";
import { mulberry32 } from "../test/fixtures/prng";
import { readSeriesAt, SERVER_SERIES, serverStatsRead, SERVER_POINT } from "../src/features/live/service";
import { writeSeriesJson } from "../src/features/live/series-json";

const [path, itArg] = process.argv.slice(2);
const sqlite = new Database(path!);
sqlite.exec("PRAGMA mmap_size = 268435456");
const iterations = Number(itArg ?? 600);
const now = (sqlite.query("SELECT value FROM live_state WHERE key = 'last_scan_at'").get() as { value: number }).value + 60_000;
const online = (sqlite.query("SELECT id, sid FROM game_servers WHERE online = 1").all() as { id: string; sid: number }[]);
const offline = (sqlite.query("SELECT id, sid FROM game_servers WHERE online = 0 LIMIT 5000").all() as { id: string; sid: number }[]);
const DAYS = [1, 7, 14, 30, 90, 365];
const deps = { sqlite } as any;
function run(label: string, f: (s: { id: string; sid: number }, days: number) => number) {
  for (const pool of [["online", online], ["offline", offline]] as const) {
    for (const days of [...DAYS, 0]) {
      const rnd = mulberry32(7);
      let n = 0;
      for (let i = 0; i < 30; i++) f(pool[1][Math.floor(rnd() * pool[1].length)]!, days || DAYS[Math.floor(rnd() * 6)]!);
      const c = process.cpuUsage();
      for (let i = 0; i < iterations; i++) n += f(pool[1][Math.floor(rnd() * pool[1].length)]!, days || DAYS[Math.floor(rnd() * 6)]!);
      const u = process.cpuUsage(c);
      console.log(`${label.padEnd(12)} ${pool[0].padEnd(8)} ${String(days || "mix").padStart(4)} d: ${((u.user + u.system) / iterations).toFixed(0).padStart(5)} µs, ${(n / iterations).toFixed(0)} points`);
    }
  }
}
const which = process.argv[4] ?? "sql,objects,write";
if (which.includes("sql")) run("sql", (s, days) => readSeriesAt(sqlite, now, SERVER_SERIES, s.sid, days).rows.length);
if (which.includes("objects")) run("objects", (s, days) => serverStatsRead(deps, s.id, days, now).points.length);
// The miss path before round 2: objects per point, JSON.stringify, UTF-8 encode.
if (which.includes("stringify")) run("stringify", (s, days) => { const p = serverStatsRead(deps, s.id, days, now).points; new TextEncoder().encode(JSON.stringify(p)); return p.length; });
// The miss path now: row arrays written as JSON bytes (series-json.ts).
if (which.includes("write")) run("write", (s, days) => { const r = readSeriesAt(sqlite, now, SERVER_SERIES, s.sid, days).rows; writeSeriesJson(r, SERVER_POINT); return r.length; });
// The serialisation alone on the same rows read once (no SQLite in the loop): before and after.
if (which.includes("ser")) {
  const rnd = mulberry32(9);
  const sets = Array.from({ length: 200 }, () => readSeriesAt(sqlite, now, SERVER_SERIES, online[Math.floor(rnd() * online.length)]!.sid, DAYS[Math.floor(rnd() * 6)]!).rows);
  const enc = new TextEncoder();
  const avg = (s: number, n: number) => (n > 0 ? Math.round(s / n) : 0);
  const before = (rows: any[]) => enc.encode(JSON.stringify(rows.map(([time, n, ps, pm, qs, xs]) => ({ time: new Date(time).toISOString(), player_count: avg(ps, n), queue_players_count: avg(qs, n), wait_time_estimation: avg(xs, n), player_count_max: pm })))).length;
  const after = (rows: any[]) => writeSeriesJson(rows, SERVER_POINT).length;
  for (let round = 0; round < 3; round++)
    for (const [label, f] of [["objects+stringify", before], ["write", after]] as const) {
      for (const r of sets) f(r);
      const c = process.cpuUsage();
      let n = 0;
      for (let k = 0; k < 5; k++) for (const r of sets) n += r.length, f(r);
      const u = process.cpuUsage(c);
      console.log(`${label.padEnd(18)} ${((u.user + u.system) / (5 * sets.length)).toFixed(0).padStart(5)} µs per answer, ${((1000 * (u.user + u.system)) / n).toFixed(0)} ns per point`);
    }
}
