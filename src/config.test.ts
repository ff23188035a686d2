// The configuration: one line naming the variable and the rule it broke.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "./config";
import { openDatabase, withPageCache } from "./db/client";

const err = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
};

describe("configuration errors name the rule", () => {
  test("out of range is not 'must be a number'", () => {
    expect(err({ LOADOUT_WORKSHOP_RPS: "5000" })).toBe("invalid configuration: LOADOUT_WORKSHOP_RPS must be at most 1000 requests a second");
    expect(err({ LOADOUT_WORKSHOP_RPS: "0" })).toBe("invalid configuration: LOADOUT_WORKSHOP_RPS must be more than 0 requests a second");
    expect(err({ LOADOUT_WORKSHOP_RPS: "fast" })).toBe("invalid configuration: LOADOUT_WORKSHOP_RPS must be a number");
    expect(err({ LOADOUT_PORT: "70000" })).toBe("invalid configuration: LOADOUT_PORT must be a whole number from 0 to 65535");
    expect(err({ LOADOUT_RATE_LIMIT_ANON: "-1" })).toBe("invalid configuration: LOADOUT_RATE_LIMIT_ANON must be 0 (off) or more");
    expect(err({ LOADOUT_RATE_LIMIT_USER: "1.5" })).toBe("invalid configuration: LOADOUT_RATE_LIMIT_USER must be a whole number of requests a minute (0 = off)");
  });

  test("the crawl runs in a child process unless LOADOUT_CRAWL_PROCESS=inline", () => {
    expect(loadConfig({}).LOADOUT_CRAWL_PROCESS).toBe("child");
    expect(loadConfig({ LOADOUT_CRAWL_PROCESS: "inline" }).LOADOUT_CRAWL_PROCESS).toBe("inline");
    expect(err({ LOADOUT_CRAWL_PROCESS: "thread" })).toBe("invalid configuration: LOADOUT_CRAWL_PROCESS must be child or inline");
  });

  test("rate limits default to the decided values; 0 is off", () => {
    const c = loadConfig({});
    expect([c.LOADOUT_RATE_LIMIT_ANON, c.LOADOUT_RATE_LIMIT_USER]).toEqual([300, 1200]);
    expect(loadConfig({ LOADOUT_RATE_LIMIT_ANON: "0" }).LOADOUT_RATE_LIMIT_ANON).toBe(0);
  });
});

describe("memory settings", () => {
  test("SQLite's page cache and mmap window, and the answer caches' budget: defaults, errors, and what SQLite is told", () => {
    const c = loadConfig({});
    expect([c.LOADOUT_SQLITE_CACHE_MB, c.LOADOUT_SQLITE_MMAP_MB, c.LOADOUT_CACHE_MB]).toEqual([16, 0, 48]);
    expect(err({ LOADOUT_SQLITE_MMAP_MB: "-1" })).toBe("invalid configuration: LOADOUT_SQLITE_MMAP_MB must be a whole number of MiB from 0 to 65536");
    expect(err({ LOADOUT_SQLITE_CACHE_MB: "0" })).toBe("invalid configuration: LOADOUT_SQLITE_CACHE_MB must be a whole number of MiB from 1 to 65536");
    expect(err({ LOADOUT_CACHE_MB: "lots" })).toBe("invalid configuration: LOADOUT_CACHE_MB must be a whole number of MiB from 1 to 65536");
    const dir = mkdtempSync(join(tmpdir(), "loadout-config-"));
    try {
      const { sqlite } = openDatabase(join(dir, "x.db"), { cacheMb: 8, mmapMb: 16 });
      expect(sqlite.query("PRAGMA cache_size").get()).toEqual({ cache_size: -8192 });
      expect(sqlite.query("PRAGMA mmap_size").get()).toEqual({ mmap_size: 16 * 2 ** 20 });
      sqlite.close();
      const d = openDatabase(join(dir, "y.db"));
      expect(d.sqlite.query("PRAGMA mmap_size").get()).toEqual({ mmap_size: 0 });
      d.sqlite.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the WAL checkpoint threshold: SQLite's 1000 pages by default, errors, and what SQLite is told", () => {
    expect(loadConfig({}).LOADOUT_SQLITE_WAL_AUTOCHECKPOINT).toBe(1000);
    expect(loadConfig({ LOADOUT_SQLITE_WAL_AUTOCHECKPOINT: "10000" }).LOADOUT_SQLITE_WAL_AUTOCHECKPOINT).toBe(10_000);
    expect(err({ LOADOUT_SQLITE_WAL_AUTOCHECKPOINT: "0" })).toBe(
      "invalid configuration: LOADOUT_SQLITE_WAL_AUTOCHECKPOINT must be a whole number of pages from 100 to 1000000",
    );
    expect(err({ LOADOUT_SQLITE_WAL_AUTOCHECKPOINT: "many" })).toBe(
      "invalid configuration: LOADOUT_SQLITE_WAL_AUTOCHECKPOINT must be a whole number of pages from 100 to 1000000",
    );
    const dir = mkdtempSync(join(tmpdir(), "loadout-config-"));
    try {
      const { sqlite } = openDatabase(join(dir, "x.db"), { cacheMb: 8, mmapMb: 0, walAutocheckpoint: 5000 });
      expect(sqlite.query("PRAGMA wal_autocheckpoint").get()).toEqual({ wal_autocheckpoint: 5000 });
      sqlite.close();
      const d = openDatabase(join(dir, "y.db"));
      expect(d.sqlite.query("PRAGMA wal_autocheckpoint").get()).toEqual({ wal_autocheckpoint: 1000 });
      d.sqlite.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("withPageCache grows the page cache for a big write and puts the configured size back, also when the write throws", () => {
    const dir = mkdtempSync(join(tmpdir(), "loadout-config-"));
    try {
      const { sqlite } = openDatabase(join(dir, "x.db"), { cacheMb: 16, mmapMb: 0 });
      const size = () => (sqlite.query("PRAGMA cache_size").get() as { cache_size: number }).cache_size;
      expect(withPageCache(sqlite, 64, size)).toBe(-65536);
      expect(size()).toBe(-16384);
      expect(() =>
        withPageCache(sqlite, 64, () => {
          throw new Error("write failed");
        }),
      ).toThrow("write failed");
      expect(size()).toBe(-16384);
      // An operator's larger cache is never shrunk for the write.
      sqlite.exec("PRAGMA cache_size = -131072");
      expect(withPageCache(sqlite, 64, size)).toBe(-131072);
      expect(size()).toBe(-131072);
      sqlite.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("package.json and package-lock.json agree", () => {
  test("every dependency range of package.json is the one the lock file records", async () => {
    const pkg = await Bun.file(new URL("../package.json", import.meta.url)).json();
    const lock = await Bun.file(new URL("../package-lock.json", import.meta.url)).json();
    const root = lock.packages[""];
    expect(root.dependencies).toEqual(pkg.dependencies);
    expect(root.devDependencies).toEqual(pkg.devDependencies);
  });
});
