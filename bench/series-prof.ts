// Where a missed stat series read spends its time (issue 29, rounds 2 and 3): random online and
// offline servers and every range on a copy of bench/data/full.db, in-process, no HTTP. CPU µs per
// read of each step added in turn: the SQL (bun:sqlite rows), the points as objects,
// JSON.stringify, and the Response made of the text as a string or as UTF-8 bytes (round 2's
// path); then what the service does since round 3: the JSON written from the day rows
// (serverStatsText, series-days.ts; as UTF-8 bytes since round 8), alone and with its Response.
//   bun bench/series-prof.ts <copy of full.db> [iterations]
import { Database } from "bun:sqlite";
import { mulberry32 } from "../test/fixtures/prng";
import { readSeriesAt, SERVER_SERIES, serverStatsRead, serverStatsText } from "../src/features/live/service";

const [path, itArg] = process.argv.slice(2);
const sqlite = new Database(path!);
// As the service opens it (src/db/client.ts DEFAULT_SQLITE_MEMORY): a 16 MiB page cache, no memory map.
sqlite.exec("PRAGMA cache_size = -16384");
sqlite.exec("PRAGMA mmap_size = 0");
const iterations = Number(itArg ?? 300);
const now = (sqlite.query("SELECT value FROM live_state WHERE key = 'last_scan_at'").get() as { value: number }).value + 60_000;
const online = sqlite.query("SELECT id, sid FROM game_servers WHERE online = 1").all() as { id: string; sid: number }[];
const offline = sqlite.query("SELECT id, sid FROM game_servers WHERE online = 0 LIMIT 5000").all() as { id: string; sid: number }[];
const DAYS = [1, 7, 14, 30, 90, 365];
const deps = { sqlite } as any;
const enc = new TextEncoder();
const headers = { headers: { "content-type": "application/json;charset=utf-8" } };
const steps: [string, (s: { id: string; sid: number }, days: number) => number][] = [
  ["sql", (s, days) => readSeriesAt(sqlite, now, SERVER_SERIES, s.sid, days).rows.length],
  ["+objects", (s, days) => serverStatsRead(deps, s.id, days, now).points.length],
  ["+stringify", (s, days) => JSON.stringify(serverStatsRead(deps, s.id, days, now).points).length],
  ["+Response(string)", (s, days) => (new Response(JSON.stringify(serverStatsRead(deps, s.id, days, now).points), headers), 1)],
  ["+encode+Response(bytes)", (s, days) => (new Response(enc.encode(JSON.stringify(serverStatsRead(deps, s.id, days, now).points)), headers), 1)],
  ["day rows → bytes", (s, days) => serverStatsText(sqlite, now, s.sid, days)!.body.length],
  ["+Response(bytes)", (s, days) => (new Response(serverStatsText(sqlite, now, s.sid, days)!.body, headers), 1)],
];
for (const [pool, ids] of [["online", online], ["offline", offline]] as const) {
  for (const days of [...DAYS, 0]) {
    const cells: string[] = [];
    for (const [, f] of steps) {
      const rnd = mulberry32(7); // the same servers and ranges for every step
      const pick = () => [ids[Math.floor(rnd() * ids.length)]!, days || DAYS[Math.floor(rnd() * 6)]!] as const;
      for (let i = 0; i < 30; i++) f(...pick());
      const c = process.cpuUsage();
      for (let i = 0; i < iterations; i++) f(...pick());
      const u = process.cpuUsage(c);
      cells.push(((u.user + u.system) / iterations).toFixed(0));
    }
    console.log(`| ${pool} | ${days || "1–365 mix"} | ${cells.join(" | ")} |`);
  }
}
console.log(`(columns: ${steps.map((s) => s[0]).join(", ")}; CPU µs per read, ${iterations} reads each)`);
