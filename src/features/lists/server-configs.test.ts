// What a file says is kept (docs/lists.md), against the corpus of test/fixtures/server-configs:
// what a file says is imported, remembered, shown and written back; problems are named all at once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";
import { parseTolerantJson } from "../../shared/jsonc";
import { makeList, raw, seedMods } from "../../../test/lists-kit";

const dir = join(import.meta.dir, "../../../test/fixtures/server-configs");
const bytesOf = (name: string) => new Uint8Array(readFileSync(join(dir, name)));
const textOf = (name: string) => readFileSync(join(dir, name), "utf8");
/** The file as parsed (comments, trailing commas, BOM and encoding aside). */
const parsedOf = (name: string): any => {
  const b = bytesOf(name);
  const text = b[0] === 0xff && b[1] === 0xfe ? new TextDecoder("utf-16le").decode(b.subarray(2)) : new TextDecoder().decode(b).replace(/^\uFEFF/, "");
  return parseTolerantJson(text).value;
};

let t: TestApp;
let owner: TestUser;
let reader: TestUser;

/** The catalog knows every mod of the corpus (same names), at the versions the files pin, except the stale pins. */
function seedCorpusCatalog() {
  const seen = new Map<string, { name: string; versions: Set<string> }>();
  for (const f of ["full-commented.json", "full-required-default-false.json", "full-140-mods.json", "mod-manager-preset.json", "full-utf8-bom.json"]) {
    for (const m of (parsedOf(f).game?.mods ?? parsedOf(f).mods) as any[]) {
      const e = seen.get(m.modId) ?? { name: m.name, versions: new Set(["9.0.0"]) };
      if (m.version) e.versions.add(m.version);
      seen.set(m.modId, e);
    }
  }
  seen.set("5965550F24A0C152", { name: "Where Am I", versions: new Set(["1.2.0", "9.0.0"]) });
  seen.set("606B100247F5C709", { name: "Bacon Loadout Editor", versions: new Set(["9.0.0"]) });
  seedMods(
    t,
    [...seen].map(([id, e]) => ({ id, name: e.name, versions: [...e.versions].sort(), version: [...e.versions].sort().at(-1)! })),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ display_name: "Owner" });
  reader = await t.createUser({ display_name: "Reader" });
  seedCorpusCatalog();
});
afterAll(() => t.close());

const importFile = async (listId: string, step: "import-preview" | "import-apply", body: string | Uint8Array, query = "") =>
  t.req("POST", `/api/v1/lists/${listId}/${step}${query}`, { user: owner, raw: body, headers: { "content-type": "text/plain" } });
const exportGame = (listId: string, user: TestUser | null = owner, type = "fixed") =>
  t.req("GET", `/api/v1/lists/${listId}/export/game?type=${type}`, user ? { user } : {});

const NO_CHANGE = { added: [], removed: [], version_changed: [], required_changed: [], not_in_catalog: [], config_changes: [] };

describe("round trip: import → export/game → import keeps every field", () => {
  for (const name of ["full-commented.json", "full-required-default-false.json", "panel-egg-template.json", "full-140-mods.json", "full-no-mods.json", "full-utf8-bom.json", "full-utf16le-bom.json"]) {
    test(name, async () => {
      const l = await makeList(t, owner, { name: name });
      const applied = await importFile(l.id, "import-apply", bytesOf(name), "?check_order=true");
      expect(applied.status).toBe(200);
      const out = await exportGame(l.id);
      expect(out.status).toBe(200);
      expect(out.headers.get("x-loadout-config")).toBe("imported");
      // The exported file is the imported one: every key, value and key order.
      const original = parsedOf(name);
      expect(out.body).toEqual(original);
      expect(JSON.stringify(out.body)).toBe(JSON.stringify(original));
      // ... and importing it again changes nothing.
      const again = await importFile(l.id, "import-preview", out.text, "?check_order=true");
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ ...NO_CHANGE, order_changed: [], stale_pins: [] });
      // The same holds for the original file, comments and all.
      const same = await importFile(l.id, "import-preview", bytesOf(name), "?check_order=true");
      expect(same.body).toMatchObject({ ...NO_CHANGE, order_changed: [], stale_pins: [] });
    });
  }

  test("the latest export differs only in versions (deliberately: every mod at the newest version the catalog knows)", async () => {
    const l = await makeList(t, owner);
    await importFile(l.id, "import-apply", textOf("full-commented.json"));
    const out = (await exportGame(l.id, owner, "latest")).body;
    const original = parsedOf("full-commented.json");
    // Key order inside an entry: modId, name, version, required.
    original.game.mods = original.game.mods.map((m: any) => ({ modId: m.modId, name: m.name, version: "9.0.0", ...(m.required === undefined ? {} : { required: m.required }) }));
    expect(out).toEqual(original);
  });
});

describe("per-mod required", () => {
  test("imported, shown per item (stated or from modsRequiredByDefault), editable, exported", async () => {
    const l = await makeList(t, owner);
    await importFile(l.id, "import-apply", textOf("full-required-default-false.json"));
    const detail = (await t.req("GET", `/api/v1/lists/${l.id}`, { user: owner })).body;
    expect(detail.mods_required_by_default).toBe(false);
    expect(detail.server_config).toBe("imported");
    expect(detail.items.map((i: any) => [i.workshop_id, i.required, i.required_stated])).toEqual([
      ["59727DAE364DEADB", true, true],
      ["5965550F24A0C152", false, null],
      ["591AF5BDA9F7CE8B", false, null],
    ]);
    // Editing one: stated false, then back to the default.
    const put = await t.req("PUT", `/api/v1/lists/${l.id}/mods/59727DAE364DEADB/required`, { user: owner, body: { required: false } });
    expect(put.status).toBe(204);
    let mods = (await exportGame(l.id)).body.game.mods;
    expect(mods[0]).toEqual({ modId: "59727DAE364DEADB", name: "WCS_Core", required: false });
    await t.req("PUT", `/api/v1/lists/${l.id}/mods/59727DAE364DEADB/required`, { user: owner, body: { required: null } });
    mods = (await exportGame(l.id)).body.game.mods;
    expect(mods[0]).toEqual({ modId: "59727DAE364DEADB", name: "WCS_Core" });
    const audit = (await t.req("GET", `/api/v1/lists/${l.id}/audit`, { user: owner })).body;
    expect(audit[0]).toMatchObject({ action: "update_required", old_value: { required: false }, new_value: { required: null } });
    expect((await t.req("POST", `/api/v1/lists/${l.id}/audit/${audit[0].id}/revert`, { user: owner })).status).toBe(200);
    expect((await exportGame(l.id)).body.game.mods[0]).toEqual({ modId: "59727DAE364DEADB", name: "WCS_Core", required: false });
    expect((await t.req("PUT", `/api/v1/lists/${l.id}/mods/59727DAE364DEADB/required`, { user: owner, body: { required: "yes" } })).status).toBe(400);
    expect((await t.req("PUT", `/api/v1/lists/${l.id}/mods/59727DAE364DEADB/required`, { user: reader, body: { required: true } })).status).toBe(404);
  });

  test("export/game of a list without a config does not make optional mods required; the fragment export says required: false", async () => {
    const l = await makeList(t, owner);
    await importFile(l.id, "import-apply", textOf("mod-manager-preset.json"));
    const game = await exportGame(l.id);
    expect(game.headers.get("x-loadout-config")).toBe("defaults");
    expect(game.body.game.modsRequiredByDefault).toBe(true);
    expect(game.body.game.mods).toEqual([
      { modId: "59727DAE364DEADB", name: "WCS_Core", version: "1.0.42" },
      { modId: "5AAF6D5352E5FCAB", name: "M1 Abrams" },
      { modId: "591AF5BDA9F7CE8B", name: "Capture & Hold", required: false },
    ]);
    const frag = (await t.req("GET", `/api/v1/lists/${l.id}/export`, { user: owner })).body;
    expect(frag.game.mods[2]).toEqual({ modId: "591AF5BDA9F7CE8B", name: "Capture & Hold", required: false });
  });

  test("a changed required flag is a change in the preview and is applied", async () => {
    const l = await makeList(t, owner);
    await importFile(l.id, "import-apply", textOf("mod-manager-preset.json"));
    const changed = textOf("mod-manager-preset.json").replace('"required": false', '"required": true');
    const p = await importFile(l.id, "import-preview", changed);
    expect(p.body.required_changed).toEqual([{ workshop_id: "591AF5BDA9F7CE8B", name: "Capture & Hold", old_required: false, new_required: true }]);
    expect(p.body.unchanged.map((u: any) => u.modId)).toEqual(["59727DAE364DEADB", "5AAF6D5352E5FCAB"]);
    const a = await importFile(l.id, "import-apply", changed);
    expect(a.status).toBe(200);
    expect((await importFile(l.id, "import-preview", changed)).body.required_changed).toEqual([]);
  });
});

describe("a remembered config", () => {
  test("secrets are sealed at rest, never shown, written back only for owners", async () => {
    const l = await makeList(t, owner, { is_public: true });
    await importFile(l.id, "import-apply", textOf("full-commented.json"));
    const row = t.deps.sqlite.query("SELECT settings_json, secrets, document FROM list_server_configs WHERE list_id = ?").get(l.id) as any;
    // The whole file is kept sealed; the clear copy beside it has every secret null.
    expect(row.document).toStartWith("v1.");
    expect(row.secrets).toBeNull();
    for (const secret of ["rcon-Secret-42", "hunter2-admin"]) {
      expect(row.settings_json).not.toContain(secret);
      expect(row.document).not.toContain(secret);
    }
    const view = await t.req("GET", `/api/v1/lists/${l.id}/server-config`, { user: owner });
    expect(view.status).toBe(200);
    expect(view.text).not.toContain("rcon-Secret-42");
    expect(view.text).not.toContain("hunter2-admin");
    expect(view.body.source).toBe("imported");
    expect(view.body.secrets).toEqual([
      { path: "rcon.password", set: true },
      { path: "game.password", set: false },
      { path: "game.passwordAdmin", set: true },
    ]);
    expect(view.body.settings.game.maxPlayers).toBe(96);
    expect(view.body.settings.game.mods).toBeUndefined();
    // A reader of the public list gets the config without the secrets, and is told so.
    const pub = await exportGame(l.id, reader);
    expect(pub.status).toBe(200);
    expect(pub.headers.get("x-loadout-secrets")).toBe("withheld");
    expect(pub.body.rcon.password).toBe("");
    expect(pub.body.game.passwordAdmin).toBe("");
    expect(pub.body.game.scenarioId).toBe("{C41618FD18E9D714}Missions/23_Campaign_Arland.conf");
    expect((await exportGame(l.id)).body.rcon.password).toBe("rcon-Secret-42");
    expect((await t.req("GET", `/api/v1/lists/${l.id}/server-config`, { user: reader })).status).toBe(403);
  });

  test("the settings page edits settings and write-only secrets; the export follows", async () => {
    const l = await makeList(t, owner);
    await importFile(l.id, "import-apply", textOf("full-commented.json"));
    const view = (await t.req("GET", `/api/v1/lists/${l.id}/server-config`, { user: owner })).body;
    view.settings.game.maxPlayers = 48;
    const put = await t.req("PUT", `/api/v1/lists/${l.id}/server-config`, {
      user: owner,
      body: { settings: view.settings, secrets: { "game.password": "join-me", "rcon.password": null } },
    });
    expect(put.status).toBe(200);
    expect(put.text).not.toContain("join-me");
    expect(put.body.secrets).toEqual([
      { path: "rcon.password", set: false },
      { path: "game.password", set: true },
      { path: "game.passwordAdmin", set: true },
    ]);
    const out = (await exportGame(l.id)).body;
    expect(out.game.maxPlayers).toBe(48);
    expect(out.game.password).toBe("join-me");
    expect(out.game.passwordAdmin).toBe("hunter2-admin");
    expect(out.rcon.password).toBe("");
    // mods stay where the file had them
    expect(Object.keys(out.game)).toEqual(Object.keys(parsedOf("full-commented.json").game));
    const bad = await t.req("PUT", `/api/v1/lists/${l.id}/server-config`, { user: owner, body: { secrets: { "game.name": "x" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("secrets: game.name is not a password-like key of the settings");
    // Forgetting it: export writes the documented defaults and says so.
    expect((await t.req("DELETE", `/api/v1/lists/${l.id}/server-config`, { user: owner })).status).toBe(204);
    const defaults = await exportGame(l.id);
    expect(defaults.headers.get("x-loadout-config")).toBe("defaults");
    expect(defaults.body.game.maxPlayers).toBe(64);
  });

  test("a fragment import keeps the remembered config; a full config's changes show in the preview", async () => {
    const l = await makeList(t, owner);
    await importFile(l.id, "import-apply", textOf("full-commented.json"));
    await importFile(l.id, "import-apply", textOf("fragment-mods.txt"));
    expect((await exportGame(l.id)).body.game.scenarioId).toBe("{C41618FD18E9D714}Missions/23_Campaign_Arland.conf");
    const changed = textOf("full-commented.json").replace('"maxPlayers": 96', '"maxPlayers": 90').replace("rcon-Secret-42", "new-rcon");
    const p = await importFile(l.id, "import-preview", changed);
    expect(p.body.config_changes).toEqual(["game.maxPlayers", "rcon.password"]);
    expect(p.text).not.toContain("new-rcon");
  });
});

describe("problems named at once", () => {
  test("every stale pin in one preview, each resolved in one apply", async () => {
    const l = await makeList(t, owner);
    const file = textOf("full-stale-pins.json");
    const p = await importFile(l.id, "import-preview", file);
    expect(p.status).toBe(200);
    expect(p.body.stale_pins.map((s: any) => [s.entry, s.workshop_id, s.version, s.resolution])).toEqual([
      ["game.mods[0]", "59727DAE364DEADB", "0.9.1", null],
      ["game.mods[1]", "5965550F24A0C152", "1.0.0", null],
      ["game.mods[2]", "591AF5BDA9F7CE8B", "0.0.7", null],
      ["game.mods[3]", "5AAF6D5352E5FCAB", "1.9.9", null],
      ["game.mods[4]", "606B100247F5C709", "0.5.0", null],
    ]);
    const refused = await importFile(l.id, "import-apply", file);
    expect(refused.status).toBe(400);
    for (const v of ["0.9.1", "1.0.0", "0.0.7", "1.9.9", "0.5.0"]) expect(refused.body.error).toContain(v);
    const resolve = "?resolve=59727DAE364DEADB:unpinned,5965550F24A0C152:unpinned,591AF5BDA9F7CE8B:skip,5AAF6D5352E5FCAB:unpinned,606B100247F5C709:skip";
    const p2 = await importFile(l.id, "import-preview", file, resolve);
    expect(p2.body.stale_pins.map((s: any) => s.resolution)).toEqual(["unpinned", "unpinned", "skip", "unpinned", "skip"]);
    expect(p2.body.added.map((a: any) => [a.workshop_id, a.version])).toEqual([
      ["59727DAE364DEADB", "9.0.0"],
      ["5965550F24A0C152", "9.0.0"],
      ["5AAF6D5352E5FCAB", "9.0.0"],
    ]);
    const applied = await importFile(l.id, "import-apply", file, resolve);
    expect(applied.status).toBe(200);
    expect(applied.body.added).toBe(4); // three resolved plus the mod the catalog never saw
    const items = (await t.req("GET", `/api/v1/lists/${l.id}`, { user: owner })).body.items;
    expect(items.map((i: any) => [i.workshop_id, i.pinned_version])).toEqual([
      ["59727DAE364DEADB", null],
      ["5965550F24A0C152", null],
      ["5AAF6D5352E5FCAB", null],
      ["61E1A1D3C0FFEE01", "3.2.1"],
    ]);
    const wrong = await importFile(l.id, "import-preview", file, "?resolve=59727DAE364DEADB:maybe");
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toContain("resolve");
  });

  test("comments and trailing commas are accepted and the preview says so; other errors name line and column", async () => {
    const l = await makeList(t, owner);
    const p = await importFile(l.id, "import-preview", textOf("full-commented.json"));
    expect(p.status).toBe(200);
    expect(p.body.notes).toContain("4 comments and 9 trailing commas were ignored");
    const bad = await importFile(l.id, "import-preview", textOf("syntax-missing-comma.json"));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toStartWith('invalid JSON: line 5, column 5: expected , or } after the value of "maxPlayers", found "scenarioId"');
    const none = await importFile(l.id, "import-preview", textOf("full-no-mods.json"));
    expect(none.status).toBe(200);
    expect(none.body.notes).toContain('the file has no "game.mods": it imports as an empty list');
  });

  test("UTF-16 with a BOM is read; bytes in no encoding we read are refused by name", async () => {
    const l = await makeList(t, owner);
    const p = await importFile(l.id, "import-preview", bytesOf("full-utf16le-bom.json"));
    expect(p.status).toBe(200);
    expect(p.body.added.map((a: any) => a.workshop_id)).toEqual(["5965550F24A0C152", "591AF5BDA9F7CE8B"]);
    const broken = await importFile(l.id, "import-preview", new Uint8Array([0x7b, 0xc3, 0x28, 0x7d]));
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe("the file is neither UTF-8 nor UTF-16 with a byte order mark; save it as UTF-8");
  });
});
