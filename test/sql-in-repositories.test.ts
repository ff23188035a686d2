// SQL only in repositories (docs/architecture.md "Features and their public faces"): in every
// feature (every folder of src/features), no statement is written outside a repository.ts or
// repository/*.ts of the feature (the feature's own, or a part's, e.g. servers/deploy/
// repository.ts): a read model, a job, a service, a route call a repository function instead, so
// a reader finds every statement of a feature in one place. Comments are not read.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const FEATURES_DIR = join(ROOT, "src/features");
/** The features held to it: all of them. */
const FEATURES = readdirSync(FEATURES_DIR).filter((name) => statSync(join(FEATURES_DIR, name)).isDirectory());

/** A statement's opening words (SELECT reaching a FROM, INSERT INTO, UPDATE … SET, DELETE FROM, DDL, SAVEPOINT, PRAGMA). */
const SQL = /\b(SELECT\b[\s\S]{0,200}?\bFROM\b|INSERT\s+(?:OR\s+\w+\s+)?INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|CREATE\s+(?:TEMP\s+|VIRTUAL\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)\b|DROP\s+(?:TABLE|INDEX|TRIGGER|VIEW)\b|SAVEPOINT\b|PRAGMA\s+\w+)/;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith(".ts") && !p.endsWith(".test.ts")) out.push(p);
  }
  return out;
}

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

describe("SQL only in repositories", () => {
  test("the features' files outside their repositories hold no SQL statement", () => {
    const found: string[] = [];
    let files = 0;
    for (const f of FEATURES.flatMap((name) => walk(join(FEATURES_DIR, name)))) {
      const rel = relative(ROOT, f);
      if (/\/repository(\/|\.ts$)/.test(rel)) continue;
      files++;
      const m = withoutComments(readFileSync(f, "utf8")).match(SQL);
      if (m) found.push(`${rel}: ${m[0].replace(/\s+/g, " ").slice(0, 80)}`);
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
});
