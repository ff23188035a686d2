import { describe, expect, test } from "bun:test";
import { DeployError } from "./errors";
import { SAMPLE_SERVER_JSON } from "../../../../test/fakes/panel-server-json";
import { applyModsToConfig, listToServerJsonMods, parseConfig } from "./config-file";


describe("listToServerJsonMods", () => {
  test("pinned mods carry their version, unpinned ones none", () => {
    expect(
      listToServerJsonMods([
        { workshop_id: "5965550F24A0C152", name: "Where Am I", pinned_version: "1.2.0" },
        { workshop_id: "591af5bdd9eeee4c", name: "RHS", pinned_version: null },
        { workshop_id: "AAAAAAAAAAAAAAAA", name: "Empty pin", pinned_version: "" },
      ]),
    ).toEqual([
      { modId: "5965550F24A0C152", name: "Where Am I", version: "1.2.0" },
      { modId: "591AF5BDD9EEEE4C", name: "RHS" },
      { modId: "AAAAAAAAAAAAAAAA", name: "Empty pin" },
    ]);
    const [, unpinned] = listToServerJsonMods([
      { workshop_id: "5965550F24A0C152", name: "a", pinned_version: "1" },
      { workshop_id: "591AF5BDD9EEEE4C", name: "b", pinned_version: null },
    ]);
    expect(Object.keys(unpinned!)).toEqual(["modId", "name"]);
  });

  test("an empty list gives no mods", () => {
    expect(listToServerJsonMods([])).toEqual([]);
  });

  test("a stated required is written, an unstated one is not", () => {
    expect(
      listToServerJsonMods([
        { workshop_id: "5965550F24A0C152", name: "a", pinned_version: null, required: 0 },
        { workshop_id: "591AF5BDD9EEEE4C", name: "b", pinned_version: null, required: 1 },
        { workshop_id: "AAAAAAAAAAAAAAAA", name: "c", pinned_version: null, required: null },
      ]),
    ).toEqual([
      { modId: "5965550F24A0C152", name: "a", required: false },
      { modId: "591AF5BDD9EEEE4C", name: "b", required: true },
      { modId: "AAAAAAAAAAAAAAAA", name: "c" },
    ]);
  });
});

describe("applyModsToConfig: required against the server's own modsRequiredByDefault", () => {
  const config = (byDefault?: boolean) => JSON.stringify({ game: { name: "x", ...(byDefault === undefined ? {} : { modsRequiredByDefault: byDefault }), mods: [] } });
  const mods = [{ modId: "5965550F24A0C152", name: "a" }, { modId: "591AF5BDD9EEEE4C", name: "b", required: true }];
  test("the same default: unstated mods stay unstated", () => {
    expect(JSON.parse(applyModsToConfig(config(), mods, "s.json", true)).game.mods).toEqual(mods);
    expect(JSON.parse(applyModsToConfig(config(false), mods, "s.json", false)).game.mods).toEqual(mods);
  });
  test("a list whose mods are optional by default, deployed to a server that requires by default, writes required: false", () => {
    expect(JSON.parse(applyModsToConfig(config(true), mods, "s.json", false)).game.mods).toEqual([
      { modId: "5965550F24A0C152", name: "a", required: false },
      { modId: "591AF5BDD9EEEE4C", name: "b", required: true },
    ]);
    expect(JSON.parse(applyModsToConfig(config(false), mods, "s.json", true)).game.mods[0]).toEqual({ modId: "5965550F24A0C152", name: "a", required: true });
  });
});

describe("applyModsToConfig", () => {
  const mods = [
    { modId: "5965550F24A0C152", name: "Where Am I", version: "1.2.0" },
    { modId: "591AF5BDD9EEEE4C", name: "RHS" },
  ];

  test("replaces game.mods and keeps every other key and their order", () => {
    const out = applyModsToConfig(SAMPLE_SERVER_JSON, mods, "server.json");
    const before = JSON.parse(SAMPLE_SERVER_JSON);
    const after = JSON.parse(out);
    expect(after.game.mods).toEqual(mods);
    delete before.game.mods;
    const afterWithoutMods = structuredClone(after);
    delete afterWithoutMods.game.mods;
    expect(afterWithoutMods).toEqual(before);
    expect(Object.keys(after)).toEqual(Object.keys(JSON.parse(SAMPLE_SERVER_JSON)));
    expect(Object.keys(after.game)).toEqual(Object.keys(JSON.parse(SAMPLE_SERVER_JSON).game));
  });

  test("edits game.mods in place: every byte outside it is the file's own", () => {
    const out = applyModsToConfig(SAMPLE_SERVER_JSON, mods, "server.json");
    const start = SAMPLE_SERVER_JSON.indexOf('"mods": [') + 9;
    const end = SAMPLE_SERVER_JSON.indexOf("]\n  },\n  \"operating\"");
    expect(out.slice(0, start)).toBe(SAMPLE_SERVER_JSON.slice(0, start));
    expect(out.slice(out.length - (SAMPLE_SERVER_JSON.length - end))).toBe(SAMPLE_SERVER_JSON.slice(end));
    // New entries copy the layout of the file's own entry (one line, its key order).
    expect(out.slice(start, out.length - (SAMPLE_SERVER_JSON.length - end))).toBe(
      '{ "modId": "5965550F24A0C152", "name": "Where Am I", "version": "1.2.0" },{ "modId": "591AF5BDD9EEEE4C", "name": "RHS" }',
    );
    // The same mods again: nothing changes at all.
    expect(applyModsToConfig(out, mods, "server.json")).toBe(out);
    const noNewline = applyModsToConfig('{"game":{}}', [], "server.json");
    expect(noNewline).toBe('{"game":{}}');
  });

  test("numbers keep their text, CRLF and a BOM stay, comments and trailing commas go", () => {
    const text = '\ufeff{\r\n  "game": {\r\n    "admins": [76561198200329058],\r\n    "maxPlayers": 3000.0, // big\r\n    "mods": [],\r\n  },\r\n  "operating": { "aiLimit": -1.0 }\r\n}\r\n';
    const out = applyModsToConfig(text, [mods[1]!], "server.json");
    expect(out).toBe(
      '\ufeff{\r\n  "game": {\r\n    "admins": [76561198200329058],\r\n    "maxPlayers": 3000.0,\r\n    "mods": [\r\n      {\r\n        "modId": "591AF5BDD9EEEE4C",\r\n        "name": "RHS"\r\n      }\r\n    ]\r\n  },\r\n  "operating": { "aiLimit": -1.0 }\r\n}\r\n',
    );
    expect(() => JSON.parse(out.slice(1))).not.toThrow();
  });

  test("adds game.mods when the file has none", () => {
    const out = JSON.parse(applyModsToConfig('{"game":{"name":"x"}}\n', mods, "server.json"));
    expect(out).toEqual({ game: { name: "x", mods } });
  });

  test("invalid JSON names the file and the line", () => {
    const broken = '{\n  "game": {\n    "name": "x",,\n  }\n}';
    expect(() => applyModsToConfig(broken, mods, "server.json")).toThrow(DeployError);
    expect(() => applyModsToConfig(broken, mods, "server.json")).toThrow(
      'server.json is not valid JSON at line 3, column 17: expected a property name after ,, found a second ,',
    );
  });

  test("error positions for common mistakes, counted over every line of the file", () => {
    const at = (t: string) => {
      try {
        parseConfig(t, "s.json");
      } catch (e) {
        return (e as Error).message;
      }
      return "parsed";
    };
    expect(at('{\n"a": 1\n"b": 2\n}')).toBe('s.json is not valid JSON at line 3, column 1: expected , or } after the value of "a", found "b"');
    expect(at('\n\n\n{\n"a": tru\n}')).toBe('s.json is not valid JSON at line 5, column 6: expected a value for "a", found tru');
    expect(at('{"a": "unterminated')).toBe('s.json is not valid JSON at line 1, column 7: a string is not closed (expected " before the end of the file)');
    expect(at('{\r\n"game": {"a": 1}},\r\n"operating": {}\r\n}')).toBe(
      "s.json is not valid JSON at line 2, column 17: a stray }: it closes the document's { (line 1, column 1), but the file goes on at line 2, column 18 with ,",
    );
    // Comments and trailing commas are what people write: read, and removed when written.
    expect(at('{\n"a": [1, 2,] // x\n}')).toBe("parsed");
  });

  test("not an object, empty file, missing or wrong game section", () => {
    expect(() => parseConfig("[1,2]", "server.json")).toThrow("server.json must contain a JSON object");
    expect(() => parseConfig("  \n", "server.json")).toThrow("server.json is empty");
    expect(() => applyModsToConfig('{"bindPort": 2001}', mods, "cfg.json")).toThrow(/cfg\.json has no "game" section/);
    expect(() => applyModsToConfig('{"game": []}', mods, "cfg.json")).toThrow('cfg.json: "game" must be an object');
    expect(() => applyModsToConfig('{"game": {"mods": {}}}', mods, "cfg.json")).toThrow('cfg.json: "game.mods" must be an array');
  });

  test("a UTF-8 byte order mark is accepted and kept", () => {
    const text = applyModsToConfig('\ufeff{"game":{}}', mods, "server.json");
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const out = JSON.parse(text.slice(1));
    expect(out.game.mods).toEqual(mods);
  });
});
