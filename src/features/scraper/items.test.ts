import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { classifyPath, diffItems, DirectoryPathSource, extractItems, parsePathList, StaticPathSource } from "./items";

const FIXTURES = join(import.meta.dir, "../../../test/fixtures/workshop/paths");
const VEH = "B000000000000001";
const WPN = "B000000000000002";

describe("item extractor", () => {
  test("classifies a vehicles pack by path; parts, wrecks, bases and non-prefabs are skipped", async () => {
    const src = new DirectoryPathSource(FIXTURES);
    const items = extractItems((await src.pathsFor(VEH, "1.0.0"))!);
    expect(items.map((i) => [i.type, i.name])).toEqual([
      ["vehicle", "Mi8MT_armed"],
      ["vehicle", "UAZ469"],
      ["vehicle", "UAZ469_covered"],
      ["vehicle", "Ural4320_transport"],
    ]);
    expect(items[1]).toEqual({
      type: "vehicle",
      name: "UAZ469",
      path: "Prefabs/Vehicles/Wheeled/UAZ469/UAZ469.et",
      guid: "5E3C3B6D7A1E7B2C",
    });
  });

  test("classifies weapons, carried gear and wearables; characters and props are not items", async () => {
    const src = new DirectoryPathSource(FIXTURES);
    const items = extractItems((await src.pathsFor(WPN, "2.3.1"))!);
    const byType = (t: string) => items.filter((i) => i.type === t).map((i) => i.name);
    expect(byType("weapon")).toEqual(["Handgun_M9", "Launcher_AT4", "Rifle_HK416", "Rifle_M4A1", "Rifle_M4A1_GL"]);
    expect(byType("gear")).toEqual([
      "Backpack_Assault",
      "Helmet_ACH",
      "Magazine_556x45_STANAG_30rnd",
      "Optic_ACOG",
      "Radio_ANPRC152",
      "Uniform_US_OCP",
      "Vest_IOTV",
    ]);
    expect(byType("vehicle")).toEqual([]);
  });

  test("single paths: GUID prefix, backslashes, name fallbacks", () => {
    expect(classifyPath("{0123456789abcdef}Prefabs\\Weapons\\Rifles\\AK74\\Rifle_AK74.et")).toEqual({
      type: "weapon",
      name: "Rifle_AK74",
      path: "Prefabs/Weapons/Rifles/AK74/Rifle_AK74.et",
      guid: "0123456789ABCDEF",
    });
    expect(classifyPath("Prefabs/MyMod/Truck_Cargo.et")?.type).toBe("vehicle");
    expect(classifyPath("Prefabs/MyMod/Helmet_Custom.et")?.type).toBe("gear");
    expect(classifyPath("Prefabs/MyMod/Signpost.et")).toBeNull();
    expect(classifyPath("Prefabs/Props/Military/Helmet_OnShelf.et")).toBeNull();
    expect(classifyPath("Prefabs/Vehicles/Wheeled/UAZ469/UAZ469.xob")).toBeNull();
    expect(classifyPath("Prefabs/Vehicles/_Template.et")).toBeNull();
  });

  test("diff between versions: added, removed, changed (same GUID, new path)", async () => {
    const src = new DirectoryPathSource(FIXTURES);
    const v1 = extractItems((await src.pathsFor(VEH, "1.0.0"))!);
    const v2 = extractItems((await src.pathsFor(VEH, "1.1.0"))!);
    const d = diffItems(v1, v2);
    expect(d.added.map((i) => i.name).sort()).toEqual(["BTR70", "Magazine_BTR70_KPVT"]);
    expect(d.removed.map((i) => i.name)).toEqual(["UAZ469_covered"]);
    expect(d.changed).toEqual([
      {
        from: expect.objectContaining({ name: "Mi8MT_armed", path: "Prefabs/Vehicles/Helicopters/Mi8MT/Mi8MT_armed.et" }),
        to: expect.objectContaining({ name: "Mi8MT_armed", path: "Prefabs/Vehicles/Air/Mi8MT/Mi8MT_armed.et" }),
      },
    ]);
  });

  test("path sources: directory listing of versions, missing lists, path traversal refused", async () => {
    const src = new DirectoryPathSource(FIXTURES);
    expect((await src.versionsFor(VEH)).sort()).toEqual(["1.0.0", "1.1.0"]);
    expect(await src.pathsFor(VEH, "9.9.9")).toBeNull();
    expect(await src.pathsFor(VEH, "../B000000000000002/2.3.1")).toBeNull();
    expect(await src.versionsFor("../etc")).toEqual([]);
    const st = new StaticPathSource({ [VEH]: { "1.0.0": ["Prefabs/Vehicles/A/Car.et"] } });
    expect(await st.pathsFor(VEH, "1.0.0")).toEqual(["Prefabs/Vehicles/A/Car.et"]);
    expect(parsePathList("# c\n\n a \r\nb\n")).toEqual(["a", "b"]);
  });
});

// Resource paths as public Reforger mod code quotes them (vehicle spawners, loot tables, AI
// commanders, campaign presets found by searching public repositories for "Prefabs/Vehicles/"):
// the classifier must read real folder layouts, GUID prefixes included.
describe("real prefab paths from public mods", () => {
  const cases: [string, ReturnType<typeof classifyPath> extends infer R ? (R extends { type: infer T } ? T : never) | null : never][] = [
    ["{1A20D130A03F9CF1}Prefabs/Vehicles/Wheeled/UAZ469/UAZ469_Armed.et", "vehicle"],
    ["{21C45FA677BCDBDA}Prefabs/Vehicles/Wheeled/M998/M998_Armed.et", "vehicle"],
    ["Prefabs/Vehicles/Wheeled/Conflict_Variants/M1025_armed_M2HB_Conflict.et", "vehicle"],
    ["{F649585ABB3706C4}Prefabs/Vehicles/Wheeled/M151A2/M151A2.et", "vehicle"],
    ["{E28501E93F8EFDC0}Prefabs/Vehicles/Wheeled/UAZ469/UAZ469_FIA_uncovered.et", "vehicle"],
    ["Prefabs/Vehicles/Core/unpreza_Black.et", "vehicle"],
    // an abstract base prefab is not something a player gets
    ["{4AE9D080927D3CB9}Prefabs/Vehicles/Wheeled/S1203/S1203_base.et", null],
    // characters are not items; mission props and editor effects neither
    ["{26A9756790131354}Prefabs/Characters/Factions/BLUFOR/US_Army/Character_US_Rifleman.et", null],
    ["{6985327711303720}Prefabs/Objects/HST/HST_MissionProp_Cargo.et", null],
    ["{1F7300EC0835D898}PrefabsEditable/EffectsModules/Smoke/EffectModule_Smoke_Red.et", null],
  ];
  for (const [path, type] of cases) {
    test(`${path} → ${type ?? "not an item"}`, () => {
      const r = classifyPath(path);
      expect(r?.type ?? null).toBe(type);
      if (r && path.startsWith("{")) expect(r.guid).toBe(path.slice(1, 17));
    });
  }
});
