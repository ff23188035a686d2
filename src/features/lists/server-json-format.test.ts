import { describe, expect, test } from "bun:test";
import {
  exportFileName,
  exportFragment,
  exportGameConfig,
  exportMods,
  ImportFormatError,
  parseImportBody,
  type ExportItem,
} from "./server-json-format";

const A = "5965550F24A0C152";
const B = "59727DAE364DEADB";

function errorOf(body: string): string {
  try {
    parseImportBody(body);
  } catch (e) {
    expect(e).toBeInstanceOf(ImportFormatError);
    return (e as Error).message;
  }
  throw new Error("expected parseImportBody to throw");
}

describe("parseImportBody: the four shapes", () => {
  const expected = [
    { workshop_id: A, name: "Where Am I", version: "1.2.0", required: null },
    { workshop_id: B, name: "RHS", version: null, required: null },
  ];
  const mods = [
    { modId: A.toLowerCase(), name: "Where Am I", version: "1.2.0" },
    { modId: B, name: "RHS" },
  ];

  test("full server.json {game: {mods}} with other keys", () => {
    const file = { bindPort: 2001, game: { name: "x", scenarioId: "{X}y.conf", mods } };
    const text = JSON.stringify(file, null, 2);
    const r = parseImportBody(text);
    expect({ shape: r.shape, entries: r.entries, kind: r.kind, notes: r.notes }).toEqual({ shape: "full", entries: expected, kind: "settings", notes: [] });
    // The file is kept as its text and tree (its settings are remembered as written).
    expect(r.document!.text).toBe(text);
    expect(r.document!.value).toEqual(file);
  });

  test("simplified {mods}", () => {
    expect(parseImportBody(JSON.stringify({ mods }))).toEqual({ shape: "simplified", entries: expected, document: null, kind: "none", notes: [] });
  });

  test('fragment "mods": [...] (not JSON on its own), with and without a trailing comma', () => {
    const frag = `"mods": ${JSON.stringify(mods, null, 2)}`;
    expect(() => JSON.parse(frag)).toThrow();
    expect(parseImportBody(frag)).toEqual({ shape: "fragment", entries: expected, document: null, kind: "none", notes: [] });
    expect(parseImportBody(`\n  ${frag},\n`)).toEqual({ shape: "fragment", entries: expected, document: null, kind: "none", notes: [] });
  });

  test("bare array", () => {
    expect(parseImportBody(JSON.stringify(mods))).toEqual({ shape: "array", entries: expected, document: null, kind: "none", notes: [] });
  });

  test("empty mod arrays are valid in every shape", () => {
    expect(parseImportBody('{"game":{"mods":[]}}').entries).toEqual([]);
    expect(parseImportBody('{"mods":[]}').entries).toEqual([]);
    expect(parseImportBody('"mods": []').entries).toEqual([]);
    expect(parseImportBody("[]").entries).toEqual([]);
  });

  test("a BOM and surrounding whitespace are ignored; empty version means latest", () => {
    const r = parseImportBody(`\uFEFF  [{"modId":"${A}","name":"a","version":""}]  `);
    expect(r.entries).toEqual([{ workshop_id: A, name: "a", version: null, required: null }]);
  });

  test("missing name is accepted as empty; required is read when stated, other extra keys are ignored", () => {
    const r = parseImportBody(`[{"modId":"${A}","required":false,"x":1},{"modId":"${B}","required":true},{"modId":"${A.replace("A", "B")}"}]`);
    expect(r.entries.map((e) => [e.name, e.required])).toEqual([
      ["", false],
      ["", true],
      ["", null],
    ]);
    expect(errorOf(`[{"modId":"${A}","required":"no"}]`)).toBe("bare array: [0].required must be true or false, got a string");
  });

  test("comments and trailing commas are read and reported; a config without mods is an empty list", () => {
    const r = parseImportBody(`// server\n{"game": {"name": "x", /* vanilla */ "mods": [{"modId": "${A}",},],},}`);
    expect(r.entries).toEqual([{ workshop_id: A, name: "", version: null, required: null }]);
    expect(r.notes).toEqual(["2 comments and 4 trailing commas were ignored"]);
    const none = parseImportBody('{"game": {"name": "vanilla", "maxPlayers": 32}}');
    expect(none.entries).toEqual([]);
    expect(none.document!.value).toEqual({ game: { name: "vanilla", maxPlayers: 32 } });
    expect(none.kind).toBe("settings");
    expect(none.notes).toEqual(['the file has no "game.mods": it imports as an empty list']);
  });

  test("a file with only game.mods (the plain export's shape) says nothing besides its mods", () => {
    const plain = parseImportBody(JSON.stringify({ game: { mods } }, null, 2));
    expect(plain.kind).toBe("mods_only");
    expect(plain.document).toBeNull();
    expect(plain.entries).toEqual(expected);
    expect(parseImportBody('{"game": {"mods": [], "modsRequiredByDefault": false}}').kind).toBe("settings");
  });

  test("more mod entries than a list holds are refused before any entry is read", () => {
    const many = JSON.stringify({ game: { mods: Array.from({ length: 1001 }, () => ({ modId: "bad" })) } });
    expect(() => parseImportBody(many, 1000)).toThrow("the file has 1001 mod entries; a list holds at most 1000 mods");
  });

  test("syntax errors name the line and column in the user's text, also in a fragment", () => {
    expect(errorOf('{\n  "game": {\n    "maxPlayers": 64\n    "mods": []\n  }\n}')).toStartWith(
      'invalid JSON: line 4, column 5: expected , or } after the value of "maxPlayers", found "mods"',
    );
    expect(errorOf('"mods": [{"modId": }]')).toStartWith('invalid JSON in fragment "mods": [...]: line 1, column 20: expected a value for "modId", found }');
  });
});

describe("parseImportBody: malformed input says what is wrong", () => {
  test("empty body", () => {
    expect(errorOf("   ")).toContain("empty body");
  });

  test("not JSON (names the accepted shapes)", () => {
    const m = errorOf("{game: nope");
    expect(m).toStartWith("invalid JSON");
    expect(m).toContain('"mods": [...]');
  });

  test("scalar and object without game/mods", () => {
    expect(errorOf("42")).toContain("body is a number");
    expect(errorOf('{"servers": []}')).toContain('neither "game" nor "mods"');
  });

  test("full file: game not an object, mods missing or not an array", () => {
    expect(errorOf('{"game": []}')).toBe('full server.json: "game" must be an object, got an array');
    expect(errorOf('{"game": {"mods": {}}}')).toBe('full server.json: "game.mods" must be an array, got an object');
  });

  test("simplified: mods not an array", () => {
    expect(errorOf('{"mods": "x"}')).toBe('simplified {mods}: "mods" must be an array, got a string');
  });

  test("fragment: broken JSON, wrong key, not an array", () => {
    expect(errorOf('"mods": [{"modId": }]')).toStartWith('invalid JSON in fragment "mods": [...]');
    expect(errorOf('"servers": []')).toContain('expected the text "mods": [...]');
    expect(errorOf('"mods": 3')).toBe('fragment "mods": [...]: mods must be an array, got a number');
    expect(errorOf('"mods": [], "x": 1')).toContain('expected only the "mods" key');
  });

  test("entry errors name the shape, the index and the field", () => {
    expect(errorOf(`{"game":{"mods":[{"modId":"${A}"}, 5]}}`)).toBe(
      "full server.json: game.mods[1] must be an object {modId, name, version}, got a number",
    );
    expect(errorOf(`{"mods":[{"name":"x"}]}`)).toBe("simplified {mods}: mods[0].modId is missing");
    expect(errorOf(`[{"modId": 12}]`)).toBe("bare array: [0].modId must be a string, got a number");
    expect(errorOf(`"mods": [{"modId":"${A}","name":"a"},{"modId":"${B}","name":7}]`)).toBe(
      'fragment "mods": [...]: mods[1].name must be a string, got a number',
    );
    expect(errorOf(`[{"modId":"${A}","version":1.2}]`)).toBe("bare array: [0].version must be a string, got a number");
  });

  test('invalid workshop id → "invalid workshop ID" with index', () => {
    const m = errorOf(`[{"modId":"${A}"},{"modId":"XYZ"}]`);
    expect(m).toContain("invalid workshop ID");
    expect(m).toContain("[1].modId");
    expect(errorOf(`{"mods":[{"modId":"${A}0"}]}`)).toContain("invalid workshop ID");
  });

  test("duplicate ids (case-insensitive) are rejected, the mod named by its name and both entries by number", () => {
    expect(errorOf(`[{"modId":"${A}","name":"Alpha Pack"},{"modId":"${B}"},{"modId":"${A.toLowerCase()}"}]`)).toBe(
      `bare array: Alpha Pack (${A}) is in the mods twice, as entries 1 and 3; keep one of them`,
    );
    // The name of either entry; none at all: the id alone.
    expect(errorOf(`{"game":{"mods":[{"modId":"${B}"},{"modId":"${A}"},{"modId":"${A}","name":"Alpha"}]}}`)).toBe(
      `full server.json: Alpha (${A}) is in the mods twice, as entries 2 and 3; keep one of them`,
    );
    expect(errorOf(`[{"modId":"${A}"},{"modId":"${A}"}]`)).toBe(`bare array: ${A} is in the mods twice, as entries 1 and 2; keep one of them`);
  });
});

describe("export", () => {
  const items: ExportItem[] = [
    { workshop_id: A, name: "Pinned", pinned_version: "1.0.0", latest_version: "1.1.0" },
    { workshop_id: B, name: "Unpinned", pinned_version: null, latest_version: "2.0.0" },
    { workshop_id: "ABCDEFABCDEF0123", name: "Never scraped", pinned_version: null, latest_version: "" },
  ];

  test("fixed: pinned versions, unpinned without version", () => {
    expect(exportMods(items, "fixed")).toEqual([
      { modId: A, name: "Pinned", version: "1.0.0" },
      { modId: B, name: "Unpinned" },
      { modId: "ABCDEFABCDEF0123", name: "Never scraped" },
    ]);
  });

  test("latest: latest known versions; unknown mods without version", () => {
    expect(exportMods(items, "latest")).toEqual([
      { modId: A, name: "Pinned", version: "1.1.0" },
      { modId: B, name: "Unpinned", version: "2.0.0" },
      { modId: "ABCDEFABCDEF0123", name: "Never scraped" },
    ]);
  });

  test("fragment shape is {game: {mods}} and parses back as a full file", () => {
    const frag = exportFragment(items, "fixed");
    expect(Object.keys(frag)).toEqual(["game"]);
    const back = parseImportBody(JSON.stringify(frag));
    expect(back.shape).toBe("full");
    expect(back.entries.map((e) => [e.workshop_id, e.version])).toEqual([
      [A, "1.0.0"],
      [B, null],
      ["ABCDEFABCDEF0123", null],
    ]);
  });

  test("game config is complete with the documented defaults", () => {
    const cfg = exportGameConfig("My list", items, "latest");
    expect(cfg.bindPort).toBe(2001);
    expect(cfg.a2s).toEqual({ address: "0.0.0.0", port: 17777 });
    expect(cfg.game.name).toBe("My list");
    expect(cfg.game.scenarioId).toMatch(/^\{[0-9A-F]{16}\}Missions\/.+\.conf$/);
    expect(cfg.game.maxPlayers).toBeGreaterThan(0);
    expect(cfg.game.modsRequiredByDefault).toBe(true);
    expect(cfg.game.mods).toEqual(exportMods(items, "latest"));
    expect(cfg.operating.joinQueue.maxSize).toBe(0);
    // Only keys the game knows (it rejects unknown ones).
    expect(Object.keys(cfg).sort()).toEqual(["a2s", "bindAddress", "bindPort", "game", "operating", "publicAddress", "publicPort"]);
    expect(parseImportBody(JSON.stringify(cfg, null, 2)).entries).toHaveLength(3);
  });

  test("file names are slugs", () => {
    expect(exportFileName("My Cool List!", "server")).toBe("my-cool-list-server.json");
    expect(exportFileName("§§§", "server")).toBe("modlist-server.json");
  });
});
