// Trials of the crawl's write side (bench/crawl-write.ts's work, several variants in one process,
// alternated): N mods of the benchmark catalog fetched and normalised once, then for each round and
// each variant a fresh migrated database (the crawl child's settings: the memory map), the variant's
// SQL run on it, and the mods written the way a detail batch writes them (`--batch` a transaction,
// no savepoint), only the writing timed (CPU of this process) and the bytes written (/proc/self/io).
//
//   bun bench/crawl-write-trials.ts --variants dir/ [--count 8000] [--batch 128] [--rounds 3] [--cache FILE]
//
// Each `dir/<name>.sql` is a variant (statements split on `--> statement-breakpoint`; "base.sql"
// may be empty; a line `-- batch: N` in a variant sets its transaction size).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { createDeps } from "../src/runtime";
import { createMemoryLogger } from "../src/shared/log";
import { writeMod } from "../src/features/scraper/repository";
import { normalisedCatalog, runSqlText, writtenBytes } from "./crawl-write-common";
import { argOf } from "./args";

const count = Number(argOf("count", "8000"));
const batch = Number(argOf("batch", "128"));
const rounds = Number(argOf("rounds", "3"));
const vdir = argOf("variants", "");
const variants = readdirSync(vdir).filter((f) => f.endsWith(".sql")).sort().map((f) => ({ name: f.slice(0, -4), sql: readFileSync(join(vdir, f), "utf8") }));

// --cache FILE: the normalised mods read from FILE when it exists (written there otherwise).
const normalised = await normalisedCatalog(count, argOf("cache", ""));

const res: Record<string, { us: number[]; sys: number[]; kib: number[] }> = {};
for (let r = 0; r < rounds; r++) {
  for (const v of r % 2 ? [...variants].reverse() : variants) {
    const dir = mkdtempSync(join(tmpdir(), "loadout-crawl-trial-"));
    const deps = createDeps(loadConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off", LOADOUT_SQLITE_MMAP_MB: "1024" }), { log: createMemoryLogger("warn") });
    const sqlite = deps.sqlite;
    runSqlText(sqlite, v.sql);
    const now = Date.now();
    const w0 = writtenBytes();
    const c0 = process.cpuUsage();
    // A variant may set its own batch size with a line `-- batch: N`.
    const b = Number(/-- batch: (\d+)/.exec(v.sql)?.[1] ?? batch);
    for (let i = 0; i < normalised.length; i += b) {
      sqlite.transaction(() => {
        for (const m of normalised.slice(i, i + b)) writeMod(sqlite, m, [], now);
      }).immediate();
    }
    const c = process.cpuUsage(c0);
    (res[v.name] ??= { us: [], sys: [], kib: [] }).us.push(Math.round((c.user + c.system) / normalised.length));
    res[v.name]!.sys.push(Math.round(c.system / normalised.length));
    res[v.name]!.kib.push(Math.round(((writtenBytes() - w0) / 1024 / normalised.length) * 10) / 10);
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
for (const [k, v] of Object.entries(res)) {
  const s = [...v.us].sort((a, b) => a - b);
  console.log(`${k.padEnd(24)} median ${s[s.length >> 1]} µs/mod  runs ${v.us.join(" ")} (system ${v.sys.join(" ")})  KiB/mod ${v.kib.join(" ")}`);
}
process.exit(0);
