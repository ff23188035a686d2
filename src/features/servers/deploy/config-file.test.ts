import { describe, expect, test } from "bun:test";
import { DeployError } from "./errors";
import { SAMPLE_SERVER_JSON } from "../../../../test/fakes/panel-server-json";
import { applyModsToConfig, findJsonErrorOffset, listToServerJsonMods, parseConfig } from "./config-file";


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

  test("writes 2-space JSON and keeps the trailing newline", () => {
    const out = applyModsToConfig(SAMPLE_SERVER_JSON, mods, "server.json");
    expect(out).toBe(`${JSON.stringify(JSON.parse(out), null, 2)}\n`);
    expect(out.split("\n")[1]).toBe('  "bindAddress": "0.0.0.0",');
    const noNewline = applyModsToConfig('{"game":{}}', [], "server.json");
    expect(noNewline).toBe('{\n  "game": {\n    "mods": []\n  }\n}');
  });

  test("adds game.mods when the file has none", () => {
    const out = JSON.parse(applyModsToConfig('{"game":{"name":"x"}}\n', mods, "server.json"));
    expect(out).toEqual({ game: { name: "x", mods } });
  });

  test("invalid JSON names the file and the line", () => {
    const broken = '{\n  "game": {\n    "name": "x",,\n  }\n}';
    expect(() => applyModsToConfig(broken, mods, "server.json")).toThrow(DeployError);
    expect(() => applyModsToConfig(broken, mods, "server.json")).toThrow(/^server\.json is not valid JSON at line 3$/);
  });

  test("error positions for common mistakes", () => {
    const at = (t: string) => {
      const off = findJsonErrorOffset(t);
      return t.slice(0, off).split("\n").length;
    };
    expect(at('{\n"a": 1\n"b": 2\n}')).toBe(3); // missing comma
    expect(at('{\n"a": [1, 2,]\n}')).toBe(2); // trailing comma
    expect(at("{\n\n// comment\n}")).toBe(3);
    expect(at('{"a": "unterminated')).toBe(1);
    expect(at('{\n"a": tru\n}')).toBe(2);
  });

  test("not an object, empty file, missing or wrong game section", () => {
    expect(() => parseConfig("[1,2]", "server.json")).toThrow("server.json must contain a JSON object");
    expect(() => parseConfig("  \n", "server.json")).toThrow("server.json is empty");
    expect(() => applyModsToConfig('{"bindPort": 2001}', mods, "cfg.json")).toThrow(/cfg\.json has no "game" section/);
    expect(() => applyModsToConfig('{"game": []}', mods, "cfg.json")).toThrow('cfg.json: "game" must be an object');
  });

  test("a UTF-8 byte order mark is accepted", () => {
    const out = JSON.parse(applyModsToConfig('\ufeff{"game":{}}', mods, "server.json"));
    expect(out.game.mods).toEqual(mods);
  });
});
