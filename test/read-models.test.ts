// The recipe for derived reads (docs/architecture.md "Derived reads"), checked on every read model
// the features define: it has a unique name and a bound, it follows counters that exist, and every
// table it says it is derived from has triggers that move one of those counters on an insert, an
// update and a delete, whoever writes; /metrics reports each one's bytes, entries and bound.
import { describe, expect, test } from "bun:test";
import { migrate, openDatabase } from "../src/db/client";
import { readModelDefinitions, readModelsOf } from "../src/db/connection";
import { createTestApp } from "./helpers";
import { normalSql } from "./sql-text";
// The features' modules that define read models (the registry of features imports them all).
import "../src/features/index";

/** The counters each trigger moves, by the table it is on and the statement it fires for. */
function countersMoved(sqlite: ReturnType<typeof openDatabase>["sqlite"]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const rows = sqlite.query("SELECT tbl_name, sql FROM sqlite_schema WHERE type = 'trigger'").all() as { tbl_name: string; sql: string }[];
  for (const r of rows) {
    const sql = normalSql(r.sql);
    const op = sql.match(/\b(?:after|before) (insert|update|delete)\b/)?.[1];
    if (!op) continue;
    for (const m of sql.matchAll(/update (catalog_state|live_state|auth_state) set value=value\+1 where key='(\w+)'/g)) {
      const k = `${r.tbl_name} ${op}`;
      if (!out.has(k)) out.set(k, new Set());
      out.get(k)!.add(`${m[1]}.${m[2]}`);
    }
  }
  return out;
}

describe("read models (docs/architecture.md \"Derived reads\")", () => {
  const models = readModelDefinitions();

  test("each has a unique name, counters that exist and a bound", () => {
    expect(models.length).toBeGreaterThanOrEqual(15);
    const names = models.map((m) => m.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    const { db, sqlite } = openDatabase(":memory:");
    migrate(db);
    for (const m of models) {
      expect({ model: m.name, generations: m.generations.length > 0, tables: m.tables.length > 0 }).toEqual({ model: m.name, generations: true, tables: true });
      const bound = "bytes" in m.bound ? m.bound.bytes : m.bound.entries;
      expect({ model: m.name, bounded: bound > 0 }).toEqual({ model: m.name, bounded: true });
      for (const g of m.generations) {
        const [table, key] = g.split(".");
        const row = sqlite.query(`SELECT value FROM ${table} WHERE key = ?`).get(key!);
        expect({ model: m.name, counter: g, exists: row !== null }).toEqual({ model: m.name, counter: g, exists: true });
      }
    }
    sqlite.close();
  });

  test("every table a model is derived from moves one of its counters on insert, update and delete, by triggers", () => {
    const { db, sqlite } = openDatabase(":memory:");
    migrate(db);
    const moved = countersMoved(sqlite);
    const missing: string[] = [];
    for (const m of models) {
      for (const table of m.tables) {
        for (const op of m.keepsNoMiss ? ["update", "delete"] : ["insert", "update", "delete"]) {
          const counters = moved.get(`${table} ${op}`) ?? new Set();
          if (!m.generations.some((g) => counters.has(g))) missing.push(`${m.name}: ${op} on ${table} moves none of ${m.generations.join(", ")}`);
        }
      }
    }
    sqlite.close();
    expect(missing).toEqual([]);
  });

  test("/metrics reports every model's bytes, entries and bound", async () => {
    const t = await createTestApp();
    try {
      const text = (await t.req("GET", "/metrics")).text as string;
      for (const m of models) {
        expect(text).toContain(`loadout_read_model_bytes{model="${m.name}"}`);
        expect(text).toContain(`loadout_read_model_entries{model="${m.name}"}`);
        expect(text).toContain(`loadout_read_model_bound_${"bytes" in m.bound ? "bytes" : "entries"}{model="${m.name}"}`);
      }
      expect(readModelsOf(t.deps.sqlite).sizes().length).toBe(models.length);
    } finally {
      await t.close();
    }
  });
});
