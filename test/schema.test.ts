// The schema is what the code says (docs/architecture.md "The schema"): a database built from the
// current definitions alone (drizzle-kit's DDL of every tables.ts, then src/db/schema-objects.sql)
// has the same sqlite_schema as one migrated through every migration: the same objects (type,
// name, table) with the same definitions. Views, triggers and indexes compare by their SQL text
// (comments, blanks, identifier quotes and the case of what is not a string literal aside); tables
// by their column definitions in order (a column drizzle-kit adds is appended: declare it last in
// its tables.ts) and their constraints, so a column added by ALTER TABLE compares with the same
// column written in CREATE TABLE. Every trigger, view and index is named once in
// schema-objects.sql. On a difference the test prints both definitions.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateSQLiteDrizzleJson, generateSQLiteMigration } from "drizzle-kit/api";
import * as schema from "../src/db/schema";
import { migrate, openDatabase } from "../src/db/client";
import { normalSql } from "./sql-text";

const OBJECTS = join(import.meta.dir, "../src/db/schema-objects.sql");

/** schema-objects.sql's statements (separated by breakpoint lines, as in a migration). */
const definitions = () =>
  readFileSync(OBJECTS, "utf8")
    .split("--> statement-breakpoint")
    .map((s) => s.trim())
    .filter((s) => s !== "");

/** A database made from the definitions alone. */
async function fromDefinitions(): Promise<Database> {
  const db = new Database(":memory:");
  for (const sql of await generateSQLiteMigration(await generateSQLiteDrizzleJson({}), await generateSQLiteDrizzleJson(schema as Record<string, unknown>))) db.exec(sql);
  for (const sql of definitions()) db.exec(sql);
  return db;
}

/** The top-level items of a CREATE TABLE's parenthesis (columns and constraints), normalised. */
function tableItems(sql: string): { columns: string[]; constraints: string[]; options: string } {
  const text = normalSql(sql);
  const open = text.indexOf("(");
  let depth = 0;
  let close = -1;
  const items: string[] = [];
  let from = open + 1;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      for (i++; i < text.length && !(text[i] === "'" && text[i + 1] !== "'"); i++) if (text[i] === "'") i++;
    } else if (c === "(") depth++;
    else if (c === ")") {
      depth--;
      if (depth === 0) {
        items.push(text.slice(from, i));
        close = i;
        break;
      }
    } else if (c === "," && depth === 1) {
      items.push(text.slice(from, i));
      from = i + 1;
    }
  }
  const isConstraint = (s: string) => /^(constraint|primary key|unique|check|foreign key)\b/.test(s);
  return {
    columns: items.filter((s) => !isConstraint(s)),
    constraints: items.filter(isConstraint).sort(),
    options: text.slice(close + 1).trim(),
  };
}

interface Entry {
  type: string;
  name: string;
  tbl_name: string;
  definition: string;
}

/** Every object of the schema with its definition as compared (SQLite's own and drizzle's bookkeeping aside). */
function objects(db: Database): Map<string, Entry> {
  const rows = db.query("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name != '__drizzle_migrations'").all() as {
    type: string;
    name: string;
    tbl_name: string;
    sql: string;
  }[];
  const out = new Map<string, Entry>();
  for (const r of rows) {
    const definition = r.type === "table" && !/^create virtual table/.test(normalSql(r.sql)) ? JSON.stringify(tableItems(r.sql), null, 1) : normalSql(r.sql);
    out.set(`${r.type} ${r.name}`, { type: r.type, name: r.name, tbl_name: r.tbl_name, definition });
  }
  return out;
}

describe("the schema is what the code says", () => {
  test("a database made from tables.ts and schema-objects.sql is the database the migrations make", async () => {
    const built = await fromDefinitions();
    const { db, sqlite: migrated } = openDatabase(":memory:");
    migrate(db);
    const want = objects(migrated);
    const got = objects(built);
    const differences: string[] = [];
    for (const [key, m] of want) {
      const d = got.get(key);
      if (!d) differences.push(`${key} (on ${m.tbl_name}): made by the migrations, defined nowhere:\n  ${m.definition}`);
      else if (d.tbl_name !== m.tbl_name || d.definition !== m.definition)
        differences.push(`${key}: the migrations make\n  ${m.tbl_name}: ${m.definition}\nthe definitions say\n  ${d.tbl_name}: ${d.definition}`);
    }
    for (const [key, d] of got) if (!want.has(key)) differences.push(`${key} (on ${d.tbl_name}): defined, made by no migration:\n  ${d.definition}`);
    built.close();
    migrated.close();
    // A view, trigger or index changed in schema-objects.sql needs a custom migration that drops
    // it and creates it as defined; a table's column drizzle-kit appends belongs last in its tables.ts.
    expect(differences).toEqual([]);
    expect(want.size).toBeGreaterThan(200);
  });

  test("every trigger, view and index is defined once in schema-objects.sql, under a name of its own", () => {
    const names = definitions().flatMap((s) => {
      const m = normalSql(s).match(/create (?:virtual table|table|unique index|index|view|trigger) (\w+)/);
      return m ? [m[1]!] : [];
    });
    expect(names.length).toBeGreaterThan(100);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  test("the comparison sees what it is meant to: blanks and quotes aside, a changed default, column or trigger body counts", () => {
    expect(normalSql("CREATE TABLE `a` (\n\t`x` integer DEFAULT 'A b' NOT NULL -- note\n)")).toBe(normalSql('CREATE TABLE a ("x" INTEGER DEFAULT \'A b\' NOT NULL)'));
    expect(normalSql("CREATE TABLE a (x integer DEFAULT 'A')")).not.toBe(normalSql("CREATE TABLE a (x integer DEFAULT 'a')"));
    const added = tableItems("CREATE TABLE `t` (\n\t`a` integer NOT NULL,\n\tFOREIGN KEY (`a`) REFERENCES `u`(`id`)\n, `b` text)");
    const written = tableItems("CREATE TABLE t (a integer NOT NULL, b text, FOREIGN KEY (a) REFERENCES u(id))");
    expect(added).toEqual(written);
    expect(tableItems("CREATE TABLE t (b text, a integer NOT NULL)")).not.toEqual(written);
    expect(normalSql("CREATE TRIGGER g AFTER INSERT ON t BEGIN UPDATE s SET v = v + 1; END")).not.toBe(normalSql("CREATE TRIGGER g AFTER INSERT ON t BEGIN UPDATE s SET v = v + 2; END"));
  });
});
