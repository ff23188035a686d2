import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateKey, parseKey } from "../../shared/crypto";
import { parseTolerantJson } from "../../shared/jsonc";
import {
  assembleConfig,
  configChanges,
  keepModsPlace,
  openSecrets,
  pathText,
  sealSecrets,
  secretSlots,
  settingsForClient,
  splitConfig,
  type JsonObject,
} from "./server-config";

const dir = join(import.meta.dir, "../../../test/fixtures/server-configs");
const fixture = (name: string) => parseTolerantJson(readFileSync(join(dir, name), "utf8")).value as JsonObject;

describe("a remembered config", () => {
  test("split then assembled with the same mods is the file again, key order included", () => {
    for (const name of ["full-commented.json", "full-required-default-false.json", "panel-egg-template.json", "full-140-mods.json", "full-no-mods.json"]) {
      const file = fixture(name);
      const split = splitConfig(file);
      const mods = ((file.game as JsonObject).mods ?? []) as JsonObject[];
      const back = assembleConfig(split.settings, split.secrets, mods, { withSecrets: true, hasModsKey: split.hasModsKey });
      expect(JSON.stringify(back)).toBe(JSON.stringify(file));
    }
  });

  test("secrets are taken out of the settings (their place kept) and named by path", () => {
    const split = splitConfig(fixture("full-commented.json"));
    expect(split.secrets.map(([p, v]) => [pathText(p), v])).toEqual([
      ["rcon.password", "rcon-Secret-42"],
      ["game.passwordAdmin", "hunter2-admin"],
    ]);
    const text = JSON.stringify(split.settings);
    expect(text).not.toContain("rcon-Secret-42");
    expect(text).not.toContain("hunter2-admin");
    expect(secretSlots(split.settings, split.secrets)).toEqual([
      { path: "rcon.password", set: true },
      { path: "game.password", set: false },
      { path: "game.passwordAdmin", set: true },
    ]);
    const client = settingsForClient(split.settings);
    expect((client.game as JsonObject).mods).toBeUndefined();
    expect(Object.keys(client)).toEqual(["bindAddress", "bindPort", "publicAddress", "publicPort", "a2s", "rcon", "game", "operating"]);
  });

  test("without secrets for the caller, they are written as empty strings", () => {
    const split = splitConfig(fixture("full-commented.json"));
    const out = assembleConfig(split.settings, split.secrets, [], { withSecrets: false, hasModsKey: true });
    expect((out.rcon as JsonObject).password).toBe("");
    expect((out.game as JsonObject).passwordAdmin).toBe("");
  });

  test("sealed secrets open only with the key and for the list they were sealed for", () => {
    const key = parseKey(generateKey());
    const sealed = sealSecrets([[["rcon", "password"], "x"]], key, "list-1")!;
    expect(sealed).not.toContain("x\"");
    expect(openSecrets(sealed, key, "list-1")).toEqual([[["rcon", "password"], "x"]]);
    expect(() => openSecrets(sealed, key, "list-2")).toThrow();
    expect(() => openSecrets(sealed, parseKey(generateKey()), "list-1")).toThrow();
    expect(sealSecrets([], key, "list-1")).toBeNull();
  });

  test("settings from the page without game.mods get it back at its old place", () => {
    const old = splitConfig(fixture("full-required-default-false.json")).settings;
    const edited = settingsForClient(old);
    (edited.game as JsonObject).maxPlayers = 80;
    const next = keepModsPlace(edited, old);
    expect(Object.keys(next.game as JsonObject)).toEqual(Object.keys(old.game as JsonObject));
  });

  test("configChanges names the changed leaves and secrets, not their values", () => {
    const a = splitConfig(fixture("full-commented.json"));
    expect(configChanges(a, splitConfig(fixture("full-commented.json")))).toEqual([]);
    const changed = fixture("full-commented.json");
    (changed.game as JsonObject).maxPlayers = 64;
    (changed.rcon as JsonObject).password = "other";
    expect(configChanges(a, splitConfig(changed))).toEqual(["game.maxPlayers", "rcon.password"]);
  });
});
