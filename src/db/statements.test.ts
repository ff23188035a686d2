// generation(): a generation counter read once per turn of the event loop and per write through
// the connection: this connection's writes are seen at once (triggers included), another
// connection's commits from the next turn on, and nothing is kept inside or across a rolled-back
// transaction.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generation, generationKey, inOneRead } from "./statements";

/** The next turn of the event loop (the kept values are dropped by a setImmediate). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("generation", () => {
  let dir: string;
  let db: Database;
  let other: Database;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "loadout-gen-"));
    db = new Database(join(dir, "x.db"));
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("CREATE TABLE catalog_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
    db.exec("CREATE TABLE mods (id INTEGER PRIMARY KEY, name TEXT)");
    db.exec("INSERT INTO catalog_state VALUES ('detail_gen', 1), ('fts_gen', 10)");
    db.exec("CREATE TRIGGER mods_gen AFTER INSERT ON mods BEGIN UPDATE catalog_state SET value = value + 1 WHERE key = 'detail_gen'; END");
    other = new Database(join(dir, "x.db"));
  });
  afterEach(() => {
    other.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("every key of the table, 0 for a key it does not hold", () => {
    expect(generation(db, "catalog_state", "detail_gen")).toBe(1);
    expect(generation(db, "catalog_state", "fts_gen")).toBe(10);
    expect(generation(db, "catalog_state", "nope")).toBe(0);
  });

  test("a write through the connection (here by a trigger) is seen by the next read of the same run", () => {
    expect(generation(db, "catalog_state", "detail_gen")).toBe(1);
    db.run("INSERT INTO mods (name) VALUES ('a')");
    expect(generation(db, "catalog_state", "detail_gen")).toBe(2);
  });

  test("another connection's commit is seen from the next turn on", async () => {
    expect(generation(db, "catalog_state", "detail_gen")).toBe(1);
    other.run("UPDATE catalog_state SET value = 5 WHERE key = 'detail_gen'");
    // The same turn shares one state (as one read would have been before or after the commit),
    // across runs of JavaScript (microtasks) too: the requests Bun answers in one turn.
    expect(generation(db, "catalog_state", "detail_gen")).toBe(1);
    await Promise.resolve();
    expect(generation(db, "catalog_state", "detail_gen")).toBe(1);
    await nextTurn();
    expect(generation(db, "catalog_state", "detail_gen")).toBe(5);
  });

  test("generationKey: several counters as one key, moving with any of them, inside a transaction too", async () => {
    const key = () => generationKey(db, "catalog_state", ["detail_gen", "fts_gen", "nope"]);
    expect(key()).toBe("1|10|0|");
    db.run("INSERT INTO mods (name) VALUES ('a')");
    expect(key()).toBe("2|10|0|");
    other.run("UPDATE catalog_state SET value = 11 WHERE key = 'fts_gen'");
    await nextTurn();
    expect(key()).toBe("2|11|0|");
    db.exec("BEGIN");
    db.run("INSERT INTO mods (name) VALUES ('b')");
    expect(key()).toBe("3|11|0|");
    db.exec("ROLLBACK");
    expect(key()).toBe("2|11|0|");
  });

  test("inside a transaction every read is SQLite's, and a rollback leaves nothing kept", () => {
    expect(generation(db, "catalog_state", "detail_gen")).toBe(1);
    db.exec("BEGIN");
    db.run("INSERT INTO mods (name) VALUES ('a')");
    expect(generation(db, "catalog_state", "detail_gen")).toBe(2);
    db.exec("ROLLBACK");
    expect(generation(db, "catalog_state", "detail_gen")).toBe(1);
    // A transaction with no read inside: its rolled-back writes still moved total_changes().
    db.exec("BEGIN");
    db.run("INSERT INTO mods (name) VALUES ('b')");
    db.exec("ROLLBACK");
    expect(generation(db, "catalog_state", "detail_gen")).toBe(1);
  });

  test("inOneRead: the reads share one snapshot, the transaction ends even when the read throws, and inside a transaction it runs as is", () => {
    const value = () => (db.query("SELECT value FROM catalog_state WHERE key = 'detail_gen'").get() as { value: number }).value;
    const seen = inOneRead(db, () => {
      const first = value();
      other.run("UPDATE catalog_state SET value = 7 WHERE key = 'detail_gen'");
      return [first, value(), db.inTransaction];
    });
    expect(seen).toEqual([1, 1, true]);
    expect(db.inTransaction).toBe(false);
    expect(value()).toBe(7);
    expect(() => inOneRead(db, () => { throw new Error("no such community"); })).toThrow("no such community");
    expect(db.inTransaction).toBe(false);
    db.exec("BEGIN");
    db.run("INSERT INTO mods (name) VALUES ('a')");
    expect(inOneRead(db, value)).toBe(8); // the trigger's write, in the open transaction
    expect(db.inTransaction).toBe(true);
    db.exec("ROLLBACK");
    expect(value()).toBe(7);
  });
});
