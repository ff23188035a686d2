// GET /mods from the in-memory sort orders answers exactly as the SQL path does (every sort, with
// and without a search and a tag, any page), on a catalog with every kind of tie; and the orders
// are never used once a write has moved the catalog past them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../../test/helpers";
import { mulberry32 } from "../../../test/fixtures/prng";
import { insertCatalogRows } from "../../../test/fixtures/catalog-rows";
import { type ModSort } from "./repository";
import { listMods } from "./list";
import { listModsSql } from "../../../test/truth/catalog-sql";
import { catalogOrders, peekCatalogOrders, REBUILD_MS } from "./orders";

let t: TestApp;
const WORDS = ["Alpha", "bravo", "CONFLICT", "Everon", "arland", "Training", "milsim", "école", "Öst", "RHS", "rhs", "Zeta"];
const TAGS = ["WEAPONS", "VEHICLES", "MAP", "GEAR", "MISC"];
const SORTS: ModSort[] = ["name_asc", "name_desc", "size_desc", "updated_desc", "relevance"];
const N = 700;

function insertCatalog(seed: number) {
  const rnd = mulberry32(seed);
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
  insertCatalogRows(t.deps.sqlite, N, 0x5a00000000000000n, () => {
    // Names equal but for case, sizes and update times repeated, some never updated (NULL),
    // and placeholders (state 'unknown') that no answer may show.
    const name = `${pick(WORDS)} ${rnd() < 0.4 ? pick(WORDS).toLowerCase() : pick(WORDS)}${rnd() < 0.5 ? "" : " " + Math.floor(rnd() * 4)}`;
    const tags = [...new Set(Array.from({ length: Math.floor(rnd() * 3) }, () => pick(TAGS)))];
    return {
      name,
      summary: `${pick(WORDS)} summary`,
      author_name: pick(["Bohemia", "rhs team", "Solo"]),
      size_bytes: Math.floor(rnd() * 5) * 1_000_000,
      state: rnd() < 0.08 ? "unknown" : "active",
      tags,
      updated_at: rnd() < 0.1 ? null : 1_700_000_000_000 + Math.floor(rnd() * 20) * 86_400_000,
    };
  });
}

beforeAll(async () => {
  t = await createTestApp();
  insertCatalog(15);
});
afterAll(() => t.close());

describe("catalog orders in memory", () => {
  test("the same pages and totals as SQLite for 1,200 random queries", () => {
    const rnd = mulberry32(7);
    const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
    let fromMemory = 0;
    for (let k = 0; k < 1200; k++) {
      const search = rnd() < 0.5 ? undefined : rnd() < 0.5 ? pick(WORDS) : `${pick(WORDS).slice(0, 2 + Math.floor(rnd() * 3))} ${pick(WORDS)}`;
      const p = {
        search,
        tag: rnd() < 0.4 ? pick(TAGS) : undefined,
        sort: pick(SORTS),
        page: 1 + Math.floor(rnd() * (rnd() < 0.2 ? 40 : 4)),
        limit: pick([1, 5, 20, 100]),
      };
      const got = listMods(t.deps.sqlite, p);
      const want = listModsSql(t.deps.sqlite, p);
      expect({ p, got }).toEqual({ p, got: want });
      if (p.sort !== "relevance" || !p.search) fromMemory++;
    }
    // The orders were used (built once, of the current generation), and the queries did reach them.
    const o = peekCatalogOrders(t.deps.sqlite)!;
    expect(o.count).toBe((t.deps.sqlite.query("SELECT count(*) AS n FROM mods WHERE state != 'unknown'").get() as { n: number }).n);
    expect(catalogOrders(t.deps.sqlite)).toBe(o);
    expect(fromMemory).toBeGreaterThan(500);
  });

  test("a write moves the generation: stale orders are never used, and are rebuilt after REBUILD_MS", () => {
    const sqlite = t.deps.sqlite;
    const now = performance.now();
    // A build at a known time (a write first, so the generation differs from the last build's).
    sqlite.query("UPDATE mods SET size_bytes = size_bytes + 1 WHERE rowid = (SELECT min(rowid) FROM mods)").run();
    const before = catalogOrders(sqlite, now + 10 * REBUILD_MS)!;
    expect(before).not.toBeNull();
    const first = { sort: "name_asc" as const, page: 1, limit: 5 };
    // A raw write that puts a mod first by name (any writer moves the generation through triggers).
    const id = sqlite.query("SELECT workshop_id FROM mods WHERE state = 'active' ORDER BY rowid DESC LIMIT 1").get() as { workshop_id: string };
    sqlite.query("UPDATE mods SET name = '!!! first' WHERE workshop_id = ?").run(id.workshop_id);
    // Within REBUILD_MS of the last build no new orders are built: the SQL path answers.
    expect(catalogOrders(sqlite, now + 10 * REBUILD_MS + 1)).toBeNull();
    const r = listMods(sqlite, first);
    expect(r.rows[0]!.workshop_id).toBe(id.workshop_id);
    expect(r).toEqual(listModsSql(sqlite, first));
    expect(peekCatalogOrders(sqlite)).toBe(before);
    // Later, a read builds new orders of the new generation.
    const later = catalogOrders(sqlite, now + 11 * REBUILD_MS + 1)!;
    expect(later).not.toBe(before);
    expect(later.gen).toBeGreaterThan(before.gen);
    expect(listMods(sqlite, { ...first, limit: 6 })).toEqual(listModsSql(sqlite, { ...first, limit: 6 }));
    // A placeholder turned catalog entry and a new mod count at once.
    sqlite.query("UPDATE mods SET state = 'active' WHERE workshop_id = (SELECT workshop_id FROM mods WHERE state = 'unknown' LIMIT 1)").run();
    sqlite.query(`INSERT INTO mods (workshop_id, name, version, state) VALUES ('5AFFFFFFFFFFFFFF', 'aaa new', '1', 'active')`).run();
    const built = catalogOrders(sqlite, now + 12 * REBUILD_MS + 2)!;
    expect(built.count).toBe(later.count + 2);
    for (const sort of SORTS) {
      const p = { sort, page: 2, limit: 20 };
      expect(listMods(sqlite, p)).toEqual(listModsSql(sqlite, p));
    }
  });
});
