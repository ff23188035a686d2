// readDetailPage (the crawl's hand-written reader of a detail page) against zod's detailPageSchema:
// on every page it accepts it gives exactly zod's output (same keys, same order, same values), and
// it accepts nothing zod refuses (it answers null, and the client lets zod refuse it).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { detailPageSchema, readDetailPage } from "./workshop-schemas";
import { FakeWorkshop, startFakeWorkshop } from "../../../test/fakes/workshop";
import { generateCatalog, smallCatalog } from "../../../test/fixtures/workshop/dataset";
import { mutated, paths } from "../../../test/mutations";

const fixtures = join(import.meta.dir, "../../../test/fixtures/workshop");
let fake: FakeWorkshop;
const pages: unknown[] = [];

beforeAll(async () => {
  fake = startFakeWorkshop({ mods: [...smallCatalog(), ...generateCatalog({ count: 600, seed: 7 })] });
  const buildId = /"buildId":"([^"]+)"/.exec(await (await fetch(`${fake.url}/workshop`)).text())![1];
  for (const id of fake.mods.keys()) {
    pages.push(await (await fetch(`${fake.url}/_next/data/${buildId}/workshop/${id}-asset.json?id=${id}-asset`)).json());
  }
  for (const f of ["detail-where-am-i.json", "detail-rhs-status-quo.json"]) pages.push(JSON.parse(await Bun.file(join(fixtures, f)).text()));
});
afterAll(() => fake.stop());

/** The same as zod's answer, key order included; or null where zod refuses. */
function expectSameAsZod(page: unknown) {
  const mine = readDetailPage(page);
  const zod = detailPageSchema.safeParse(page);
  if (!zod.success) {
    expect(mine).toBeNull();
    return "refused";
  }
  if (mine === null) return "left to zod";
  expect(JSON.stringify(mine)).toBe(JSON.stringify(zod.data));
  expect(Bun.deepEquals(mine, zod.data, true)).toBe(true);
  return "same";
}

describe("readDetailPage", () => {
  test("gives zod's output on every generated page and both saved real pages", () => {
    expect(pages.length).toBeGreaterThan(600);
    for (const p of pages) expect(expectSameAsZod(p)).toBe("same");
  });

  test("refuses whatever zod refuses, and where it accepts, answers as zod: every field of a page removed, nulled or given another type", () => {
    const seen = { same: 0, refused: 0, "left to zod": 0 };
    // two generated pages (with dependencies, scenarios, thumbnails) and the two real ones
    const withDeps = pages.find((p: any) => p.pageProps.asset.dependencies?.length && p.pageProps.assetVersionDetail?.scenarios?.length);
    const samples = [withDeps ?? pages[0], pages[1], ...pages.slice(-2)];
    const values: unknown[] = [undefined, null, 7, -1.5, "", "x", "2024-13-45", "not a date", "0123456789abcdef", true, [], {}, [1], { url: 1 }];
    for (const page of samples) {
      for (const path of paths(page)) {
        for (const v of values) seen[expectSameAsZod(mutated(page, path, v))]++;
      }
      seen[expectSameAsZod({ ...(page as object), extra: 1 })]++;
    }
    expect(seen.refused).toBeGreaterThan(100);
    expect(seen.same).toBeGreaterThan(100);
    for (const bad of [null, 1, "x", [], {}, { pageProps: null }, { pageProps: [] }, { pageProps: { asset: [] } }]) expect(expectSameAsZod(bad)).not.toBe("same");
  });

  test("an author id given as a number is left to zod (which turns it into a string)", () => {
    const page = mutated(pages[0], ["pageProps", "asset", "author", "id"], 42);
    expect(readDetailPage(page)).toBeNull();
    expect((detailPageSchema.parse(page).pageProps.asset.author as { id: string }).id).toBe("42");
  });
});
