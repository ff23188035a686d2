// The remembered server config as a document (docs/lists.md "What a file says is kept"): edited,
// never rewritten; its secrets unguessable by members; every change of it audited by key and
// undoable; a mods-only file leaves it alone; a full config replaces it only when an owner says so.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";
import { makeList, seedMods } from "../../../test/lists-kit";
import { outsideMods } from "../../../test/config-text";

const dir = join(import.meta.dir, "../../../test/fixtures/server-configs");
const textOf = (name: string) => readFileSync(join(dir, name), "utf8");

let t: TestApp;
let owner: TestUser;
let collaborator: TestUser;

const A = "5965550F24A0C152";
const B = "591AF5BDA9F7CE8B";
const C = "59727DAE364DEADB";

/** A config as people publish them: 4-space indent, numbers written their way, an id as a number, a `"version": ""`, `name` before `modId`. */
const TUNED = `{
    "bindAddress": "0.0.0.0",
    "bindPort": 2001,
    "rcon": { "address": "0.0.0.0", "port": 19999, "password": "rcon-right", "permission": "admin" },
    "game": {
        "name": "Tuned for years",
        "password": "",
        "passwordAdmin": "admin-right",
        "admins": [76561198200329058, "76561198000000001"],
        "scenarioId": "{ECC61978EDCC2B5A}Missions/23_Campaign.conf",
        "maxPlayers": 64,
        "gameProperties": { "serverMaxViewDistance": 3000.0, "networkViewDistance": 1500, "battlEye": true },
        "mods": [
            { "name": "Enhanced Weapon Immersion 2.6", "modId": "${A}", "version": "" },
            { "name": "Capture and Hold", "modId": "${B}", "version": "1.0.0" }
        ]
    },
    "operating": { "aiLimit": -1.0, "lobbyPlayerSynchronise": true }
}
`;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ display_name: "Owner" });
  collaborator = await t.createUser({ display_name: "Collab" });
  seedMods(t, [
    { id: A, name: "BetterWeaponImmersion", version: "2.6.0", versions: ["2.6.0"] },
    { id: B, name: "CaptureHold", version: "1.1.0", versions: ["1.0.0", "1.1.0"] },
    { id: C, name: "WCS_Core", version: "1.0.42", versions: ["1.0.42"] },
  ]);
});
afterAll(() => t.close());

const text = { "content-type": "text/plain" };
const importAs = (user: TestUser, listId: string, step: "import-preview" | "import-apply", body: string, query = "") =>
  t.req("POST", `/api/v1/lists/${listId}/${step}${query}`, { user, raw: body, headers: text });
const exportGame = (listId: string, user: TestUser = owner) => t.req("GET", `/api/v1/lists/${listId}/export/game`, { user });
const audit = async (listId: string) => (await t.req("GET", `/api/v1/lists/${listId}/audit`, { user: owner })).body as any[];
const revert = (listId: string, entryId: string, user: TestUser = owner) => t.req("POST", `/api/v1/lists/${listId}/audit/${entryId}/revert`, { user });

async function listWithCollaborator() {
  const l = await makeList(t, owner);
  const add = await t.req("POST", `/api/v1/lists/${l.id}/collaborators`, { user: owner, body: { search: collaborator.email, can_add: true, can_remove: true } });
  expect(add.status).toBeLessThan(300);
  return l;
}

describe("secrets: nothing a member may not read is learnt from an answer", () => {
  test("a collaborator's preview says the same whether a guessed password is right or wrong", async () => {
    const l = await listWithCollaborator();
    expect((await importAs(owner, l.id, "import-apply", TUNED)).status).toBe(200);
    const right = await importAs(collaborator, l.id, "import-preview", TUNED);
    const wrong = await importAs(collaborator, l.id, "import-preview", TUNED.replace("admin-right", "guess-1").replace("rcon-right", "guess-2"));
    expect(right.status).toBe(200);
    expect(wrong.status).toBe(200);
    // Only the text the caller sent differs: the answers are the same.
    expect(wrong.body).toEqual(right.body);
    expect(right.body.config_changes).toEqual([]);
    expect(right.body.config).toMatchObject({ action: "keep", may_replace: false, secrets: [{ path: "rcon.password", state: "set_by_file" }, { path: "game.passwordAdmin", state: "set_by_file" }] });
    expect(right.body.notes).toContain("game.passwordAdmin: set by the file; the remembered value is kept unless an owner applies it");
    // An owner compares them (and still sees no value).
    const owners = await importAs(owner, l.id, "import-preview", TUNED.replace("admin-right", "guess-1"));
    expect(owners.body.config.secrets).toEqual([{ path: "game.passwordAdmin", state: "changed" }]);
    expect(owners.text).not.toContain("admin-right");
  });

  test("a collaborator's import applies the mods and keeps every remembered setting and secret; the owner's export is unchanged", async () => {
    const l = await listWithCollaborator();
    await importAs(owner, l.id, "import-apply", TUNED);
    const before = (await exportGame(l.id)).text;
    const theirs = TUNED.replace("admin-right", "collab-set").replace('"maxPlayers": 64', '"maxPlayers": 10');
    const r = await importAs(collaborator, l.id, "import-apply", theirs, "?config=replace");
    expect(r.status).toBe(200);
    expect((await exportGame(l.id)).text).toBe(before);
    expect((await audit(l.id)).filter((e) => e.action === "server_config" || e.new_value?.config)).toHaveLength(1); // the owner's first import only
  });

  test("the export for a non-owner writes every set secret empty, and says so", async () => {
    const l = await listWithCollaborator();
    await importAs(owner, l.id, "import-apply", TUNED);
    const theirs = await exportGame(l.id, collaborator);
    expect(theirs.headers.get("x-loadout-secrets")).toBe("withheld");
    expect(theirs.text).not.toContain("admin-right");
    expect(theirs.text).not.toContain("rcon-right");
    expect(theirs.text).toBe((await exportGame(l.id)).text.replace('"admin-right"', '""').replace('"rcon-right"', '""'));
  });
});

describe("edit, don't rewrite", () => {
  test("export/game is the file as written, with only game.mods edited; export → import → export is byte-identical", async () => {
    const l = await makeList(t, owner);
    expect((await importAs(owner, l.id, "import-apply", TUNED)).status).toBe(200);
    const out = (await exportGame(l.id)).text;
    // Nothing changed in the list: the file comes back byte for byte (numbers, "", name before modId, the person's names).
    expect(out).toBe(TUNED);
    // A mod added, one re-pinned: only those entries change; the others keep their text.
    await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: C } });
    await t.req("PUT", `/api/v1/lists/${l.id}/mods/${B}/version`, { user: owner, body: { version: "1.1.0" } });
    const edited = (await exportGame(l.id)).text;
    expect(outsideMods(edited)).toBe(outsideMods(TUNED));
    expect(edited).toContain(`{ "name": "Enhanced Weapon Immersion 2.6", "modId": "${A}", "version": "" },`);
    expect(edited).toContain(`{ "name": "Capture and Hold", "modId": "${B}", "version": "1.1.0" },`);
    expect(edited).toContain(`{ "name": "WCS_Core", "modId": "${C}", "version": "" }`);
    expect(edited).toContain("76561198200329058");
    expect(edited).toContain('"serverMaxViewDistance": 3000.0');
    expect(edited).toContain('"aiLimit": -1.0');
    // Its own export imported again changes nothing, and exports byte-identical.
    const again = await importAs(owner, l.id, "import-apply", edited, "?check_order=true");
    expect(again.body).toEqual({ ok: true, added: 0, removed: 0, version_changed: 0 });
    expect((await exportGame(l.id)).text).toBe(edited);
  });

  test("comments and trailing commas are dropped from what goes to the game, nothing else", async () => {
    const l = await makeList(t, owner);
    const commented = textOf("full-commented.json");
    await importAs(owner, l.id, "import-apply", commented, "?check_order=true");
    const out = (await exportGame(l.id)).text;
    expect(() => JSON.parse(out)).not.toThrow();
    const { strictJsonText } = await import("../../shared/json-edit");
    expect(out).toBe(strictJsonText(commented));
  });

  test("the settings page edits only the changed keys; a rounded SteamID from a browser keeps its digits", async () => {
    const l = await makeList(t, owner);
    await importAs(owner, l.id, "import-apply", TUNED);
    const view = (await t.req("GET", `/api/v1/lists/${l.id}/server-config`, { user: owner })).body;
    expect(view.settings.game.admins[0]).toBe(76561198200329058); // the exact digits on the wire
    // What a browser sends back after JSON.parse: the number rounded.
    const fromBrowser = JSON.parse(JSON.stringify(view.settings).replace("76561198200329058", "76561198200329060"));
    fromBrowser.game.maxPlayers = 48;
    const put = await t.req("PUT", `/api/v1/lists/${l.id}/server-config`, { user: owner, body: { settings: fromBrowser } });
    expect(put.status).toBe(200);
    expect((await exportGame(l.id)).text).toBe(TUNED.replace('"maxPlayers": 64', '"maxPlayers": 48'));
  });
});

describe("a mods-only file keeps the remembered config; a full config replaces it only when an owner asks", () => {
  test("the plain export re-imported changes the mods only", async () => {
    const l = await makeList(t, owner);
    await importAs(owner, l.id, "import-apply", TUNED);
    const plain = await t.req("GET", `/api/v1/lists/${l.id}/export`, { user: owner });
    const withoutB = JSON.stringify({ game: { mods: plain.body.game.mods.filter((m: any) => m.modId !== B) } }, null, 2);
    const p = await importAs(owner, l.id, "import-preview", withoutB);
    expect(p.body.config).toMatchObject({ file: "mods_only", remembered: true, action: "none" });
    expect(p.body.config_changes).toEqual([]);
    expect(p.body.notes).toContain("the file holds only mods: the list's remembered server settings are kept as they are");
    expect((await importAs(owner, l.id, "import-apply", withoutB)).status).toBe(200);
    const out = (await exportGame(l.id)).text;
    expect(outsideMods(out)).toBe(outsideMods(TUNED));
    expect(out).not.toContain(B);
    // Into a new list: nothing is said to be kept where nothing is.
    const fresh = await makeList(t, owner);
    const p2 = await importAs(owner, fresh.id, "import-preview", withoutB);
    expect(p2.body.notes.join(" ")).not.toContain("kept");
    expect(p2.body.config.action).toBe("none");
  });

  test("an owner's full config: kept unless config=replace, and the preview names in words what would be removed", async () => {
    const l = await makeList(t, owner);
    await importAs(owner, l.id, "import-apply", TUNED);
    const smaller = JSON.stringify({ game: { name: "Other", scenarioId: "{ECC61978EDCC2B5A}Missions/23_Campaign.conf", mods: [{ modId: A, name: "A" }] } }, null, 2);
    const keep = await importAs(owner, l.id, "import-preview", smaller);
    expect(keep.body.config.action).toBe("keep");
    expect(keep.body.config.removed).toEqual(expect.arrayContaining(["bindAddress", "bindPort", "rcon", "game.admins", "operating"]));
    expect(keep.body.notes.find((n: string) => n.includes("remembered settings are kept unless"))).toContain("which would remove");
    expect((await importAs(owner, l.id, "import-apply", smaller)).status).toBe(200);
    expect(outsideMods((await exportGame(l.id)).text)).toBe(outsideMods(TUNED));

    const replace = await importAs(owner, l.id, "import-preview", smaller, "?config=replace");
    expect(replace.body.config.action).toBe("replace");
    expect(replace.body.notes.find((n: string) => n.startsWith(`${replace.body.config.removed.length} remembered settings will be removed: `))).toBeDefined();
    expect((await importAs(owner, l.id, "import-apply", smaller, "?config=replace")).status).toBe(200);
    expect((await exportGame(l.id)).text).toBe(`${smaller}`);
    // One import entry names the keys (never a value) and is undone with the settings.
    const entry = (await audit(l.id))[0];
    expect(entry.action).toBe("import");
    expect(entry.new_value.config.keys).toEqual(expect.arrayContaining(["game.name", "rcon", "game.passwordAdmin"]));
    expect(JSON.stringify(entry)).not.toContain("admin-right");
    expect((await revert(l.id, entry.id)).status).toBe(200);
    expect((await exportGame(l.id)).text).toBe(TUNED.replace(`,\n            { "name": "Capture and Hold", "modId": "${B}", "version": "1.0.0" }`, ""));
  });
});

describe("every change of the remembered config is audited by key and can be undone", () => {
  test("settings page edit, secret change, forget: each an entry naming keys, never values; reverting restores", async () => {
    const l = await listWithCollaborator();
    await importAs(owner, l.id, "import-apply", TUNED);
    const put = await t.req("PUT", `/api/v1/lists/${l.id}/server-config`, { user: owner, body: { secrets: { "game.passwordAdmin": "new-admin" } } });
    expect(put.status).toBe(200);
    let entries = await audit(l.id);
    expect(entries[0]).toMatchObject({ action: "server_config", new_value: { change: "edited", keys: ["game.passwordAdmin"] } });
    expect(JSON.stringify(entries)).not.toContain("new-admin");
    expect(JSON.stringify(entries)).not.toContain("admin-right");
    // Only owners undo a config change (it puts secrets back).
    expect((await revert(l.id, entries[0].id, collaborator)).status).toBe(403);
    expect((await revert(l.id, entries[0].id)).status).toBe(200);
    expect((await exportGame(l.id)).text).toBe(TUNED);

    expect((await t.req("DELETE", `/api/v1/lists/${l.id}/server-config`, { user: owner })).status).toBe(204);
    entries = await audit(l.id);
    expect(entries[0]).toMatchObject({ action: "server_config", new_value: { change: "forgotten", config: null } });
    expect((await exportGame(l.id)).headers.get("x-loadout-config")).toBe("defaults");
    expect((await revert(l.id, entries[0].id)).status).toBe(200);
    expect((await exportGame(l.id)).text).toBe(TUNED);
    // A PUT that changes nothing writes nothing.
    const n = (await audit(l.id)).length;
    const same = (await t.req("GET", `/api/v1/lists/${l.id}/server-config`, { user: owner })).body.settings;
    expect((await t.req("PUT", `/api/v1/lists/${l.id}/server-config`, { user: owner, body: { settings: same } })).status).toBe(200);
    expect((await audit(l.id)).length).toBe(n);
  });

  test("the earlier configs an undo needs are sealed at rest", async () => {
    const l = await makeList(t, owner);
    await importAs(owner, l.id, "import-apply", TUNED);
    await t.req("PUT", `/api/v1/lists/${l.id}/server-config`, { user: owner, body: { secrets: { "game.passwordAdmin": "second" } } });
    const rows = t.deps.sqlite.query("SELECT document FROM list_server_config_revisions WHERE list_id = ?").all(l.id) as { document: string | null }[];
    expect(rows.length).toBe(2);
    for (const r of rows) if (r.document !== null) expect(r.document).not.toContain("admin-right");
  });
});

describe("what the game would refuse is named in the preview", () => {
  test("a typo with its suggestion, an unsafe integer where an id belongs; the import still works", async () => {
    const l = await makeList(t, owner);
    const typo = TUNED.replace('"maxPlayers": 64', '"maxplayers": 64');
    const p = await importAs(owner, l.id, "import-preview", typo);
    expect(p.status).toBe(200);
    const kinds = p.body.config.problems.map((x: any) => [x.kind, x.path, x.fatal]);
    expect(kinds).toContainEqual(["unknown_key", "game.maxplayers", true]);
    expect(kinds).toContainEqual(["unsafe_integer", "game.admins[0]", false]);
    const typoProblem = p.body.config.problems.find((x: any) => x.kind === "unknown_key");
    expect(typoProblem.message).toContain('did you mean "maxPlayers"');
    expect(typoProblem.fix).toEqual({ kind: "rename_key", from: "maxplayers", to: "maxPlayers", path: "game.maxplayers" });
    expect(typoProblem.line).toBe(11);
    expect((await importAs(owner, l.id, "import-apply", typo)).status).toBe(200);
  });
});
