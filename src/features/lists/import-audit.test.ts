import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";
import { addMods, itemsOf, makeList, raw, seedMods, wid } from "../../../test/lists-kit";

let t: TestApp;
let owner: TestUser;
let other: TestUser;
const A = wid(1),
  B = wid(2),
  C = wid(3),
  D = wid(4),
  OLD = wid(9),
  UNKNOWN = "0123456789ABCDEF";

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ display_name: "Owner" });
  other = await t.createUser();
  seedMods(t, [
    { id: A, name: "Alpha", version: "1.1.0", versions: ["1.0.0", "1.1.0"], size: 100 },
    { id: B, name: "Bravo", version: "2.0.0", size: 200 },
    { id: C, name: "Charlie", version: "3.0.0", size: 300 },
    { id: D, name: "Delta", version: "4.0.0", size: 400 },
    { id: OLD, name: "Old", version: "0.1", updatedAt: Date.UTC(2019, 0, 1) },
  ]);
});
afterAll(() => t.close());

const audit = async (listId: string) => (await t.req("GET", `/api/v1/lists/${listId}/audit`, { user: owner })).body as any[];
const revert = (listId: string, entryId: string, user = owner) => t.req("POST", `/api/v1/lists/${listId}/audit/${entryId}/revert`, { user });
const events = (listId: string) =>
  (t.deps.sqlite.query("SELECT kind FROM event_outbox WHERE list_id = ? ORDER BY created_at, id").all(listId) as { kind: string }[]).map((e) => e.kind);

const entries = [
  { modId: B, name: "Bravo", version: "2.0.0" },
  { modId: A.toLowerCase(), name: "Alpha", version: "1.0.0" },
  { modId: UNKNOWN, name: "Mystery" },
];
const shapes: Record<string, string> = {
  full: JSON.stringify({ bindPort: 2001, game: { name: "srv", mods: entries } }, null, 2),
  simplified: JSON.stringify({ mods: entries }),
  fragment: `"mods": ${JSON.stringify(entries, null, 4)},`,
  array: JSON.stringify(entries),
};

describe("import preview", () => {
  for (const [shape, body] of Object.entries(shapes)) {
    test(`shape ${shape}: full diff with all six keys and the four of a kept file`, async () => {
      const l = await makeList(t, owner);
      await addMods(t, owner, l.id, [A, C]);
      const r = await t.req("POST", `/api/v1/lists/${l.id}/import-preview?check_order=true`, { user: owner, ...raw(body) });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        added: [{ workshop_id: B, name: "Bravo", version: "2.0.0", size_bytes: 200, in_catalog: true, pinned: true }],
        removed: [{ workshop_id: C, name: "Charlie" }],
        version_changed: [{ workshop_id: A, name: "Alpha", old_version: null, new_version: "1.0.0" }],
        order_changed: [{ workshop_id: A, name: "Alpha", old_index: 0, new_index: 1 }],
        unchanged: [],
        not_in_catalog: [{ mod_id: UNKNOWN, name: "Mystery", version: null }],
        required_changed: [],
        kept_latest: [],
        stale_pins: [],
        // A full config's other settings are kept with the list: the preview says so.
        notes: shape === "full" ? [expect.stringMatching(/^the file's other settings/)] : [],
        config_changes: [],
        config: {
          file: shape === "full" ? "settings" : "none",
          remembered: false,
          action: shape === "full" ? "remember" : "none",
          may_replace: true,
          changed: [],
          added: [],
          removed: [],
          secrets: [],
          problems: [],
        },
      });
      // preview changes nothing
      expect(itemsOf(t, l.id)).toEqual([
        [A, null],
        [C, null],
      ]);
    });
  }

  test("without check_order, order_changed is empty; a JSON content type works too", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A, B]);
    const r = await t.req("POST", `/api/v1/lists/${l.id}/import-preview`, { user: owner, body: [{ modId: B, name: "B" }, { modId: A, name: "A" }] });
    expect(r.status).toBe(200);
    expect(r.body.order_changed).toEqual([]);
    expect(r.body.unchanged).toEqual([
      { modId: B, name: "B" },
      { modId: A, name: "A" },
    ]);
  });

  test("a pin on a mod's newest version of an unpinned mod: no change, named in kept_latest; the apply leaves it unpinned", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A, B]);
    const body = [{ modId: A, name: "Alpha", version: "1.1.0" }, { modId: B, name: "Bravo", version: "2.0.0" }];
    const r = await t.req("POST", `/api/v1/lists/${l.id}/import-preview`, { user: owner, body });
    expect(r.body).toMatchObject({ version_changed: [], kept_latest: [{ workshop_id: A, name: "Alpha", version: "1.1.0" }, { workshop_id: B, name: "Bravo", version: "2.0.0" }] });
    expect((await t.req("POST", `/api/v1/lists/${l.id}/import-apply`, { user: owner, body })).body).toMatchObject({ version_changed: 0 });
    expect(itemsOf(t, l.id)).toEqual([
      [A, null],
      [B, null],
    ]);
  });

  const malformed: [string, string, string][] = [
    ["full", '{"game": {"mods": [{"modId": "nope"}]}}', "invalid workshop ID"],
    ["full", '{"game": {"mods": [], "modsRequiredByDefault": "yes"}}', 'full server.json: "game.modsRequiredByDefault" must be true or false, got a string'],
    ["simplified", '{"mods": [{"modId": 5}]}', "simplified {mods}: mods[0].modId must be a string"],
    ["fragment", '"mods": [{"modId": "0123456789ABCDEF", }', 'invalid JSON in fragment "mods": [...]'],
    ["array", '[{"modId": "0123456789ABCDEF"}, "x"]', "bare array: [1] must be an object"],
    ["not JSON", "mods = [1, 2]", "invalid JSON"],
  ];
  for (const [shape, body, message] of malformed) {
    test(`malformed ${shape} → 400 naming the problem, nothing changes`, async () => {
      const l = await makeList(t, owner);
      await addMods(t, owner, l.id, [A]);
      for (const path of ["import-preview", "import-apply"]) {
        const r = await t.req("POST", `/api/v1/lists/${l.id}/${path}`, { user: owner, ...raw(body) });
        expect(r.status).toBe(400);
        expect(r.body.error).toContain(message);
      }
      expect(itemsOf(t, l.id)).toEqual([[A, null]]);
      expect((await audit(l.id)).length).toBe(1);
    });
  }

  test("auth: 401 anonymous, 404 stranger on a private list, 403 read-only share holder", async () => {
    const l = await makeList(t, owner);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/import-preview`, raw("[]"))).status).toBe(401);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/import-apply`, { user: other, ...raw("[]") })).status).toBe(404);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/import-apply?share=${l.share_token}`, { user: other, ...raw("[]") })).status).toBe(403);
  });

  test("a body over 5 MiB → 413", async () => {
    const l = await makeList(t, owner);
    const big = "[" + " ".repeat(5 * 1024 * 1024 + 10) + "]";
    const r = await t.req("POST", `/api/v1/lists/${l.id}/import-preview`, { user: owner, ...raw(big) });
    expect(r.status).toBe(413);
  });
});

describe("import apply", () => {
  test("applies atomically with one import audit entry and a list_imported event; unknown mods scraped", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A, C]);
    const r = await t.req("POST", `/api/v1/lists/${l.id}/import-apply?check_order=true`, { user: owner, ...raw(shapes.fragment) });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, added: 2, removed: 1, version_changed: 1 });
    expect(itemsOf(t, l.id)).toEqual([
      [B, "2.0.0"],
      [A, "1.0.0"],
      [UNKNOWN, null],
    ]);
    const log = await audit(l.id);
    expect(log.length).toBe(3);
    expect(log[0]).toMatchObject({
      action: "import",
      reverted: false,
      user_id: owner.id,
      display_name: "Owner",
      old_value: { removed: [{ workshop_id: C, name: "Charlie", version: null }], version_changed: [{ workshop_id: A, old_version: null, new_version: "1.0.0" }] },
      new_value: { added: [{ workshop_id: B, version: "2.0.0" }, { workshop_id: UNKNOWN, version: null }], version_changed: [{ workshop_id: A }] },
    });
    expect(events(l.id).filter((k) => k === "list_imported")).toHaveLength(1);
    const job = t.deps.sqlite.query("SELECT payload FROM jobs WHERE type = 'scrape.detail' AND dedupe_key = ?").get(`scrape:${UNKNOWN}`) as any;
    expect(JSON.parse(job.payload)).toEqual({ workshop_id: UNKNOWN });
    // applying the same file again changes nothing and writes no entry
    const again = await t.req("POST", `/api/v1/lists/${l.id}/import-apply?check_order=true`, { user: owner, ...raw(shapes.fragment) });
    expect(again.body).toEqual({ ok: true, added: 0, removed: 0, version_changed: 0 });
    expect((await audit(l.id)).length).toBe(3);
  });

  test("a failure midway leaves the list as it was", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A, C]);
    // A real failure inside the transaction: the third insert aborts.
    t.deps.sqlite.run(`CREATE TEMP TRIGGER fail_import BEFORE INSERT ON list_items WHEN NEW.workshop_id = '${UNKNOWN}' BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`);
    try {
      const r = await t.req("POST", `/api/v1/lists/${l.id}/import-apply?check_order=true`, { user: owner, ...raw(shapes.array) });
      expect(r.status).toBe(500);
    } finally {
      t.deps.sqlite.run("DROP TRIGGER fail_import");
    }
    expect(itemsOf(t, l.id)).toEqual([
      [A, null],
      [C, null],
    ]);
    expect((await audit(l.id)).map((e) => e.action)).toEqual(["add_mod", "add_mod"]);
    expect(events(l.id)).not.toContain("list_imported");
    expect(t.deps.sqlite.query("SELECT 1 FROM jobs WHERE dedupe_key = ? AND created_at > 0 AND payload LIKE '%disk%'").get(`scrape:${UNKNOWN}`)).toBeNull();
  });

  test("limit and age rules apply to imports; nothing changes", async () => {
    const l = await makeList(t, owner, { max_mod_age_days: 30 });
    await addMods(t, owner, l.id, [A]);
    const r = await t.req("POST", `/api/v1/lists/${l.id}/import-apply`, { user: owner, ...raw(JSON.stringify([{ modId: A }, { modId: OLD }])) });
    expect(r).toMatchObject({ status: 422, body: { error: "Mod age exceeds list limits" } });
    const many = Array.from({ length: 1001 }, (_, i) => ({ modId: (0x2000000 + i).toString(16).toUpperCase().padStart(16, "0"), name: "" }));
    // A file with more entries than a list holds is refused before any entry is read (400 naming the limit).
    const r2 = await t.req("POST", `/api/v1/lists/${l.id}/import-apply`, { user: owner, ...raw(JSON.stringify({ mods: many })) });
    expect(r2).toMatchObject({ status: 400, body: { error: "the file has 1001 mod entries; a list holds at most 1000 mods" } });
    expect(itemsOf(t, l.id)).toEqual([[A, null]]);
  });
});

describe("export", () => {
  test("fixed, latest and game; Content-Disposition; round-trip shows no change", async () => {
    const l = await makeList(t, owner, { name: "Round Trip" });
    await addMods(t, owner, l.id, [A, B, UNKNOWN]);
    await t.req("PUT", `/api/v1/lists/${l.id}/mods/${A}/version`, { user: owner, body: { version: "1.0.0" } });
    const fixed = await t.req("GET", `/api/v1/lists/${l.id}/export?type=fixed`, { user: owner });
    expect(fixed.status).toBe(200);
    expect(fixed.headers.get("content-disposition")).toBe('attachment; filename="round-trip-server.json"');
    expect(fixed.body).toEqual({
      game: {
        mods: [
          { modId: A, name: "Alpha", version: "1.0.0" },
          { modId: B, name: "Bravo" },
          { modId: UNKNOWN, name: UNKNOWN },
        ],
      },
    });
    const latest = await t.req("GET", `/api/v1/lists/${l.id}/export?type=latest`, { user: owner });
    expect(latest.body.game.mods).toEqual([
      { modId: A, name: "Alpha", version: "1.1.0" },
      { modId: B, name: "Bravo", version: "2.0.0" },
      { modId: UNKNOWN, name: UNKNOWN },
    ]);
    expect((await t.req("GET", `/api/v1/lists/${l.id}/export?type=bogus`, { user: owner })).status).toBe(400);

    const game = await t.req("GET", `/api/v1/lists/${l.id}/export/game?type=fixed`, { user: owner });
    expect(game.status).toBe(200);
    expect(game.headers.get("content-disposition")).toContain("attachment");
    expect(game.body).toMatchObject({ bindAddress: "0.0.0.0", bindPort: 2001, a2s: { port: 17777 }, game: { name: "Round Trip", maxPlayers: 64, mods: fixed.body.game.mods } });
    expect(game.body.game.scenarioId).toMatch(/^\{[0-9A-F]{16}\}Missions\//);

    for (const text of [fixed.text, game.text]) {
      const p = await t.req("POST", `/api/v1/lists/${l.id}/import-preview?check_order=true`, { user: owner, ...raw(text) });
      expect(p.status).toBe(200);
      expect(p.body).toMatchObject({ added: [], removed: [], version_changed: [], order_changed: [], not_in_catalog: [] });
      expect(p.body.unchanged).toHaveLength(3);
    }
  });
});

describe("audit and revert", () => {
  test("each action is audited; each revert works, is idempotent and is itself audited", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A, B]);
    await t.req("PUT", `/api/v1/lists/${l.id}/mods/${A}/version`, { user: owner, body: { version: "1.0.0" } });
    await t.req("DELETE", `/api/v1/lists/${l.id}/mods/${B}`, { user: owner });
    let log = await audit(l.id);
    expect(log.map((e) => [e.action, e.workshop_id, e.old_value, e.new_value])).toEqual([
      ["remove_mod", B, { version: null }, null],
      ["update_version", A, { version: null }, { version: "1.0.0" }],
      ["add_mod", B, null, null],
      ["add_mod", A, null, null],
    ]);
    expect(log[0]).toMatchObject({ mod_name: "Bravo", user_id: owner.id, display_name: "Owner", reverted: false });
    expect(events(l.id)).toEqual(["mod_added", "mod_added", "version_changed", "mod_removed"]);
    const [removeB, pinA, addB] = log;

    // revert remove_mod: B comes back (twice → one change)
    for (let i = 0; i < 2; i++) expect((await revert(l.id, removeB.id)).body).toEqual({ ok: true });
    expect(itemsOf(t, l.id)).toEqual([
      [A, "1.0.0"],
      [B, null],
    ]);
    // revert update_version: A unpinned
    for (let i = 0; i < 2; i++) expect((await revert(l.id, pinA.id)).body).toEqual({ ok: true });
    expect(itemsOf(t, l.id)).toEqual([
      [A, null],
      [B, null],
    ]);
    // revert add_mod: B removed
    for (let i = 0; i < 2; i++) expect((await revert(l.id, addB.id)).body).toEqual({ ok: true });
    expect(itemsOf(t, l.id)).toEqual([[A, null]]);

    log = await audit(l.id);
    expect(log.slice(0, 3).map((e) => [e.action, e.workshop_id])).toEqual([
      ["remove_mod", B],
      ["update_version", A],
      ["add_mod", B],
    ]);
    expect(log.filter((e) => e.reverted).map((e) => e.id).sort()).toEqual([removeB.id, pinA.id, addB.id].sort());
    expect(log).toHaveLength(7);
  });

  test("revert of a removed mod restores its pinned version", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A]);
    await t.req("PUT", `/api/v1/lists/${l.id}/mods/${A}/version`, { user: owner, body: { version: "1.0.0" } });
    await t.req("DELETE", `/api/v1/lists/${l.id}/mods/${A}`, { user: owner });
    const [rm] = await audit(l.id);
    expect(rm.old_value).toEqual({ version: "1.0.0" });
    expect((await revert(l.id, rm.id)).status).toBe(200);
    expect(itemsOf(t, l.id)).toEqual([[A, "1.0.0"]]);
  });

  test("revert of a whole import, twice", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A, C]);
    await t.req("POST", `/api/v1/lists/${l.id}/import-apply?check_order=true`, { user: owner, ...raw(shapes.full) });
    const [imp] = await audit(l.id);
    expect(imp.action).toBe("import");
    for (let i = 0; i < 2; i++) expect((await revert(l.id, imp.id)).body).toEqual({ ok: true });
    expect(itemsOf(t, l.id)).toEqual([
      [A, null],
      [C, null],
    ]);
    const log = await audit(l.id);
    expect(log[0]).toMatchObject({ action: "import", reverted: false });
    expect(log[0].new_value.added.map((a: any) => a.workshop_id)).toEqual([C]);
    expect(log[0].old_value.removed.map((a: any) => a.workshop_id).sort()).toEqual([B, UNKNOWN].sort());
    expect(log[1]).toMatchObject({ id: imp.id, reverted: true });
    expect(events(l.id).filter((k) => k === "list_imported")).toHaveLength(2);
  });

  test("reverting what later changes made impossible → 409 with a clear message", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A]);
    const [add] = await audit(l.id);
    await t.req("DELETE", `/api/v1/lists/${l.id}/mods/${A}`, { user: owner });
    const r = await revert(l.id, add.id);
    expect(r.status).toBe(409);
    expect(r.body.error).toContain("no longer in the list");
    const [rm] = await audit(l.id);
    await addMods(t, owner, l.id, [A]);
    const r2 = await revert(l.id, rm.id);
    expect(r2.status).toBe(409);
    expect(r2.body.error).toContain("already in the list");
  });

  test("audit: 401 anonymous, 404 stranger, unknown entry 404, reorder audited and revertable", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A, B, C]);
    expect((await t.req("GET", `/api/v1/lists/${l.id}/audit`)).status).toBe(401);
    expect((await t.req("GET", `/api/v1/lists/${l.id}/audit`, { user: other })).status).toBe(404);
    expect((await revert(l.id, "nope")).status).toBe(404);
    await t.req("POST", `/api/v1/lists/${l.id}/mods/reorder`, { user: owner, body: { order: [C, A, B] } });
    const [ro] = await audit(l.id);
    expect(ro).toMatchObject({ action: "reorder", old_value: { order: [A, B, C] }, new_value: { order: [C, A, B] } });
    expect((await revert(l.id, ro.id)).body).toEqual({ ok: true });
    expect(itemsOf(t, l.id).map((x) => x[0])).toEqual([A, B, C]);
  });

  test("GET audit returns at most the last 100, newest first", async () => {
    const l = await makeList(t, owner);
    const ids = Array.from({ length: 60 }, (_, i) => (0x3000000 + i).toString(16).toUpperCase().padStart(16, "0"));
    for (const id of ids) {
      await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: id } });
      await t.req("DELETE", `/api/v1/lists/${l.id}/mods/${id}`, { user: owner });
    }
    const log = await audit(l.id);
    expect(log).toHaveLength(100);
    expect(log[0]).toMatchObject({ action: "remove_mod", workshop_id: ids[59] });
    expect(log[99]).toMatchObject({ action: "add_mod", workshop_id: ids[10] });
  });
});

describe("import checks what PUT …/version checks", () => {
  test("a pin to a version the catalog does not have is named by the preview and refused by the apply; nothing changes", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [C]);
    const before = itemsOf(t, l.id);
    const auditBefore = (await audit(l.id)).length;
    for (const bogus of ["0.0.0-bogus", "9.9.9"]) {
      const body = JSON.stringify({ game: { mods: [{ modId: C, name: "Charlie" }, { modId: A, name: "Alpha", version: bogus }] } });
      const put = await t.req("PUT", `/api/v1/lists/${l.id}/mods/${C}/version`, { user: owner, body: { version: bogus } });
      expect(put.status).toBe(400);
      // The preview names it (with every other such pin) instead of stopping at it; the
      // apply refuses the file until it has a resolution.
      const preview = await t.req("POST", `/api/v1/lists/${l.id}/import-preview`, { user: owner, ...raw(body) });
      expect(preview.status).toBe(200);
      expect(preview.body.stale_pins).toEqual([
        { workshop_id: A, name: "Alpha", version: bogus, entry: "game.mods[1]", latest_version: "1.1.0", in_list: false, resolution: null },
      ]);
      const apply = await t.req("POST", `/api/v1/lists/${l.id}/import-apply`, { user: owner, ...raw(body) });
      expect({ status: apply.status, body: apply.body }).toEqual({
        status: 400,
        body: {
          error: `1 pinned version the catalog does not have: game.mods[1] Alpha (${A}) version ${bogus}; choose for each: resolve=<workshop id>:unpinned or <workshop id>:skip`,
          code: "import.unresolved_pins",
        },
      });
    }
    expect(itemsOf(t, l.id)).toEqual(before);
    expect((await audit(l.id)).length).toBe(auditBefore);
    // A version the catalog has is accepted; a mod the catalog has no versions of is taken as given.
    const ok = JSON.stringify([{ modId: A, name: "Alpha", version: "1.0.0" }, { modId: UNKNOWN, name: "Mystery", version: "7.7.7" }]);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/import-apply`, { user: owner, ...raw(ok) })).status).toBe(200);
  });

  test("field lengths are bounded: a 100,000-character version or a long name is 400", async () => {
    const l = await makeList(t, owner);
    const long = JSON.stringify([{ modId: UNKNOWN, name: "Mystery", version: "1".repeat(100_000) }]);
    const r = await t.req("POST", `/api/v1/lists/${l.id}/import-apply`, { user: owner, ...raw(long) });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain("[0].version must be a version label of at most 64 printable characters");
    const name = JSON.stringify([{ modId: UNKNOWN, name: "n".repeat(201) }]);
    const n = await t.req("POST", `/api/v1/lists/${l.id}/import-preview`, { user: owner, ...raw(name) });
    expect(n.status).toBe(400);
    expect(n.body.error).toContain("[0].name must be at most 200 characters");
    expect(itemsOf(t, l.id)).toEqual([]);
  });

  test("the legacy modID key is read as modId", async () => {
    const l = await makeList(t, owner);
    const body = JSON.stringify({ game: { mods: [{ modID: B, name: "Bravo" }, { modID: A.toLowerCase(), name: "Alpha", version: "1.1.0" }] } });
    const preview = await t.req("POST", `/api/v1/lists/${l.id}/import-preview`, { user: owner, ...raw(body) });
    expect(preview.status).toBe(200);
    expect(preview.body.added.map((a: any) => a.workshop_id)).toEqual([B, A]);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/import-apply`, { user: owner, ...raw(body) })).status).toBe(200);
    expect(itemsOf(t, l.id)).toEqual([
      [B, null],
      [A, "1.1.0"],
    ]);
  });
});
