// The dependency graph in memory (graph.ts) answers GET /mods/:id/deps, the detail's direct
// dependencies and the dependency counts exactly as the SQL path does, on a random graph with
// cycles, self-edges, placeholders, edges to and from mods the catalog does not hold and ties of
// size between edges to the same mod; and a graph is never used once a write has moved the
// generation past it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../../test/helpers";
import { mulberry32 } from "../../../test/fixtures/prng";
import { insertCatalogRows } from "../../../test/fixtures/catalog-rows";
import { depGraph, peekDepGraph, REBUILD_MS } from "./graph";
import { binaryCompare } from "../../shared/binary-order";
import * as svc from "./service";

let t: TestApp;
const N = 250;
let ids: string[] = [];
/** Mods the catalog does not hold: edges end at them, and some have edges of their own. */
const OUTSIDE = ["7FFF000000000001", "7FFF000000000002", "7FFF000000000003", "7fff000000000004"];

function insertGraph(seed: number) {
  const rnd = mulberry32(seed);
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
  insertCatalogRows(t.deps.sqlite, N, 0x5b00000000000000n, () => ({
    name: `Mod ${Math.floor(rnd() * 50)}`,
    summary: "s",
    author_name: "a",
    size_bytes: Math.floor(rnd() * 4) * 1_000,
    state: rnd() < 0.08 ? "unknown" : "active",
    tags: [],
    updated_at: null,
  }));
  ids = (t.deps.sqlite.query("SELECT workshop_id FROM mods ORDER BY rowid").values() as [string][]).map((r) => r[0]);
  // Edges inserted in random order (rowid order differs from depends_on_id order), few distinct
  // names, versions and sizes (ties), a few self-edges.
  const edges = new Map<string, [string, string, string, string | null, number]>();
  const targets = [...ids, ...OUTSIDE];
  for (let k = 0; k < 420; k++) {
    const from = rnd() < 0.03 ? pick(OUTSIDE) : pick(ids);
    const to = rnd() < 0.01 ? from : rnd() < 0.15 ? pick(OUTSIDE) : rnd() < 0.3 ? pick(targets.slice(0, 40)) : pick(targets);
    edges.set(`${from}|${to}`, [from, to, pick(["Dep A", "Dep B", ""]), pick(["1.0.0", "2.0.0", null]), pick([0, 500, 500, 9_000])]);
  }
  const ins = t.deps.sqlite.prepare("INSERT INTO mod_dependencies (workshop_id, depends_on_id, depends_on_name, version, size_bytes) VALUES (?, ?, ?, ?, ?)");
  t.deps.sqlite.transaction(() => {
    for (const e of edges.values()) ins.run(...e);
  })();
}

beforeAll(async () => {
  t = await createTestApp();
  insertGraph(29);
});
afterAll(() => t.close());

/** An answer as text, or the error it throws. */
const answer = (f: () => unknown) => {
  try {
    return JSON.stringify(f());
  } catch (e) {
    return `error ${(e as Error).message}`;
  }
};

/** Every per-mod answer the graph feeds, from memory and from SQL, for these ids. */
function compare(sqlite = t.deps.sqlite, which: readonly string[]) {
  for (const id of which) {
    for (const f of [
      (plan: svc.Plan) => svc.getDependencyGraph(t.deps, id, plan),
      (plan: svc.Plan) => svc.getModDetail(t.deps, id, plan),
      (plan: svc.Plan) => svc.getDependencyCounts(sqlite, id, plan),
    ]) {
      expect({ id, got: answer(() => f("auto")) }).toEqual({ id, got: answer(() => f("sql")) });
    }
  }
}

describe("dependency graph in memory", () => {
  test("the same closure, detail dependencies and counts as SQLite for every mod", () => {
    const g = depGraph(t.deps.sqlite)!;
    expect(g).not.toBeNull();
    expect(g.entries).toBe((t.deps.sqlite.query("SELECT count(*) AS n FROM mods WHERE state != 'unknown'").get() as { n: number }).n);
    expect(g.edges).toBe((t.deps.sqlite.query("SELECT count(*) AS n FROM mod_dependencies").get() as { n: number }).n);
    compare(t.deps.sqlite, [...ids, ...OUTSIDE, "5BFFFFFFFFFFFFFF"]);
    // The answers did come from the graph (of the current generation), and some walks were deep.
    expect(depGraph(t.deps.sqlite)).toBe(g);
    const sizes = ids.map((id) => Number(answer(() => svc.getDependencyGraph(t.deps, id).dependencies.length)));
    expect(Math.max(...sizes.filter((n) => !Number.isNaN(n)))).toBeGreaterThan(20);
  });

  test("the routes answer from it, 404 for a placeholder", async () => {
    const placeholder = (t.deps.sqlite.query("SELECT workshop_id FROM mods WHERE state = 'unknown' LIMIT 1").get() as { workshop_id: string }).workshop_id;
    for (const path of ["", "/deps", "/stats"]) expect((await t.req("GET", `/api/v1/mods/${placeholder}${path}`)).status).toBe(404);
    const id = ids.find((i) => svc.getDependencyCounts(t.deps.sqlite, i).deps > 2)!;
    expect((await t.req("GET", `/api/v1/mods/${id}/deps`)).body).toEqual(JSON.parse(answer(() => svc.getDependencyGraph(t.deps, id, "sql"))));
    expect((await t.req("GET", `/api/v1/mods/${id}/stats`)).body.dependencies_count).toBe(svc.getDependencyCounts(t.deps.sqlite, id, "sql").deps);
  });

  test("a write moves the generation: a stale graph is never used, and is rebuilt after REBUILD_MS", async () => {
    const sqlite = t.deps.sqlite;
    const now = performance.now();
    // A build at a known time (a write first, so the generation differs from the last build's).
    sqlite.query("UPDATE mods SET size_bytes = size_bytes + 1 WHERE rowid = (SELECT min(rowid) FROM mods)").run();
    const before = depGraph(sqlite, now + 10 * REBUILD_MS)!;
    expect(before).not.toBeNull();
    const [a, b, c] = ids.filter((id) => svc.getDependencyCounts(sqlite, id).deps === 0 && answer(() => svc.requireModExists(t.deps, id)) === undefined).slice(0, 3) as [string, string, string];
    expect((await t.req("GET", `/api/v1/mods/${a}/deps`)).body.dependencies).toEqual([]);
    // A raw write (any writer moves the generation through triggers): within REBUILD_MS of the
    // last build no graph is built, the SQL path answers, and sees it.
    sqlite.query("INSERT INTO mod_dependencies (workshop_id, depends_on_id, depends_on_name, version, size_bytes) VALUES (?, ?, 'New', '3.0.0', 7)").run(a, b);
    expect(depGraph(sqlite, now + 10 * REBUILD_MS + 1)).toBeNull();
    expect((await t.req("GET", `/api/v1/mods/${a}/deps`)).body.dependencies.map((d: { workshop_id: string }) => d.workshop_id)[0]).toBe(b);
    expect((await t.req("GET", `/api/v1/mods/${b}/stats`)).body.dependents_count).toBe(svc.getDependencyCounts(sqlite, b, "sql").dependents);
    expect(peekDepGraph(sqlite)).toBe(before);
    // Later, a read builds the graph of the new generation, and it holds the edge.
    const later = depGraph(sqlite, now + 11 * REBUILD_MS + 1)!;
    expect(later.gen).toBeGreaterThan(before.gen);
    expect(later.edges).toBe(before.edges + 1);
    compare(sqlite, [a, b]);
    // A dependency renamed and a mod turned placeholder, read from a graph built after them.
    sqlite.query("INSERT INTO mod_dependencies (workshop_id, depends_on_id, depends_on_name, version, size_bytes) VALUES (?, ?, 'New', '3.0.0', 7)").run(c, b);
    sqlite.query("UPDATE mods SET name = 'Renamed', version = '9.9.9' WHERE workshop_id = ?").run(b);
    sqlite.query("UPDATE mods SET state = 'unknown' WHERE workshop_id = ?").run(a);
    const last = depGraph(sqlite, now + 12 * REBUILD_MS + 2)!;
    expect(last.entries).toBe(later.entries - 1);
    expect(depGraph(sqlite)).toBe(last);
    expect(() => svc.requireModExists(t.deps, a)).toThrow();
    expect(svc.getModDetail(t.deps, c).dependencies).toEqual([{ workshop_id: b, name: "Renamed", version: "3.0.0", size_bytes: svc.getModDetail(t.deps, b).size_bytes, in_catalog: true }]);
    compare(sqlite, [a, b, c, ...ids.slice(0, 60)]);
    sqlite.query("UPDATE mods SET state = 'active' WHERE workshop_id = ?").run(a);
  });

  test("texts with wide characters come back from the packed graph as they are", () => {
    const sqlite = t.deps.sqlite;
    const [a, b] = ids.filter((id) => svc.getDependencyCounts(sqlite, id, "sql").deps > 0) as [string, string];
    sqlite.query("UPDATE mods SET name = 'Мод 中 \u{1F600} é', version = 'v\u{1F600}1' WHERE workshop_id = ?").run(a);
    sqlite.query("UPDATE mod_dependencies SET depends_on_name = 'Зависимость \u{1F600}', version = NULL WHERE workshop_id = ?").run(b);
    const g = depGraph(sqlite, performance.now() + 20 * REBUILD_MS)!;
    expect(depGraph(sqlite)).toBe(g);
    expect(svc.getModDetail(t.deps, a).name).toBe("Мод 中 \u{1F600} é");
    expect(svc.getModDetail(t.deps, b).dependencies.length).toBeGreaterThan(0);
    compare(sqlite, [a, b, ...ids]);
  });
});

describe("binaryCompare", () => {
  test("orders texts as SQLite's BINARY collation does", () => {
    const texts = ["a", "B", "ab", "", "é", "\u{E000}", "\u{FFFD}", "\u{1F600}", "\u{10000}", "z\u{1F600}", "z\u{FFFD}", "Z"];
    const sqlite = t.deps.sqlite;
    const want = (sqlite.query(`SELECT value FROM json_each(?) ORDER BY value COLLATE BINARY`).values(JSON.stringify(texts)) as [string][]).map((r) => r[0]);
    expect([...texts].sort(binaryCompare)).toEqual(want);
  });
});
