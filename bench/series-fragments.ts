// Issue 29, round 4: would keeping each server's 3-hour day rows as the answer's exact JSON
// fragment (instead of the compact text of a5_series_days.sql) make a missed stat series cheaper?
// A prototype on a COPY of bench/data/full.db: the first N servers' 3-hour days are written as
// their points' JSON bytes (a leading ',' each) into a rowid table keyed sid × 65536 + day (~4 days
// a 4 KB page, none overflowing); an answer is then the first and last (cut) days written from the
// compact rows as today, the whole days between copied from one range read, and the tail as today.
// Checks the bytes equal serverStatsText's, then times both (CPU µs a read, rounds alternated,
// the service's 16 MiB page cache and no memory map). docs/performance.md "Round 4, stat series".
//   bun bench/series-fragments.ts <copy of full.db> [servers, default 800]
import { Database } from "bun:sqlite";
import { lstatSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { serverStatsText } from "../src/features/live/service";
import { PointsWriter } from "../src/features/live/series-days";
import { DAY, RAW_WINDOW, THREE_HOURS as T } from "../src/features/live/repository";
import { mulberry32 } from "../test/fixtures/prng";

/** A written answer's points as a fragment: `,<points>` without the brackets. */
function fragmentOf(b: Uint8Array): Uint8Array {
  const f = b.slice(0, b.length - 1);
  f[0] = 44; // ','
  return f;
}

const [path, nArg] = process.argv.slice(2);
if (!path || lstatSync(path).isSymbolicLink() || realpathSync(path) === resolve(import.meta.dir, "data/full.db")) {
  throw new Error("give a copy of bench/data/full.db (this writes a table into it)");
}
const servers = Number(nArg ?? 800);
let db = new Database(path);
const enc = new TextEncoder();
const dec = new TextDecoder();

// The fragments, written by today's writer from today's day rows (so equal by construction).
db.run("DROP TABLE IF EXISTS series_fragments_proto");
db.run("CREATE TABLE series_fragments_proto (k INTEGER PRIMARY KEY, points BLOB NOT NULL)");
const ins = db.prepare("INSERT INTO series_fragments_proto VALUES (?, ?)");
let bytes = 0;
let rows = 0;
db.transaction(() => {
  for (const [sid, day, pts] of db.query("SELECT sid, day, points FROM game_server_stats_3h_days WHERE sid <= ? ORDER BY sid, day").values(servers) as [number, number, string][]) {
    const w = new PointsWriter();
    w.days(day + pts, T, 0, Infinity);
    const frag = fragmentOf(w.body());
    ins.run(sid * 65536 + day, frag);
    bytes += frag.length;
    rows++;
  }
})();
console.log(`${rows} day rows of ${servers} servers as fragments: ${(bytes / 2 ** 20).toFixed(0)} MiB (the compact rows of all 5,000: ${((db.query("SELECT sum(length(points)) AS b FROM game_server_stats_3h_days").get() as { b: number }).b / 2 ** 20).toFixed(0)} MiB)`);

// Closed and opened again: the last connection's close checkpoints the write-ahead log, so the
// reads below see the database file as the service would, not ~250 MB of fresh log frames.
db.close();
db = new Database(path);
db.exec("PRAGMA cache_size = -16384");
db.exec("PRAGMA mmap_size = 0");
const state = (k: string) => (db.query("SELECT value FROM live_state WHERE key = ?").get(k) as { value: number }).value;
const w1 = state("hourly_until");
const w3 = state("3h_until");
const now = Date.now();
const qDay = db.query("SELECT group_concat(day || points, '/') FROM game_server_stats_3h_days WHERE sid = $sid AND day = $d");
const qFrag = db.query("SELECT points FROM series_fragments_proto WHERE k >= $a AND k <= $b");
const qTail = db.query(`SELECT (time / ${T}) * ${T} AS time, sum(n) AS n, sum(ps) AS ps, max(pm) AS pm, sum(qs) AS qs, sum(xs) AS xs
    FROM (SELECT time, n, players_sum AS ps, players_max AS pm, queue_sum AS qs, wait_sum AS xs FROM game_server_stats_hourly WHERE sid = $key AND time >= max($since, $w3) AND time < $w1
      UNION ALL SELECT time, 1 AS n, players AS ps, players AS pm, queue AS qs, wait AS xs FROM game_server_stats_raw WHERE sid = $key AND time >= max($since, $w1, $rawFrom)) GROUP BY 1 ORDER BY 1`);
const inside = (w: PointsWriter) => {
  const b = w.body();
  return b.length > 2 ? fragmentOf(b) : new Uint8Array(0);
};
function fromFragments(sid: number, days: number): Uint8Array {
  const since = Math.floor((now - days * DAY) / T) * T;
  const firstWhole = Math.ceil(since / DAY);
  const lastWhole = Math.floor(w3 / DAY) - 1; // the days wholly in [since, w3)
  const head = new PointsWriter();
  const d0 = Math.floor(since / DAY);
  if (d0 < firstWhole) {
    const t = (qDay.values({ sid, d: d0 }) as [string | null][])[0]![0];
    if (t) head.days(t, T, since, w3);
  }
  const whole = qFrag.values({ a: sid * 65536 + firstWhole, b: sid * 65536 + lastWhole }) as [Uint8Array][];
  const rest = new PointsWriter();
  const dl = Math.floor((w3 - 1) / DAY);
  if (dl > lastWhole) {
    const t = (qDay.values({ sid, d: dl }) as [string | null][])[0]![0];
    if (t) rest.days(t, T, since, w3);
  }
  rest.rows(qTail.values({ key: sid, since, w3, w1, rawFrom: now - RAW_WINDOW }) as number[][]);
  const a = inside(head);
  const z = inside(rest);
  let n = a.length + z.length + 1;
  for (const r of whole) n += r[0].length;
  if (n === 1) return enc.encode("[]");
  const out = new Uint8Array(n);
  out.set(a, 0);
  let o = a.length;
  for (const r of whole) {
    out.set(r[0], o);
    o += r[0].length;
  }
  out.set(z, o);
  o += z.length;
  out[0] = 91; // the first point's ','
  out[o] = 93;
  return out;
}
const today = (sid: number, days: number): Uint8Array => serverStatsText(db, now, sid, days)!.body as Uint8Array;

const RANGES = [30, 90, 365];
const rnd = mulberry32(3);
for (let i = 0; i < 30; i++)
  for (const d of RANGES) {
    const s = 1 + Math.floor(rnd() * servers);
    if (dec.decode(fromFragments(s, d)) !== dec.decode(today(s, d))) throw new Error(`server ${s}, ${d} days: not the same bytes`);
  }
console.log(`same bytes: yes (${30 * RANGES.length} answers)`);
// Every server's year read once by both kinds first: both tables' pages in the OS page cache (on a
// shared machine other processes evict pages, and whichever table was written last would win).
for (let s = 1; s <= servers; s++) {
  today(s, 365);
  fromFragments(s, 365);
}

const res: Record<string, { all: number[]; sys: number[] }> = {};
const kinds: [string, typeof today][] = [["today", today], ["fragments", fromFragments]];
for (let k = 0; k < 8; k++)
  for (const [name, f] of k % 2 ? kinds.slice().reverse() : kinds)
    for (const days of RANGES) {
      const r = mulberry32(1000 * k + days); // the same servers for both kinds in a round
      const c = process.cpuUsage();
      for (let i = 0; i < 100; i++) f(1 + Math.floor(r() * servers), days);
      const u = process.cpuUsage(c);
      const cell = (res[`${days} days, ${name}`] ??= { all: [], sys: [] });
      cell.all.push((u.user + u.system) / 100);
      cell.sys.push(u.system / 100);
    }
const med = (a: number[]) => {
  const v = a.slice().sort((x, y) => x - y);
  return (v[(v.length - 1) >> 1]! + v[v.length >> 1]!) / 2;
};
for (const [k, v] of Object.entries(res)) console.log(`${k.padEnd(20)} median ${med(v.all).toFixed(0)} µs a read (system ${med(v.sys).toFixed(0)}); rounds ${v.all.map((x) => x.toFixed(0)).join(", ")}`);
db.run("DROP TABLE series_fragments_proto");
