// Migrations: applied in order on an empty database, idempotent, and custom SQL files are
// applied once (an edited file would silently not reach existing databases).
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase, migrate } from "../src/db/client";

const root = join(import.meta.dir, "..");

describe("migrations", () => {
  test("every src/db/custom file stands verbatim in a migration", () => {
    const migrations = readdirSync(join(root, "drizzle"))
      .filter((f) => f.endsWith(".sql"))
      .map((f) => readFileSync(join(root, "drizzle", f), "utf8"))
      .join("\n");
    const custom = readdirSync(join(root, "src/db/custom")).filter((f) => f.endsWith(".sql"));
    expect(custom.length).toBeGreaterThan(0);
    for (const f of custom) {
      const text = readFileSync(join(root, "src/db/custom", f), "utf8").replace(/\s+$/, "");
      const marker = `-- from src/db/custom/${f}\n`;
      const at = migrations.indexOf(marker);
      expect({ file: f, migrated: at >= 0 }).toEqual({ file: f, migrated: true });
      expect({ file: f, unchanged: migrations.slice(at + marker.length).startsWith(text) }).toEqual({ file: f, unchanged: true });
    }
  });

  test("apply to an empty database, then again without changes", () => {
    const { db, sqlite } = openDatabase(":memory:");
    const n = migrate(db);
    expect(n).toBeGreaterThanOrEqual(2);
    const applied = (sqlite.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number }).n;
    expect(applied).toBe(n);
    migrate(db);
    expect((sqlite.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number }).n).toBe(n);
    expect(sqlite.query("SELECT name FROM sqlite_master WHERE name = 'mods_fts'").get()).not.toBeNull();
    sqlite.close();
  });
});
