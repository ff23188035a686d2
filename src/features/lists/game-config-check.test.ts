// What the game refuses (docs/lists.md "What the game refuses"): the corpus of
// test/fixtures/server-configs gives no fatal finding; variants of it give exactly the finding
// they were made for, at the exact place; a rename fix changes the key's token and nothing else.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkGameConfig, editDistance, suggest, type ConfigIssue } from "./game-config-check";
import { formatPath, parsePath, renameKeyFix } from "./game-config-paths";

const dir = join(import.meta.dir, "../../../test/fixtures/server-configs");
/** A fixture as text, as the import hands it over (UTF-16 decoded; a UTF-8 BOM kept). */
function fixture(name: string): string {
  const b = new Uint8Array(readFileSync(join(dir, name)));
  return b[0] === 0xff && b[1] === 0xfe ? new TextDecoder("utf-16le").decode(b.subarray(2)) : new TextDecoder("utf-8", { ignoreBOM: true }).decode(b);
}

/** Every full config of the corpus (strict JSON and JSONC, BOMs, UTF-16, tabs, placeholders). */
const FULL = [
  "full-commented.json",
  "full-required-default-false.json",
  "full-stale-pins.json",
  "full-no-mods.json",
  "full-140-mods.json",
  "full-utf8-bom.json",
  "full-utf16le-bom.json",
  "panel-egg-template.json",
];

/** The base of the variants: JSONC with comments and trailing commas, as people keep it. */
const base = fixture("full-commented.json");

/** `text` with its one occurrence of `from` replaced. */
function edit(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  expect(at).toBeGreaterThanOrEqual(0);
  expect(text.indexOf(from, at + 1)).toBe(-1);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** 1-based line and column of `offset`, counted independently of the module (a leading BOM is not a column). */
function place(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lines = before.split(/\r\n|\r|\n/);
  const last = lines[lines.length - 1]!;
  const column = last.length + 1 - (lines.length === 1 && text.startsWith("\uFEFF") && offset > 0 ? 1 : 0);
  return { line: lines.length, column };
}

/** The one finding of a variant (and that it sits where its token is). */
function only(text: string, kind?: ConfigIssue["kind"]): ConfigIssue {
  const issues = checkGameConfig(text);
  expect(issues.map((i) => `${i.kind} ${i.path}`)).toHaveLength(1);
  const [issue] = issues;
  if (kind) expect(issue!.kind).toBe(kind);
  expect({ line: issue!.line, column: issue!.column }).toEqual(place(text, issue!.offset));
  return issue!;
}

const token = (text: string, i: ConfigIssue) => text.slice(i.offset, i.offset + i.length);

/** The fix's edit touches the key's token only: before and after agree byte for byte outside it. */
function expectOnlyKeyChanged(before: string, after: string, issue: ConfigIssue) {
  const { offset, length } = issue;
  const replacement = JSON.stringify(issue.fix!.to);
  expect(after.length).toBe(before.length - length + replacement.length);
  expect(after.slice(0, offset)).toBe(before.slice(0, offset));
  expect(after.slice(offset, offset + replacement.length)).toBe(replacement);
  expect(after.slice(offset + replacement.length)).toBe(before.slice(offset + length));
}

describe("the corpus", () => {
  test.each(FULL)("%s: no fatal finding (in fact none at all)", (name) => {
    const issues = checkGameConfig(fixture(name));
    expect(issues.filter((i) => i.fatal)).toEqual([]);
    expect(issues).toEqual([]);
  });

  test("the same configs re-read as strict JSON (comments and trailing commas removed) give none either", () => {
    const strict = base.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "").replace(/,(\s*[}\]])/g, "$1");
    expect(() => JSON.parse(strict)).not.toThrow();
    expect(checkGameConfig(strict)).toEqual([]);
  });

  test("comments and trailing commas are not findings; bad syntax and non-configs give nothing", () => {
    expect(checkGameConfig('{ "game": { "maxPlayers": 10, }, /* c */ } // end')).toEqual([]);
    expect(checkGameConfig(fixture("syntax-missing-comma.json"))).toEqual([]);
    expect(checkGameConfig('{"maxplayers": 1}}')).toEqual([]);
    expect(checkGameConfig('{"maxplayers": ')).toEqual([]);
    expect(checkGameConfig("")).toEqual([]);
    expect(checkGameConfig("[1, 2]")).toEqual([]);
    expect(checkGameConfig('"text"')).toEqual([]);
  });

  test("hostile nesting does not throw", () => {
    const deep = (n: number) => `{"game": {"gameProperties": {"missionHeader": {"x": ${"[".repeat(n)}1${"]".repeat(n)}}}}}`;
    expect(checkGameConfig(deep(5000))).toEqual([]);
    expect(() => checkGameConfig(deep(100000))).not.toThrow();
  });
});

describe("keys", () => {
  test("maxplayers: unknown, with maxPlayers suggested and a rename that restores the file", () => {
    const text = edit(base, '"maxPlayers": 96', '"maxplayers": 96');
    const issue = only(text, "unknown_key");
    expect(issue).toMatchObject({ path: "game.maxplayers", fatal: true, fix: { kind: "rename_key", from: "maxplayers", to: "maxPlayers", path: "game.maxplayers" } });
    expect(issue.message).toBe('game.maxplayers is not a key the game knows; did you mean "maxPlayers"?');
    expect(token(text, issue)).toBe('"maxplayers"');
    const fixed = renameKeyFix(text, issue.fix!);
    expectOnlyKeyChanged(text, fixed, issue);
    expect(fixed).toBe(base);
    expect(checkGameConfig(fixed)).toEqual([]);
  });

  test("bindAdress: unknown at the root, bindAddress suggested by edit distance", () => {
    const text = edit(base, '"bindAddress": "0.0.0.0"', '"bindAdress": "0.0.0.0"');
    const issue = only(text, "unknown_key");
    expect(issue.path).toBe("bindAdress");
    expect(issue.message).toContain('did you mean "bindAddress"?');
    expect(issue.fix).toEqual({ kind: "rename_key", from: "bindAdress", to: "bindAddress", path: "bindAdress" });
    expect(renameKeyFix(text, issue.fix!)).toBe(base);
  });

  test("a key nothing is near: unknown, no suggestion, no fix", () => {
    const text = edit(base, '"visible": true,', '"visible": true, "description": "Be nice",');
    const issue = only(text, "unknown_key");
    expect(issue.path).toBe("game.description");
    expect(issue.message).toBe("game.description is not a key the game knows in game (it refuses keys it does not know): remove it");
    expect(issue.fix).toBeUndefined();
  });

  test("an undocumented key the game refused (gameProperties.bandwidthLimit) is unknown", () => {
    const text = edit(base, '"fastValidation": true,', '"fastValidation": true, "bandwidthLimit": 150000,');
    expect(only(text, "unknown_key").path).toBe("game.gameProperties.bandwidthLimit");
  });

  test("a misspelt key whose right name is already set: no fix (a rename would duplicate it)", () => {
    const text = edit(base, '"maxPlayers": 96,', '"maxPlayers": 96, "maxplayers": 64,');
    const issue = only(text, "unknown_key");
    expect(issue.message).toContain("It is already set here: remove maxplayers");
    expect(issue.fix).toBeUndefined();
  });

  test("inside mod entries: modid and requried suggested; modID (the wiki's heading) accepted", () => {
    const text = edit(base, '{ "modId": "5965550F24A0C152", "name": "Where Am I" }', '{ "modid": "5965550F24A0C152", "name": "Where Am I", "requried": true }');
    const issues = checkGameConfig(text);
    expect(issues.map((i) => [i.path, i.fix?.to])).toEqual([
      ["game.mods[1].modid", "modId"],
      ["game.mods[1].requried", "required"],
    ]);
    let fixed = text;
    for (const i of [...issues].reverse()) fixed = renameKeyFix(fixed, i.fix!); // from the end: earlier offsets stay valid
    expect(checkGameConfig(fixed)).toEqual([]);
    expect(checkGameConfig(edit(base, '{ "modId": "5965550F24A0C152"', '{ "modID": "5965550F24A0C152"'))).toEqual([]);
  });

  test("maxPlayers twice: a duplicate (not fatal) naming which value which reader takes", () => {
    const text = edit(base, '"maxPlayers": 96,', '"maxPlayers": 32,\n    "visible": true,\n    "maxPlayers": 96,').replace('"visible": true,\n    "crossPlatform"', '"crossPlatform"');
    const issues = checkGameConfig(text);
    expect(issues).toHaveLength(1);
    const [issue] = issues;
    expect(issue).toMatchObject({ kind: "duplicate_key", path: "game.maxPlayers", fatal: false });
    expect(token(text, issue!)).toBe('"maxPlayers"');
    expect(text.indexOf('"maxPlayers": 96')).toBe(issue!.offset); // the second one is pointed at
    const first = place(text, text.indexOf('"maxPlayers": 32')).line;
    expect(issue!.message).toBe(`game.maxPlayers is written 2 times (on lines ${first} and ${first + 2}); keep one`);
    expect(issue!.detail).toContain(`finds the first: 32 (line ${first})`);
    expect(issue!.detail).toContain(`keep the last: 96 (line ${first + 2})`);
  });

  test("a duplicate whose values break the rules: both values are checked", () => {
    const text = edit(base, '"maxPlayers": 96,', '"maxPlayers": 500, "maxPlayers": 96,');
    expect(checkGameConfig(text).map((i) => `${i.kind} ${i.path}`)).toEqual(["out_of_range game.maxPlayers", "duplicate_key game.maxPlayers"]);
  });

  test("gameHostBindAddress: legacy, its current name given, a rename fix", () => {
    const text = edit(base, '"bindAddress": "0.0.0.0"', '"gameHostBindAddress": "0.0.0.0"');
    const issue = only(text, "legacy_key");
    expect(issue).toMatchObject({ path: "gameHostBindAddress", fatal: true, fix: { from: "gameHostBindAddress", to: "bindAddress", path: "gameHostBindAddress" } });
    expect(issue.message).toBe("gameHostBindAddress is the name the game used before 0.9.8.73; it is bindAddress now (the old name is refused)");
    const fixed = renameKeyFix(text, issue.fix!);
    expectOnlyKeyChanged(text, fixed, issue);
    expect(fixed).toBe(base);
  });

  test("legacy keys that moved or went: where they live now, no rename", () => {
    const admin = only(edit(base, '"bindPort": 2302,', '"bindPort": 2302, "adminPassword": "x",'), "legacy_key");
    expect(admin.message).toContain("game.passwordAdmin");
    expect(admin.fix).toBeUndefined();
    const query = checkGameConfig(edit(base, '"bindPort": 2302,', '"bindPort": 2302, "a2sQueryEnabled": true, "steamQueryPort": 17777,'));
    expect(query.map((i) => [i.kind, i.path])).toEqual([
      ["legacy_key", "a2sQueryEnabled"],
      ["legacy_key", "steamQueryPort"],
    ]);
    expect(query[1]!.message).toContain("a2s.port");
    const players = only(edit(base, '"maxPlayers": 96', '"playerCountLimit": 96'), "legacy_key");
    expect(players.fix).toMatchObject({ from: "playerCountLimit", to: "maxPlayers", path: "game.playerCountLimit" });
    expect(renameKeyFix(edit(base, '"maxPlayers": 96', '"playerCountLimit": 96'), players.fix!)).toBe(base);
    const types = only(edit(base, '"supportedPlatforms"', '"supportedGameClientTypes"'), "legacy_key");
    expect(types.fix?.to).toBe("supportedPlatforms");
    expect(only(edit(base, '"bindPort": 2302,', '"bindPort": 2302, "region": "EU",'), "legacy_key").message).toContain("remove it");
  });

  test("a legacy key beside its current name: no rename (it would duplicate), remove it", () => {
    const issue = only(edit(base, '"bindPort": 2302,', '"bindPort": 2302, "gameHostBindPort": 2302,'), "legacy_key");
    expect(issue.fix).toBeUndefined();
    expect(issue.message).toContain("already sets: remove gameHostBindPort");
  });
});

describe("values", () => {
  test('battlEye: "true" is the wrong type; the game expects a boolean', () => {
    const text = edit(base, '"battlEye": false', '"battlEye": "true"');
    const issue = only(text, "wrong_type");
    expect(issue).toMatchObject({ path: "game.gameProperties.battlEye", fatal: true });
    expect(issue.message).toBe('game.gameProperties.battlEye must be a boolean (true or false), not a string ("true"): write true, without quotes');
    expect(token(text, issue)).toBe('"true"');
  });

  test('a number written as a string, null where a boolean belongs', () => {
    expect(only(edit(base, '"bindPort": 2302', '"bindPort": "2302"'), "wrong_type").message).toBe('bindPort must be a number, not a string ("2302"): write 2302, without quotes');
    expect(only(edit(base, '"visible": true', '"visible": null'), "wrong_type").message).toBe("game.visible must be a boolean (true or false), not null");
  });

  test("serverMinGrassDistance: 0 or 50..150 (10 is refused, as the server's log says)", () => {
    const at = (v: string) => checkGameConfig(edit(base, '"serverMinGrassDistance": 50', `"serverMinGrassDistance": ${v}`));
    const ten = at("10");
    expect(ten).toHaveLength(1);
    expect(ten[0]).toMatchObject({ kind: "out_of_range", path: "game.gameProperties.serverMinGrassDistance", fatal: true });
    expect(ten[0]!.message).toBe("game.gameProperties.serverMinGrassDistance is 10; the game accepts 0, or 50 to 150");
    for (const ok of ["0", "50", "150", "75.5", "50.0"]) expect(at(ok)).toEqual([]);
    for (const bad of ["49", "151", "-1", "1"]) expect(at(bad).map((i) => i.kind)).toEqual(["out_of_range"]);
  });

  test("ranges: ports, maxPlayers, view distances, maxClients, slotReservationTimeout, joinQueue", () => {
    const kinds = (text: string) => checkGameConfig(text).map((i) => `${i.kind} ${i.path}`);
    expect(kinds(edit(base, '"bindPort": 2302', '"bindPort": 0'))).toEqual(["out_of_range bindPort"]);
    expect(kinds(edit(base, '"port": 17778', '"port": 65536'))).toEqual(["out_of_range a2s.port"]);
    expect(kinds(edit(base, '"maxPlayers": 96', '"maxPlayers": 129'))).toEqual(["out_of_range game.maxPlayers"]);
    expect(kinds(edit(base, '"maxPlayers": 96', '"maxPlayers": 128'))).toEqual([]);
    expect(kinds(edit(base, '"serverMaxViewDistance": 2500', '"serverMaxViewDistance": 12000'))).toEqual([]);
    expect(kinds(edit(base, '"serverMaxViewDistance": 2500', '"serverMaxViewDistance": 12001'))).toEqual(["out_of_range game.gameProperties.serverMaxViewDistance"]);
    expect(kinds(edit(base, '"networkViewDistance": 1500', '"networkViewDistance": 499'))).toEqual(["out_of_range game.gameProperties.networkViewDistance"]);
    expect(kinds(edit(base, '"slotReservationTimeout": 60', '"slotReservationTimeout": 4'))).toEqual(["out_of_range operating.slotReservationTimeout"]);
    expect(kinds(edit(base, '"joinQueue": { "maxSize": 20 }', '"joinQueue": { "maxSize": 51 }'))).toEqual(["out_of_range operating.joinQueue.maxSize"]);
    expect(kinds(edit(base, '"permission": "admin",', '"permission": "admin", "maxClients": 17,'))).toEqual(["out_of_range rcon.maxClients"]);
  });

  test("numbers written with a fraction (3000.0, -1.0) are accepted: no source says the game refuses them", () => {
    const text = edit(edit(base, '"serverMaxViewDistance": 2500', '"serverMaxViewDistance": 3000.0'), '"aiLimit": 120', '"aiLimit": -1.0');
    expect(checkGameConfig(text)).toEqual([]);
  });

  test("a scenarioId not of the form {GUID}path.conf", () => {
    const text = edit(base, '"{C41618FD18E9D714}Missions/23_Campaign_Arland.conf"', '"{C41618FD18E9D714}Missions/23_Campaign_Arland.conf (Conflict)"');
    const issue = only(text, "pattern");
    expect(issue.path).toBe("game.scenarioId");
    expect(issue.message).toContain("{16 hexadecimal digits}path.conf");
    for (const bad of ["Missions/23_Campaign.conf", "{C41618FD18E9D71}Missions/x.conf", "", "{C41618FD18E9D714}Missions/x.ent"]) {
      expect(checkGameConfig(edit(base, '"{C41618FD18E9D714}Missions/23_Campaign_Arland.conf"', JSON.stringify(bad))).map((i) => i.kind)).toEqual(["pattern"]);
    }
    expect(checkGameConfig(edit(base, '"{C41618FD18E9D714}Missions/23_Campaign_Arland.conf"', '"{6DD58790690E9D29}Missions/ConflictPVERemixedVanilla2_US.conf"'))).toEqual([]);
  });

  test("admins written as numbers: the game expects strings", () => {
    const text = edit(base, '"admins": ["76561198000000001", "c95e89f2-0000-4f72-927a-000000000001"]', '"admins": [12345, "c95e89f2-0000-4f72-927a-000000000001"]');
    const issue = only(text, "wrong_type");
    expect(issue.path).toBe("game.admins[0]");
    expect(issue.message).toBe('game.admins[0] must be a string (an IdentityId or a SteamID, in quotes), not the number 12345: write it in quotes, "12345"');
    expect(token(text, issue)).toBe("12345");
  });

  test("an admin written as an unsafe integer: wrong type, and not read exactly (not fatal on its own)", () => {
    const text = edit(base, '"admins": ["76561198000000001",', '"admins": [76561198200329058,');
    const issues = checkGameConfig(text);
    expect(issues.map((i) => [i.kind, i.path, i.fatal])).toEqual([
      ["wrong_type", "game.admins[0]", true],
      ["unsafe_integer", "game.admins[0]", false],
    ]);
    expect(issues[0]!.message).toContain('write it in quotes, "76561198200329058"');
    expect(issues[1]!.message).toBe(
      'game.admins[0] is the number 76561198200329058, an integer larger than JavaScript reads exactly (it becomes 76561198200329060); ids such as admins must be written as strings: "76561198200329058"',
    );
    expect(token(text, issues[1]!)).toBe("76561198200329058");
  });

  test("unsafe integers anywhere are found from the number's text; safe ones and fractions are not", () => {
    const header = (v: string) => checkGameConfig(edit(base, '"m_iPlayerCount": 96', `"m_iPlayerCount": ${v}`));
    expect(header("9007199254740991")).toEqual([]);
    expect(header("9007199254740992").map((i) => [i.kind, i.path, i.fatal])).toEqual([["unsafe_integer", "game.gameProperties.missionHeader.m_iPlayerCount", false]]);
    expect(header("-76561198200329058").map((i) => i.kind)).toEqual(["unsafe_integer"]);
    expect(header("76561198200329058.000").map((i) => i.kind)).toEqual(["unsafe_integer"]);
    expect(header("76561198200329058.5")).toEqual([]);
    expect(header("1e300")).toEqual([]);
  });

  test("21 different admins are too many (20 since 1.3.0); 21 entries with a repeat are not", () => {
    const ids = Array.from({ length: 21 }, (_, i) => `"7656119800000${String(i).padStart(4, "0")}"`);
    const text = edit(base, '"admins": ["76561198000000001", "c95e89f2-0000-4f72-927a-000000000001"]', `"admins": [${ids.join(", ")}]`);
    const issue = only(text, "too_many");
    expect(issue).toMatchObject({ path: "game.admins", fatal: true });
    expect(issue.message).toBe("game.admins lists 21 different ids; the game accepts at most 20 (since 1.3.0)");
    expect(token(text, issue).startsWith("[")).toBe(true);
    const twenty = [...ids.slice(0, 20), ids[0]];
    expect(checkGameConfig(edit(base, '"admins": ["76561198000000001", "c95e89f2-0000-4f72-927a-000000000001"]', `"admins": [${twenty.join(", ")}]`))).toEqual([]);
  });

  test('permission: "root" is not a value the game accepts', () => {
    const text = edit(base, '"permission": "admin"', '"permission": "root"');
    const issue = only(text, "not_allowed_value");
    expect(issue.path).toBe("rcon.permission");
    expect(issue.message).toBe('rcon.permission is "root"; the game accepts "admin" or "monitor"');
    expect(token(text, issue)).toBe('"root"');
  });

  test("supportedPlatforms: PLATFORM_XBOX is not a platform name (PLATFORM_XBL is)", () => {
    const issue = only(edit(base, '"PLATFORM_XBL"', '"PLATFORM_XBOX"'), "not_allowed_value");
    expect(issue.path).toBe("game.supportedPlatforms[1]");
    expect(issue.message).toContain('did you mean "PLATFORM_XBL"?');
  });

  test("rcon.password: at least 3 characters, no spaces; passwordAdmin: no spaces; name: at most 100 characters", () => {
    expect(only(edit(base, '"rcon-Secret-42"', '"ab"'), "out_of_range").message).toBe("rcon.password is 2 characters long; the game needs at least 3");
    expect(only(edit(base, '"rcon-Secret-42"', '"rcon secret"'), "pattern").path).toBe("rcon.password");
    expect(only(edit(base, '"hunter2-admin"', '"hunter2 admin"'), "pattern").path).toBe("game.passwordAdmin");
    expect(only(edit(base, '"[EU] Everon Nights | Conflict | Modded"', JSON.stringify("x".repeat(101))), "out_of_range").path).toBe("game.name");
    expect(checkGameConfig(edit(base, '"[EU] Everon Nights | Conflict | Modded"', JSON.stringify("é".repeat(100))))).toEqual([]);
  });

  test("disableNavmeshStreaming: an array of names, or a boolean as before 1.2.0", () => {
    expect(checkGameConfig(edit(base, '"disableNavmeshStreaming": []', '"disableNavmeshStreaming": ["Soldiers", "BTRlike"]'))).toEqual([]);
    expect(checkGameConfig(edit(base, '"disableNavmeshStreaming": []', '"disableNavmeshStreaming": true'))).toEqual([]);
    expect(only(edit(base, '"disableNavmeshStreaming": []', '"disableNavmeshStreaming": "all"'), "wrong_type").path).toBe("operating.disableNavmeshStreaming");
  });

  test("missionHeader is free-form; persistence is checked as the wiki documents it (databases free-form)", () => {
    expect(checkGameConfig(edit(base, '"m_eDefaultGameFlags": 6,', '"m_eDefaultGameFlags": 6, "anything": {"goes": [1, "x"]},'))).toEqual([]);
    const withPersistence = (p: string) => edit(base, '"missionHeader": {', `"persistence": ${p}, "missionHeader": {`);
    expect(checkGameConfig(withPersistence('{ "autoSaveInterval": 10, "hiveId": 0, "databases": { "MyDb": { "preset": "x", "options": { "a": 1 } } } }'))).toEqual([]);
    expect(checkGameConfig(withPersistence('{ "autoSaveInterval": 61 }')).map((i) => `${i.kind} ${i.path}`)).toEqual(["out_of_range game.gameProperties.persistence.autoSaveInterval"]);
    expect(checkGameConfig(withPersistence('{ "hiveID": 1 }'))[0]).toMatchObject({ kind: "unknown_key", fix: { to: "hiveId" } });
  });

  test("null is accepted for the optional sections a2s, rcon and operating, nowhere else", () => {
    const text = edit(base, '"a2s": {\n    "address": "0.0.0.0",\n    "port": 17778,\n  },', '"a2s": null,');
    expect(checkGameConfig(text)).toEqual([]);
    expect(only(edit(base, '"joinQueue": { "maxSize": 20 }', '"joinQueue": null'), "wrong_type").path).toBe("operating.joinQueue");
  });
});

describe("places in the text", () => {
  test("CRLF, a BOM and leading blank lines: line and column count every line, the BOM is not a column", () => {
    const text = "\uFEFF\r\n\r\n\n{\r\n  \"game\": {\r\n\t\"maxplayers\": 64,\r\n    \"visible\": \"yes\"\r\n  }\r\n}\r\n";
    const issues = checkGameConfig(text);
    expect(issues.map((i) => ({ kind: i.kind, path: i.path, line: i.line, column: i.column, token: token(text, i) }))).toEqual([
      { kind: "unknown_key", path: "game.maxplayers", line: 6, column: 2, token: '"maxplayers"' },
      { kind: "wrong_type", path: "game.visible", line: 7, column: 16, token: '"yes"' },
    ]);
    const fixed = renameKeyFix(text, issues[0]!.fix!);
    expectOnlyKeyChanged(text, fixed, issues[0]!);
    expect(fixed.startsWith("\uFEFF\r\n\r\n\n{")).toBe(true);
    expect(checkGameConfig(fixed).map((i) => i.kind)).toEqual(["wrong_type"]);
  });

  test("a BOM before a key on line 1: the offset counts it, the column does not", () => {
    const text = '\uFEFF{"bindport": 1}';
    const [issue] = checkGameConfig(text);
    expect(issue).toMatchObject({ path: "bindport", line: 1, column: 2, offset: 2, length: 10 });
    expect(renameKeyFix(text, issue!.fix!)).toBe('\uFEFF{"bindPort": 1}');
  });

  test("a key written in the wrong object: where it belongs (no rename: it is a move)", () => {
    const text = edit(base, '"bindPort": 2302,', '"bindPort": 2302, "maxplayers": 10,');
    const issue = only(text, "unknown_key");
    expect(issue.path).toBe("maxplayers");
    expect(issue.message).toBe('maxplayers is not a key the game knows at the top level (it refuses keys it does not know); "maxPlayers" belongs in game: move it there');
    expect(issue.fix).toBeUndefined();
    expect(only(edit(base, '"fastValidation": true,', '"fastValidation": true, "joinQueue": {},'), "unknown_key").message).toContain('"joinQueue" belongs in operating');
  });

  test("a lone CR ends a line too", () => {
    const [issue] = checkGameConfig('{\r"maxplayers": 1\r}');
    expect({ line: issue!.line, column: issue!.column }).toEqual({ line: 2, column: 1 });
  });

  test("the UTF-8 BOM + CRLF fixture with a typo: exact place", () => {
    const text = edit(fixture("full-utf8-bom.json"), '"maxPlayers": 40', '"maxPlayer": 40');
    const issue = only(text, "unknown_key");
    expect({ line: issue.line, column: issue.column }).toEqual({ line: 5, column: 5 });
    expect(issue.fix?.to).toBe("maxPlayers");
    expect(renameKeyFix(text, issue.fix!)).toBe(fixture("full-utf8-bom.json"));
  });

  test("every finding of a file full of mistakes points at its own token", () => {
    const text = edit(
      edit(edit(edit(base, '"battlEye": false', '"battlEye": 0'), '"bindPort": 2302', '"bindport": 2302'), '"permission": "admin"', '"permission": "Admin"'),
      '"maxPlayers": 96',
      '"maxPlayers": 0',
    );
    const issues = checkGameConfig(text);
    expect(issues.map((i) => [i.kind, token(text, i)])).toEqual([
      ["unknown_key", '"bindport"'],
      ["not_allowed_value", '"Admin"'],
      ["out_of_range", "0"],
      ["wrong_type", "0"],
    ]);
    for (const i of issues) expect({ line: i.line, column: i.column }).toEqual(place(text, i.offset));
    expect(issues[1]!.message).toContain('did you mean "admin"?');
  });
});

describe("renameKeyFix", () => {
  test("every other byte unchanged: comments, trailing commas, number text, tabs and CRLF stay", () => {
    const original = '// head\r\n{\r\n\t"game": { /* c */ "mods": [ { "modid": "5965550F24A0C152", "big": 76561198200329058, "f": 3000.0, }, ], },\r\n}\r\n';
    const [issue] = checkGameConfig(original).filter((i) => i.kind === "unknown_key" && i.fix);
    expect(issue!.path).toBe("game.mods[0].modid");
    const fixed = renameKeyFix(original, issue!.fix!);
    expectOnlyKeyChanged(original, fixed, issue!);
    expect(fixed).toBe(original.replace('"modid"', '"modId"'));
  });

  test("a key written with escapes is replaced whole; a stale fix leaves the text as it is", () => {
    const text = '{"game": {"max\\u0070layers": 1}}';
    const [issue] = checkGameConfig(text);
    expect(issue!.fix).toMatchObject({ from: "maxplayers", to: "maxPlayers", path: "game.maxplayers" });
    expect(renameKeyFix(text, issue!.fix!)).toBe('{"game": {"maxPlayers": 1}}');
    expect(renameKeyFix('{"game": {"maxPlayers": 1}}', issue!.fix!)).toBe('{"game": {"maxPlayers": 1}}');
    expect(renameKeyFix(text, { kind: "rename_key", from: "other", to: "x", path: "game.other" })).toBe(text);
    expect(renameKeyFix("{ not json", issue!.fix!)).toBe("{ not json");
  });

  test("keys that are not plain names round-trip through the path text", () => {
    const text = '{"game": {"odd key.[x]": 1}}';
    const [issue] = checkGameConfig(text);
    expect(issue!.path).toBe('game["odd key.[x]"]');
    expect(parsePath(issue!.path)).toEqual(["game", "odd key.[x]"]);
    expect(renameKeyFix(text, { kind: "rename_key", from: "odd key.[x]", to: "name", path: issue!.path })).toBe('{"game": {"name": 1}}');
  });
});

describe("suggestions", () => {
  test("case first, then Damerau-Levenshtein (a transposition is one edit), tighter for short keys", () => {
    expect(suggest("MAXPLAYERS", ["maxPlayers", "visible"])).toEqual(["maxPlayers"]);
    expect(suggest("prot", ["address", "port"])).toEqual(["port"]);
    expect(suggest("potr", ["address", "port"])).toEqual(["port"]); // one transposition
    expect(suggest("pt", ["address", "port"])).toEqual([]); // two edits from a 4-letter key
    expect(suggest("battleye", ["battlEye"])).toEqual(["battlEye"]);
    expect(suggest("batleEye", ["battlEye"])).toEqual(["battlEye"]);
    expect(suggest("serverMaxViewDistanc", ["serverMaxViewDistance", "serverMinGrassDistance"])).toEqual(["serverMaxViewDistance"]);
    expect(suggest("xyz", ["bindAddress"])).toEqual([]);
    expect(editDistance("ca", "abc")).toBe(3);
    expect(editDistance("bindAdress", "bindaddress".replace("a", "A"))).toBe(1);
  });

  test("paths: brackets for indexes and odd keys", () => {
    expect(formatPath(["game", "admins", 2])).toBe("game.admins[2]");
    expect(formatPath(["maxplayers"])).toBe("maxplayers");
    expect(parsePath("game.mods[12].modId")).toEqual(["game", "mods", 12, "modId"]);
    expect(parsePath("game..x")).toBeNull();
  });
});
