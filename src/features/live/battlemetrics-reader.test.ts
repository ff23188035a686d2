// readServer / readPage (the scan's hand reader of BattleMetrics pages) against zod's
// bmServerSchema + normaliseServer and bmPageSchema: on every server it accepts it gives exactly
// what zod's path gives (same keys, same order, same values), and it accepts nothing zod refuses
// (it answers null, and the client lets zod refuse it, with zod's message).
import { describe, expect, test } from "bun:test";
import { bmPageSchema, bmServerSchema, normaliseServer, readPage, readServer } from "./battlemetrics";
import { generateBmServers, loadBmFixture } from "../../../test/fakes/battlemetrics";
import { mutated, paths } from "../../../test/mutations";

/** The same as zod's answer, key order included; or null where zod refuses. */
function expectSameAsZod(item: unknown) {
  const mine = readServer(item);
  const zod = bmServerSchema.safeParse(item);
  if (!zod.success) {
    expect(mine).toBeNull();
    return "refused";
  }
  if (mine === null) return "left to zod";
  const theirs = normaliseServer(zod.data);
  expect(JSON.stringify(mine)).toBe(JSON.stringify(theirs));
  expect(Bun.deepEquals(mine, theirs, true)).toBe(true);
  return "same";
}

function expectPageAsZod(body: unknown) {
  const mine = readPage(body);
  const zod = bmPageSchema.safeParse(body);
  if (!zod.success) {
    expect(mine).toBeNull();
    return "refused";
  }
  if (mine === null) return "left to zod";
  expect(mine.data).toEqual(zod.data.data);
  expect(mine.next).toBe(zod.data.links?.next);
  return "same";
}

const generated = generateBmServers(2000, { seed: 11, modPool: 500 });
const fixtures = [...loadBmFixture("scan-1"), ...loadBmFixture("scan-2")];

describe("readServer", () => {
  test("gives zod's output on every generated server and every fixture server; refuses the fixtures' malformed entry as zod does", () => {
    const seen = { same: 0, refused: 0, "left to zod": 0 };
    for (const s of generated) expect(expectSameAsZod(s)).toBe("same");
    for (const s of fixtures) seen[expectSameAsZod(s)]++;
    expect(seen.same).toBeGreaterThan(4);
    expect(seen.refused).toBeGreaterThan(0);
  });

  test("refuses whatever zod refuses, and where it accepts, answers as zod: every field removed, nulled or given another type", () => {
    const seen = { same: 0, refused: 0, "left to zod": 0 };
    const values: unknown[] = [undefined, null, 7, -1, 1.5, 70000, 2 ** 60, "", "x", "PLATFORM_PC", "5965550F24A0C152", true, false, [], {}, [1], ["x"], { modId: 1 }];
    // servers with object mods, bare id mods, no mods, and the fixtures' shapes (details, reforger)
    const withMods = fixtures.filter((s: any) => s?.attributes?.details?.reforger?.mods?.length).slice(0, 2);
    const samples = [generated[0], generated.find((s: any) => s.attributes.details?.reforger?.mods?.length === 0) ?? generated[1], ...withMods];
    for (const item of samples) {
      for (const path of paths(item)) {
        for (const v of values) seen[expectSameAsZod(mutated(item, path, v))]++;
      }
      seen[expectSameAsZod({ ...(item as object), extra: 1 })]++;
    }
    expect(seen.refused).toBeGreaterThan(100);
    expect(seen.same).toBeGreaterThan(100);
    for (const bad of [null, 1, "x", [], {}, { type: "server" }, { type: "server", id: 1, attributes: [] }]) expect(expectSameAsZod(bad)).toBe("refused");
  });
});

describe("the mods kept of a reported list", () => {
  const A = "5965550F24A0C152";
  const B = "ABCDEF0123456789";
  /** Each id shape and what it is kept as: BattleMetrics' own form as it is, else trimmed and upper-cased if that is 16 hex digits, else dropped. */
  const shapes: [string, string | null][] = [
    [A, A], ["5965550f24a0c152", A], [` ${A} `, A], [`\t${A}\n`, A], [`${A}\n`, A], ["abcdef0123456789", B], ["0000000000000000", "0000000000000000"],
    ["FFFFFFFFFFFFFFFF", "FFFFFFFFFFFFFFFF"], ["5965550F24A0C15", null], ["5965550F24A0C1520", null], ["5965550F24A0C15G", null], ["5965550F24A0C15g", null],
    // The characters next to 0-9, A-F and a-f, full-width digits, a title-case letter that upper-cases to a non-hex one, NUL (trim keeps it), nothing.
    ["5965550F24A0C15:", null], ["5965550F24A0C15@", null], ["5965550F24A0C15/", null], ["5965550F24A0C15`", null], ["０９65550F24A0C152", null],
    ["ǅ965550F24A0C152", null], [`${A}\u0000`, null], ["", null], [" ", null],
  ];
  const serverWith = (mods: unknown[]) => {
    const item = structuredClone(generated.find((s: any) => s.attributes.details?.reforger?.mods?.length > 3)) as any;
    item.attributes.details.reforger.mods = mods;
    return readServer(item)!.mods;
  };

  test("an id of every shape, given alone or as an object's modId", () => {
    for (const [id, kept] of shapes) {
      const want = kept === null ? [] : [{ workshop_id: kept, name: null, version: null }];
      expect(serverWith([id])).toEqual(want);
      expect(serverWith([{ modId: id }])).toEqual(want);
      expect(serverWith([{ modId: id, name: "N", version: "1.0" }])).toEqual(kept === null ? [] : [{ workshop_id: kept, name: "N", version: "1.0" }]);
    }
  });

  test("in order, the first of each id kept; entries without a string id skipped; a name or version that is not a string is null", () => {
    const raw = [
      { modId: 7, name: "no id" },
      null,
      12,
      { modId: ` ${B.toLowerCase()}`, name: "b", version: 3 },
      A,
      { modId: A.toLowerCase(), name: "again", version: "2.0" },
      { modId: "5965550F24A0C15", name: "short" },
      { modId: B, name: "b again", version: "1.0" },
      { modId: "1111111111111111", name: null, version: "0.1" },
    ];
    expect(serverWith(raw)).toEqual([
      { workshop_id: B, name: "b", version: null },
      { workshop_id: A, name: null, version: null },
      { workshop_id: "1111111111111111", name: null, version: "0.1" },
    ]);
  });
});

describe("readPage", () => {
  test("reads plainly valid pages as zod does and refuses what zod refuses", () => {
    const data = generated.slice(0, 3);
    const pages: unknown[] = [
      { data, links: { next: "https://example.test/servers?page[key]=2" } },
      { data, links: { next: null } },
      { data, links: {} },
      { data, links: null },
      { data },
      { data: [], meta: { x: 1 } },
      { data, links: { next: 7 } },
      { data, links: [] },
      { data, links: "x" },
      { data: {} },
      { data: null },
      {},
      [],
      null,
      "x",
    ];
    const seen = { same: 0, refused: 0, "left to zod": 0 };
    for (const p of pages) seen[expectPageAsZod(p)]++;
    expect(seen).toEqual({ same: 6, refused: 9, "left to zod": 0 });
  });
});
