// The layering rules of docs/architecture.md ("Features and their public faces"), read from the
// source: every import statement of every file under src/ (nothing is run). Fails when
//   (a) a non-test file of one feature imports a file of another feature other than its
//       index.ts (the public face) or tables.ts (the shared schema),
//   (b) files under src/ import each other in a loop (type-only imports included: they tie the
//       files together for a reader and the compiler just the same),
//   (c) the features, as a graph (an arrow X → Y when a non-test file of X imports anything of Y),
//       are not a DAG: two features that import each other, or a longer loop.
// and when the platform (src/ outside features/ and web/, but the entry points) imports a feature
// other than db/schema.ts gathering the tables.ts, or the registry takes a feature other than
// from its index.ts.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const SRC = join(ROOT, "src");
const FEATURES = join(SRC, "features");

interface Import {
  from: string; // file, relative to the repository
  to: string; // resolved file, relative to the repository
  typeOnly: boolean;
  line: number;
}

const SOURCE = /\.(ts|tsx)$/;
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

// An import or re-export clause: default, namespace, named list, or default plus one of them.
const CLAUSE = String.raw`(?:type\s+)?(?:\*\s*(?:as\s+\w+)?|\{[^}]*\}|\w+(?:\s*,\s*(?:\{[^}]*\}|\*\s*as\s+\w+))?)`;
const STATIC = new RegExp(String.raw`^[ \t]*(import|export)\s+(${CLAUSE})\s*from\s*["']([^"']+)["']`, "gm");
const BARE = /^[ \t]*import\s+["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

function resolveSpecifier(fromFile: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null; // a package
  const base = resolve(dirname(fromFile), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Every import of one file that resolves to a source file. */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, "utf8");
  const lineAt = (index: number) => text.slice(0, index).split("\n").length;
  const found: Import[] = [];
  const add = (spec: string, typeOnly: boolean, index: number) => {
    const target = resolveSpecifier(file, spec);
    if (target && SOURCE.test(target)) found.push({ from: relative(ROOT, file), to: relative(ROOT, target), typeOnly, line: lineAt(index) });
  };
  for (const m of text.matchAll(STATIC)) {
    const clause = m[2]!.trim();
    const names = clause.startsWith("{") ? clause.slice(1, -1).split(",").map((s) => s.trim()).filter(Boolean) : [];
    const typeOnly = clause.startsWith("type ") || (names.length > 0 && names.every((n) => n.startsWith("type ")));
    add(m[3]!, typeOnly, m.index!);
  }
  for (const m of text.matchAll(BARE)) add(m[1]!, false, m.index!);
  for (const m of text.matchAll(DYNAMIC)) add(m[1]!, false, m.index!);
  return found;
}

/** The feature a file belongs to (src/features/<name>/…), or null (the registry, platform code). */
function featureOf(file: string): string | null {
  const rel = relative(FEATURES, resolve(ROOT, file));
  if (rel.startsWith("..")) return null;
  const parts = rel.split(sep);
  return parts.length > 1 ? parts[0]! : null;
}

/** Whether `file` (a file of a feature) is that feature's public face. */
const isPublicFace = (file: string) => {
  const rel = relative(FEATURES, resolve(ROOT, file)).split(sep);
  return rel.length === 2 && (rel[1] === "index.ts" || rel[1] === "tables.ts");
};

const files = walk(SRC);
const imports = files.flatMap(importsOf);

/** Every elementary loop's representative: the strongly connected components with more than one node (or a self-loop). */
function cycles(edges: [string, string][]): string[][] {
  const next = new Map<string, string[]>();
  for (const [a, b] of edges) {
    if (!next.has(a)) next.set(a, []);
    if (!next.has(b)) next.set(b, []);
    next.get(a)!.push(b);
  }
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next.get(v)!.includes(v)) out.push(component.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

describe("architecture (docs/architecture.md)", () => {
  test("the source is read: every feature folder has files, and imports are found", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(imports.length).toBeGreaterThan(500);
    // The reader sees multi-line, type-only and re-export statements.
    expect(imports.some((i) => i.typeOnly)).toBe(true);
    expect(imports.some((i) => i.from === "src/db/schema.ts")).toBe(true);
  });

  test("(a) a feature uses another feature only through its index.ts or tables.ts", () => {
    const reaches = imports
      .filter((i) => !isTest(i.from))
      .filter((i) => {
        const a = featureOf(i.from);
        const b = featureOf(i.to);
        return a !== null && b !== null && a !== b && !isPublicFace(i.to);
      })
      .map((i) => `${i.from}:${i.line} → ${i.to}`);
    expect(reaches).toEqual([]);
  });

  test("(b) no import cycle among the files of src/", () => {
    const loops = cycles(imports.map((i) => [i.from, i.to]));
    expect(loops).toEqual([]);
  });

  test("(c) the features form a DAG: no two features import each other, no longer loop", () => {
    const edges = new Map<string, Set<string>>();
    for (const i of imports) {
      if (isTest(i.from)) continue;
      const a = featureOf(i.from);
      const b = featureOf(i.to);
      if (a === null || b === null || a === b) continue;
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a)!.add(b);
    }
    const pairs = [...edges].flatMap(([a, bs]) => [...bs].filter((b) => a < b && edges.get(b)?.has(a)).map((b) => `${a} ⇄ ${b}`));
    expect(pairs).toEqual([]);
    const loops = cycles([...edges].flatMap(([a, bs]) => [...bs].map((b) => [a, b] as [string, string])));
    expect(loops).toEqual([]);
  });

  test("the platform knows no feature: only db/schema.ts gathers the tables, only the entry points start features", () => {
    const ENTRY = new Set(["src/app.ts", "src/runtime.ts", "src/server.ts", "src/main.ts"]);
    const reaches = imports
      .filter((i) => !isTest(i.from) && !ENTRY.has(i.from))
      .filter((i) => !i.from.startsWith("src/features/") && !i.from.startsWith("src/web/"))
      .filter((i) => i.to.startsWith("src/features/"))
      .filter((i) => !(i.from === "src/db/schema.ts" && isPublicFace(i.to) && i.to.endsWith("/tables.ts")))
      .map((i) => `${i.from}:${i.line} → ${i.to}`);
    expect(reaches).toEqual([]);
  });

  test("shared/ is plumbing: it imports no deps.ts and no feature, and reads no table by SQL text", () => {
    // What it needs of the service it names itself (AuthDeps, HttpDeps); tables are the features' and the platform's modules'.
    const reaches = imports.filter((i) => i.from.startsWith("src/shared/") && !isTest(i.from) && (i.to === "src/deps.ts" || i.to.startsWith("src/features/"))).map((i) => `${i.from}:${i.line} → ${i.to}`);
    expect(reaches).toEqual([]);
    const sql = /\b(FROM|JOIN|INTO|UPDATE)\s+[a-z_]+\b/;
    const shared = readdirSync(join(SRC, "shared")).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
    const withSql = shared.filter((f) => sql.test(readFileSync(join(SRC, "shared", f), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "")));
    expect(withSql).toEqual([]);
  });

  test("the service's start wires no feature by hand: serve and the app know only the registry", () => {
    // Background work belongs to its feature (FeatureModule.start); the CLI (main.ts) may call a feature's command.
    const allowed = new Set(["src/features/index.ts", "src/features/feature-module.ts"]);
    const reaches = imports
      .filter((i) => ["src/server.ts", "src/app.ts", "src/runtime.ts"].includes(i.from) && i.to.startsWith("src/features/") && !allowed.has(i.to))
      .map((i) => `${i.from}:${i.line} → ${i.to}`);
    expect(reaches).toEqual([]);
  });

  test("the registry (src/features/index.ts) takes every feature from its index.ts", () => {
    const reaches = imports
      .filter((i) => i.from === "src/features/index.ts" && featureOf(i.to) !== null && !i.to.endsWith("/index.ts"))
      .map((i) => `${i.from}:${i.line} → ${i.to}`);
    expect(reaches).toEqual([]);
    expect(imports.filter((i) => i.from === "src/features/index.ts").length).toBeGreaterThan(10);
  });

  test("the rules catch what they are meant to (a reach, a loop)", () => {
    expect(featureOf("src/features/lists/access.ts")).toBe("lists");
    expect(featureOf("src/features/index.ts")).toBeNull();
    expect(featureOf("src/shared/errors.ts")).toBeNull();
    expect(isPublicFace("src/features/lists/index.ts")).toBe(true);
    expect(isPublicFace("src/features/lists/tables.ts")).toBe(true);
    expect(isPublicFace("src/features/lists/access.ts")).toBe(false);
    expect(isPublicFace("src/features/servers/deploy/index.ts")).toBe(false);
    expect(cycles([["a", "b"], ["b", "c"], ["c", "a"], ["c", "d"]])).toEqual([["a", "b", "c"]]);
    expect(cycles([["a", "b"], ["b", "c"]])).toEqual([]);
  });
});
