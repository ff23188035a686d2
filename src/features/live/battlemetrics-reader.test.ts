// readServer / readPage (the scan's hand reader of BattleMetrics pages) against zod's
// bmServerSchema + normaliseServer and bmPageSchema: on every server it accepts it gives exactly
// what zod's path gives (same keys, same order, same values), and it accepts nothing zod refuses
// (it answers null, and the client lets zod refuse it, with zod's message).
import { describe, expect, test } from "bun:test";
import { bmPageSchema, bmServerSchema, normaliseServer, readPage, readServer } from "./battlemetrics";
import { generateBmServers, loadBmFixture } from "../../../test/fakes/battlemetrics";
import { mutated, paths } from "../../../test/mutations";
import { mulberry32 } from "../../../test/fixtures/prng";

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

/** The mods a server's reported list keeps, written out plainly (a regular expression and a Set a list): the reference for normalise. */
function referenceMods(raw: unknown[]) {
  const WORKSHOP_ID = /^[0-9A-F]{16}$/;
  const mods: { workshop_id: string; name: string | null; version: string | null }[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    let id: string;
    let name: string | null = null;
    let version: string | null = null;
    if (typeof item === "string") id = item;
    else if (item !== null && typeof item === "object") {
      const o = item as Record<string, unknown>;
      if (typeof o.modId !== "string") continue;
      id = o.modId;
      if (typeof o.name === "string") name = o.name;
      if (typeof o.version === "string") version = o.version;
    } else continue;
    if (!WORKSHOP_ID.test(id)) {
      id = id.trim().toUpperCase();
      if (!WORKSHOP_ID.test(id)) continue;
    }
    if (seen.has(id)) continue;
    seen.add(id);
    mods.push({ workshop_id: id, name, version });
  }
  return mods;
}

describe("the mods kept of a reported list", () => {
  test("are the reference's, for ids of every shape", () => {
    const ids = [
      "5965550F24A0C152", "5965550f24a0c152", " 5965550F24A0C152 ", "\t5965550F24A0C152\n", "5965550F24A0C152\n", "5965550F24A0C15", "5965550F24A0C1520",
      "5965550F24A0C15G", "5965550F24A0C15:", "5965550F24A0C15@", "5965550F24A0C15/", "5965550F24A0C15`", "5965550F24A0C15g", "０９65550F24A0C152",
      "ABCDEF0123456789", "abcdef0123456789", "0000000000000000", "FFFFFFFFFFFFFFFF", "", " ", "ǅ965550F24A0C152", "5965550F24A0C152\u0000",
    ];
    const rand = mulberry32(3);
    const base = generated.find((s: any) => s.attributes.details?.reforger?.mods?.length > 3) as any;
    for (let round = 0; round < 300; round++) {
      const raw: unknown[] = Array.from({ length: Math.floor(rand() * 30) }, () => {
        const id = ids[Math.floor(rand() * ids.length)]!;
        const r = rand();
        return r < 0.3 ? id : r < 0.4 ? { modId: id } : r < 0.45 ? { modId: 7 } : r < 0.5 ? null : { modId: id, name: rand() < 0.2 ? null : `n${round}`, version: rand() < 0.2 ? 3 : "1.0" };
      });
      const item = structuredClone(base);
      item.attributes.details.reforger.mods = raw;
      expect(readServer(item)!.mods).toEqual(referenceMods(raw));
    }
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
