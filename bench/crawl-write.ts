// The crawl's write side alone: N mods of the benchmark catalog (generateCatalog, as bench/crawl.ts
// serves them) fetched and normalised first (the fake workshop in this process), then written into a
// fresh, migrated database the way a detail batch writes them (16 mods a transaction, a savepoint
// each, writeMod), and only the writing timed (CPU of this process). Prints µs a mod, the KiB the
// process wrote a mod (/proc/self/io wchar: pages into the WAL and checkpoints, which the machine's
// load does not move) and, with --count-rows, the rows a mod wrote.
//
//   bun bench/crawl-write.ts [--count 8000] [--batch 16] [--rounds 1] [--no-savepoints] [--sql extra.sql]
//
// --no-savepoints: no savepoint a mod (what a detail batch does unless one of its mods fails).
//
// --sql runs extra statements on the fresh database before writing (trials of schema changes).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { createDeps } from "../src/runtime";
import { createMemoryLogger } from "../src/shared/log";
import { writeMod } from "../src/features/scraper/repository";
import { normalisedCatalog, runSqlText, writtenBytes } from "./crawl-write-common";
import { argOf } from "./args";

const count = Number(argOf("count", "8000"));
const batch = Number(argOf("batch", "16"));
const rounds = Number(argOf("rounds", "1"));
const extraSql = argOf("sql", "");
const savepoints = !process.argv.includes("--no-savepoints");

const normalised = await normalisedCatalog(count);

const results: number[] = [];
let kbPerMod = 0;
for (let r = 0; r < rounds; r++) {
  const dir = mkdtempSync(join(tmpdir(), "loadout-crawl-write-"));
  const deps = createDeps(loadConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off" }), { log: createMemoryLogger("warn") });
  const sqlite = deps.sqlite;
  if (extraSql) runSqlText(sqlite, readFileSync(extraSql, "utf8"));
  const sp = sqlite.prepare("SAVEPOINT m");
  const rel = sqlite.prepare("RELEASE m");
  const now = Date.now();
  const w0 = writtenBytes();
  const c0 = process.cpuUsage();
  for (let i = 0; i < normalised.length; i += batch) {
    sqlite
      .transaction(() => {
        for (const m of normalised.slice(i, i + batch)) {
          if (savepoints) sp.run();
          writeMod(sqlite, m, [], now);
          if (savepoints) rel.run();
        }
      })
      .immediate();
  }
  const c = process.cpuUsage(c0);
  const us = (c.user + c.system) / normalised.length;
  kbPerMod = (writtenBytes() - w0) / 1024 / normalised.length;
  results.push(us);
  if (r === 0 && process.argv.includes("--count-rows")) {
    const n = (t: string) => (sqlite.query(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    for (const t of ["mods", "mod_versions", "mod_dependencies", "mod_tags", "mod_screenshots", "mod_scenarios"])
      console.log(`${t}: ${(n(t) / count).toFixed(2)} rows a mod`);
  }
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify({ count, batch, savepoints, sql: extraSql || null, us_per_mod: results.map((x) => Math.round(x)), kib_written_per_mod: Math.round(kbPerMod * 10) / 10 }));
process.exit(0);
