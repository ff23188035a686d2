// SQL only in repositories (docs/architecture.md "Features and their public faces"): in every
// feature (every folder of src/features), no statement is written outside a repository.ts or
// repository/*.ts of the feature (the feature's own, or a part's, e.g. servers/deploy/
// repository.ts): a read model, a job, a service, a route call a repository function instead, so
// a reader finds every statement of a feature in one place. A statement is SQL text, or one made
// with drizzle's query builder: a call of select/insert/update/delete/run/all/get/… on a drizzle
// handle (`db`, `tx`, `deps.db`), a builder chain on any handle (`.select(…).from(`,
// `.insert(t).values(`, `.update(t).set(`, `.delete(t).where(`), or a `sql` template or
// `sql.raw`/`sql.join` fragment (but in a tables.ts: the schema's declarations, such as a partial
// index's WHERE, are not statements). Comments are not read.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const FEATURES_DIR = join(ROOT, "src/features");
/** The features held to it: all of them. */
const FEATURES = readdirSync(FEATURES_DIR).filter((name) => statSync(join(FEATURES_DIR, name)).isDirectory());

/** A statement's opening words (SELECT reaching a FROM, INSERT INTO, UPDATE … SET, DELETE FROM, DDL, SAVEPOINT, PRAGMA). */
const SQL = /\b(SELECT\b[\s\S]{0,200}?\bFROM\b|INSERT\s+(?:OR\s+\w+\s+)?INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|CREATE\s+(?:TEMP\s+|VIRTUAL\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)\b|DROP\s+(?:TABLE|INDEX|TRIGGER|VIEW)\b|SAVEPOINT\b|PRAGMA\s+\w+)/;

/** Drizzle's query builder: a statement's call on a handle, or a builder chain whatever the handle is named. */
const BUILDER =
  /\b(?:db|tx|deps\.db)\s*\.\s*(?:select|selectDistinct|insert|update|delete|run|all|get|values|query|\$count)\b|\.\s*(?:select|selectDistinct)\s*\([^()]*\)\s*\.\s*from\s*\(|\.\s*insert\s*\(\s*[\w.]+\s*\)\s*\.\s*values\s*\(|\.\s*update\s*\(\s*[\w.]+\s*\)\s*\.\s*set\s*\(|\.\s*delete\s*\(\s*[\w.]+\s*\)\s*\.\s*where\s*\(/;
/** Drizzle's SQL fragments: a `sql` template (typed or not) or sql.raw / sql.join. */
const SQL_TAG = /\bsql\s*(?:<[^`\n]*?>)?\s*`|\bsql\s*\.\s*(?:raw|join|identifier)\s*\(/;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith(".ts") && !p.endsWith(".test.ts")) out.push(p);
  }
  return out;
}

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

/** The first statement of a non-repository file, SQL text or drizzle's builder (a tables.ts may hold `sql` fragments). */
function statementIn(rel: string, text: string): string | null {
  const code = withoutComments(text);
  const m = code.match(SQL) ?? code.match(BUILDER) ?? (rel.endsWith("/tables.ts") ? null : code.match(SQL_TAG));
  return m ? m[0].replace(/\s+/g, " ").slice(0, 80) : null;
}

describe("SQL only in repositories", () => {
  test("the features' files outside their repositories hold no SQL statement and no drizzle query-builder call", () => {
    const found: string[] = [];
    let files = 0;
    for (const f of FEATURES.flatMap((name) => walk(join(FEATURES_DIR, name)))) {
      const rel = relative(ROOT, f);
      if (/\/repository(\/|\.ts$)/.test(rel)) continue;
      files++;
      const m = statementIn(rel, readFileSync(f, "utf8"));
      if (m) found.push(`${rel}: ${m}`);
    }
    // Every feature is read (a walk that found nothing would pass).
    expect(FEATURES.length).toBeGreaterThanOrEqual(17);
    expect(FEATURES).toContain("servers");
    expect(files).toBeGreaterThan(150);
    expect(found).toEqual([]);
  });

  test("the check sees a statement and passes over a comment", () => {
    expect(withoutComments("// SELECT a FROM b\nconst x = 1;").match(SQL)).toBeNull();
    expect(withoutComments("const q = `SELECT a\n  FROM b`;").match(SQL)).not.toBeNull();
    expect(withoutComments('sqlite.exec("PRAGMA wal_checkpoint(PASSIVE)")').match(SQL)).not.toBeNull();
  });

  test("the check sees drizzle's query builder and passes over a comment, a repository call and a Map", () => {
    const f = "src/features/x/service.ts";
    // A call on a drizzle handle, on one line or across lines.
    expect(statementIn(f, "return !!deps.db.select({ id: users.id }).from(users).limit(1).get();")).not.toBeNull();
    expect(statementIn(f, "const rows = deps.db\n  .select()\n  .from(apiKeys)\n  .all();")).not.toBeNull();
    expect(statementIn(f, "tx.update(authTokens).set({ used_at: now }).run();")).not.toBeNull();
    expect(statementIn(f, "db.delete(apiKeys).where(eq(apiKeys.id, id)).run();")).not.toBeNull();
    // A builder chain on a handle of another name.
    expect(statementIn(f, "t.insert(users).values(row).run();")).not.toBeNull();
    expect(statementIn(f, "h.select({ n: users.id })\n  .from(users).get();")).not.toBeNull();
    // A `sql` fragment, typed or not, outside a tables.ts.
    expect(statementIn(f, "const n = count(sql<number>`count(*)`);")).not.toBeNull();
    expect(statementIn(f, "where(sql`${users.name} LIKE ${p}`)")).not.toBeNull();
    expect(statementIn(f, "const x = sql.raw(text);")).not.toBeNull();
    // Not statements: a comment, a transaction around repository calls, a Map or Set, a tables.ts's index.
    expect(statementIn(f, "// deps.db.select().from(users)\n/* tx.insert(users).values(r) */ const a = 1;")).toBeNull();
    expect(statementIn(f, 'deps.db.transaction((tx) => repo.insertUser(tx, row), { behavior: "immediate" });')).toBeNull();
    expect(statementIn(f, "byId.delete(a.id); seen.get(k); cache.set(k, v); Array.from(rows); [...m.values()];")).toBeNull();
    expect(statementIn("src/features/x/tables.ts", 'index("unread_idx").on(t.user_id).where(sql`"read" = 0`),')).toBeNull();
    expect(statementIn("src/features/x/service.ts", 'index("unread_idx").on(t.user_id).where(sql`"read" = 0`),')).not.toBeNull();
  });
});
