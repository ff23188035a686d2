// Every catalog entry's summary serialised in one read and packed (summaries.ts): the first page
// fills them all, pages answer what the SQL path answers, and a write after the fill is seen on
// the next page (the packing of an older generation is not used; the next one holds the write).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../../test/helpers";
import { mulberry32 } from "../../../test/fixtures/prng";
import { insertCatalogRows } from "../../../test/fixtures/catalog-rows";
import { listModsSql } from "../../../test/truth/catalog-sql";
import { answerStoreCounts } from "./answers";
import { summaryOf } from "./list";
import { currentSummaries, PACK_MS } from "./summaries";
import type { ModSort } from "./repository";

let t: TestApp;
const N = 300;

beforeAll(async () => {
  t = await createTestApp();
  const rnd = mulberry32(31);
  insertCatalogRows(t.deps.sqlite, N, 0x5c00000000000000n, () => ({
    name: `Mod ${Math.floor(rnd() * 80)}`,
    summary: "s",
    author_name: "a",
    size_bytes: Math.floor(rnd() * 4) * 1_000,
    state: rnd() < 0.1 ? "unknown" : "active",
    tags: rnd() < 0.5 ? ["WEAPONS"] : [],
    updated_at: rnd() < 0.1 ? null : 1_700_000_000_000 + Math.floor(rnd() * 20) * 86_400_000,
  }));
});
afterAll(() => t.close());

const held = () => answerStoreCounts(t.deps.sqlite).find((c) => c.cache === "summaries")!.entries;
const visible = () => (t.deps.sqlite.query("SELECT count(*) AS n FROM mods WHERE state != 'unknown'").get() as { n: number }).n;
const page = async (q: string) => {
  const r = await t.req("GET", `/api/v1/mods?${q}`);
  expect(r.status).toBe(200);
  return r.body as { mods: { workshop_id: string; name: string }[]; total: number; pages: number };
};
const truth = (p: { sort: ModSort; page: number; limit: number; tag?: string }) => {
  const { rows, total } = listModsSql(t.deps.sqlite, p);
  return { mods: rows.map(summaryOf), total, pages: Math.ceil(total / p.limit) };
};

describe("summaries filled in one read", () => {
  test("the first page that misses fills every entry; pages answer as SQL does; a later write is seen", async () => {
    expect(held()).toBe(0);
    expect(await page("sort=name_asc&page=3&limit=5")).toEqual(truth({ sort: "name_asc", page: 3, limit: 5 }));
    expect(held()).toBe(visible());
    for (const sort of ["name_asc", "name_desc", "size_desc", "updated_desc"] as const) {
      for (const p of [1, 4, 9]) {
        expect(await page(`sort=${sort}&page=${p}&limit=20`)).toEqual(truth({ sort, page: p, limit: 20 }));
        expect(await page(`sort=${sort}&page=${p}&limit=20&tag=weapons`)).toEqual(truth({ sort, page: p, limit: 20, tag: "WEAPONS" }));
      }
    }
    // A raw write after the fill (the generation moves): the next page shows it, within the fill's
    // interval too (the summaries of the old generation are dropped and the page reads its rows).
    const first = (await page("sort=name_asc&limit=1")).mods[0]!;
    t.deps.sqlite.query("UPDATE mods SET name = '!!! renamed' WHERE workshop_id = (SELECT workshop_id FROM mods WHERE state != 'unknown' ORDER BY rowid DESC LIMIT 1)").run();
    const after = await page("sort=name_asc&limit=2");
    expect(after.mods[0]!.name).toBe("!!! renamed");
    expect(after.mods[1]!.workshop_id).toBe(first.workshop_id);
    expect(after).toEqual(truth({ sort: "name_asc", page: 1, limit: 2 }));
    // A search page joins summaries (its rowids ranked by FTS5 while the index is stale): those of
    // the old generation are not used, the page's own rows were read, and no new packing ran yet
    // (none held for the current generation).
    const found = await page("search=renamed");
    expect(found.mods.map((m) => m.name)).toEqual(["!!! renamed"]);
    const { rows, total } = listModsSql(t.deps.sqlite, { search: "renamed", sort: "relevance", page: 1, limit: 20 });
    expect(found).toEqual({ mods: rows.map(summaryOf), total, pages: 1 });
    expect(held()).toBe(0);
    // Once the interval has passed, the next packing holds every entry, the write among them.
    const p = currentSummaries(t.deps.sqlite, performance.now() + 2 * PACK_MS)!;
    expect(p).not.toBeNull();
    expect(held()).toBe(visible());
    expect(await page("search=renamed")).toEqual(found);
    expect(await page("sort=name_asc&limit=2")).toEqual(after);
    expect(await page("sort=name_asc&page=2&limit=7")).toEqual(truth({ sort: "name_asc", page: 2, limit: 7 }));
    const packedPage = await page("sort=name_asc&limit=3");
    expect(packedPage.mods[0]!.name).toBe("!!! renamed");
    expect(packedPage).toEqual(truth({ sort: "name_asc", page: 1, limit: 3 }));
  });
});
