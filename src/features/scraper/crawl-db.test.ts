// The crawl process's database settings (docs/performance.md "The crawl's CPU"): a larger WAL checkpoint
// threshold than the service's, the WAL it leaves checkpointed when it closes, and the service trimming that file after.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../config";
import { createDeps } from "../../runtime";
import { createMemoryLogger } from "../../shared/log";
import { CRAWL_PROCESS_ENV, CRAWL_WAL_AUTOCHECKPOINT_PAGES, closeCrawlDatabase } from "./crawl-process";
import { WAL_SIZE_LIMIT } from "../../db/client";

/** The database size in pages that the main file's header records (offset 28): what checkpoints have copied in. */
function headerPages(path: string): number {
  const fd = openSync(path, "r");
  try {
    const b = Buffer.alloc(4);
    readSync(fd, b, 0, 4, 28);
    return b.readUInt32BE(0);
  } finally {
    closeSync(fd);
  }
}

describe("the crawl process's database", () => {
  test("its environment sets a larger WAL checkpoint threshold, which its connection applies; the service keeps SQLite's 1000", () => {
    expect(CRAWL_PROCESS_ENV.LOADOUT_SQLITE_WAL_AUTOCHECKPOINT).toBe(String(CRAWL_WAL_AUTOCHECKPOINT_PAGES));
    expect(CRAWL_WAL_AUTOCHECKPOINT_PAGES).toBeGreaterThan(1000);
    const dir = mkdtempSync(join(tmpdir(), "loadout-crawl-db-"));
    try {
      const log = createMemoryLogger("warn");
      const service = createDeps(loadConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off" }), { log });
      expect(service.sqlite.query("PRAGMA wal_autocheckpoint").get()).toEqual({ wal_autocheckpoint: 1000 });
      const child = createDeps(loadConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off", ...CRAWL_PROCESS_ENV }), { log, migrate: false });
      expect(child.sqlite.query("PRAGMA wal_autocheckpoint").get()).toEqual({ wal_autocheckpoint: CRAWL_WAL_AUTOCHECKPOINT_PAGES });
      closeCrawlDatabase(child.sqlite);
      service.sqlite.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("closing it checkpoints the WAL its threshold left, while another connection (the service) keeps the database open", () => {
    const dir = mkdtempSync(join(tmpdir(), "loadout-crawl-db-"));
    const path = join(dir, "x.db");
    try {
      const service = new Database(path, { create: true });
      service.exec("PRAGMA journal_mode = WAL");
      service.exec("CREATE TABLE t (x TEXT)");
      service.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      const pagesBefore = headerPages(path);
      const crawl = new Database(path);
      crawl.exec(`PRAGMA wal_autocheckpoint = ${CRAWL_WAL_AUTOCHECKPOINT_PAGES}`);
      const insert = crawl.prepare("INSERT INTO t (x) VALUES (?)");
      crawl.transaction(() => {
        for (let i = 0; i < 2000; i++) insert.run("x".repeat(1000));
      })();
      // ~500 pages, under the threshold: still only in the WAL; the file's header has the old size.
      expect(headerPages(path)).toBe(pagesBefore);
      closeCrawlDatabase(crawl);
      const pages = (service.query("PRAGMA page_count").get() as { page_count: number }).page_count;
      expect(pages).toBeGreaterThan(400);
      expect(headerPages(path)).toBe(pages);
      expect(service.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 2000 });
      service.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the WAL file a crawl grew is trimmed by the service's next write once it is checkpointed; the crawl's own connection keeps its file", () => {
    const dir = mkdtempSync(join(tmpdir(), "loadout-crawl-db-"));
    try {
      const log = createMemoryLogger("warn");
      const service = createDeps(loadConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off" }), { log });
      expect(service.sqlite.query("PRAGMA journal_size_limit").get()).toEqual({ journal_size_limit: WAL_SIZE_LIMIT });
      const child = createDeps(loadConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off", ...CRAWL_PROCESS_ENV }), { log, migrate: false });
      expect(child.sqlite.query("PRAGMA journal_size_limit").get()).toEqual({ journal_size_limit: -1 });
      const wal = join(dir, "loadout.db-wal");
      child.sqlite.exec("CREATE TABLE bulk (x BLOB)");
      const insert = child.sqlite.prepare("INSERT INTO bulk (x) VALUES (randomblob(4000))");
      // ~12,000 pages (~48 MiB): under the child's threshold, so all of it stays in the WAL.
      child.sqlite.transaction(() => {
        for (let i = 0; i < 12_000; i++) insert.run();
      })();
      expect(statSync(wal).size).toBeGreaterThan(WAL_SIZE_LIMIT);
      closeCrawlDatabase(child.sqlite);
      expect(statSync(wal).size).toBeGreaterThan(WAL_SIZE_LIMIT); // checkpointed, not trimmed
      service.sqlite.exec("CREATE TABLE after_crawl (x INTEGER)"); // starts the WAL over
      expect(statSync(wal).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT);
      expect(service.sqlite.query("SELECT count(*) AS n FROM bulk").get()).toEqual({ n: 12_000 });
      service.sqlite.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
