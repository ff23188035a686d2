import { describe, expect, test } from "bun:test";
import { computeImportPlan, type CatalogInfo, type CurrentItem } from "./diff";
import { exportMods, parseImportBody, type ExportItem } from "./server-json-format";

const A = "AAAAAAAAAAAAAAA1";
const B = "BBBBBBBBBBBBBBB2";
const C = "CCCCCCCCCCCCCCC3";
const D = "DDDDDDDDDDDDDDD4";
const E = "EEEEEEEEEEEEEEE5";

const current: CurrentItem[] = [
  { workshop_id: A, name: "Alpha", pinned_version: "1.0.0", latest_version: "1.1.0" },
  { workshop_id: B, name: "Bravo", pinned_version: null, latest_version: "2.0.0" },
  { workshop_id: C, name: "Charlie", pinned_version: null, latest_version: "3.0.0" },
];
const catalog = new Map<string, CatalogInfo>([
  [A, { name: "Alpha", version: "1.1.0", size_bytes: 10 }],
  [B, { name: "Bravo", version: "2.0.0", size_bytes: 20 }],
  [C, { name: "Charlie", version: "3.0.0", size_bytes: 30 }],
  [D, { name: "Delta (catalog name)", version: "4.0.0", size_bytes: 40 }],
]);

const entries = (...xs: [string, string, string | null][]) => xs.map(([workshop_id, name, version]) => ({ workshop_id, name, version, required: null as boolean | null }));

describe("computeImportPlan", () => {
  test("every key is present, with the spec's element shapes", () => {
    const { diff } = computeImportPlan(
      current,
      entries([C, "Charlie", null], [A, "Alpha", "1.1.0"], [D, "Delta", null], [E, "Echo", "0.1"]),
      catalog,
      true,
    );
    expect(Object.keys(diff).sort()).toEqual(["added", "config_changes", "kept_latest", "not_in_catalog", "notes", "order_changed", "removed", "required_changed", "stale_pins", "unchanged", "version_changed"]);
    expect(diff.added).toEqual([{ workshop_id: D, name: "Delta (catalog name)", version: "4.0.0", size_bytes: 40, in_catalog: true, pinned: false }]);
    expect(diff.not_in_catalog).toEqual([{ mod_id: E, name: "Echo", version: "0.1" }]);
    expect(diff.removed).toEqual([{ workshop_id: B, name: "Bravo" }]);
    expect(diff.version_changed).toEqual([{ workshop_id: A, name: "Alpha", old_version: "1.0.0", new_version: "1.1.0" }]);
    expect(diff.unchanged).toEqual([{ modId: C, name: "Charlie" }]);
    expect(diff.order_changed).toEqual([
      { workshop_id: C, name: "Charlie", old_index: 2, new_index: 0 },
      { workshop_id: A, name: "Alpha", old_index: 0, new_index: 1 },
    ]);
  });

  test("order_changed stays empty without check_order", () => {
    const plan = computeImportPlan(current, entries([C, "", null], [B, "", null], [A, "", "1.0.0"]), catalog, false);
    expect(plan.diff.order_changed).toEqual([]);
    expect(plan.order).toBeNull();
    expect(plan.diff.unchanged.map((u) => u.modId)).toEqual([C, B, A]);
  });

  test("the plan matches the diff", () => {
    const plan = computeImportPlan(current, entries([D, "Delta", "3.9"], [A, "Alpha", null], [E, "Echo", null]), catalog, true);
    expect(plan.toAdd).toEqual([
      { workshop_id: D, name: "Delta (catalog name)", pinned_version: "3.9", in_catalog: true, required: null },
      { workshop_id: E, name: "Echo", pinned_version: null, in_catalog: false, required: null },
    ]);
    expect(plan.toRemove).toEqual([B, C]);
    expect(plan.pinChanges).toEqual([{ workshop_id: A, pinned_version: null }]);
    expect(plan.order).toEqual([D, A, E]);
    expect(plan.diff.added[0]).toMatchObject({ version: "3.9", pinned: true });
  });

  test("version rules: pin, unpin, latest of an unpinned mod is no change", () => {
    const { diff } = computeImportPlan(
      current,
      entries([A, "", null], [B, "", "2.0.0"], [C, "", "2.9.0"]),
      catalog,
      false,
    );
    expect(diff.version_changed).toEqual([
      { workshop_id: A, name: "Alpha", old_version: "1.0.0", new_version: null },
      { workshop_id: C, name: "Charlie", old_version: null, new_version: "2.9.0" },
    ]);
    expect(diff.unchanged).toEqual([{ modId: B, name: "Bravo", version: "2.0.0" }]);
    // Named for the preview: Bravo's pin is its newest version, so it stays unpinned.
    expect(diff.kept_latest).toEqual([{ workshop_id: B, name: "Bravo", version: "2.0.0" }]);
  });

  test("required: a stated flag that differs is a change of its own; the same flag is no change", () => {
    const withRequired = current.map((c, i) => ({ ...c, required: i === 0 ? false : null }));
    const e = entries([A, "", "1.0.0"], [B, "", null], [C, "", null]);
    e[1].required = true;
    const { diff, requiredChanges } = computeImportPlan(withRequired, e, catalog, false) as any;
    expect(diff.required_changed).toEqual([
      { workshop_id: A, name: "Alpha", old_required: false, new_required: null },
      { workshop_id: B, name: "Bravo", old_required: null, new_required: true },
    ]);
    expect(requiredChanges).toEqual([
      { workshop_id: A, required: null },
      { workshop_id: B, required: true },
    ]);
    expect(diff.version_changed).toEqual([]);
    expect(diff.unchanged.map((u: any) => u.modId)).toEqual([C]);
    e[0].required = false;
    e[1].required = null;
    const same = computeImportPlan(withRequired, e, catalog, false).diff;
    expect(same.required_changed).toEqual([]);
    expect(same.unchanged[0]).toEqual({ modId: A, name: "Alpha", version: "1.0.0", required: false });
  });

  test("empty file removes everything; empty list adds everything", () => {
    expect(computeImportPlan(current, [], catalog, true).diff.removed.map((r) => r.workshop_id)).toEqual([A, B, C]);
    const plan = computeImportPlan([], entries([A, "", null], [E, "x", null]), catalog, true);
    expect(plan.diff.added.map((a) => a.workshop_id)).toEqual([A]);
    expect(plan.diff.not_in_catalog.map((a) => a.mod_id)).toEqual([E]);
    expect(plan.diff.order_changed).toEqual([]);
  });

  test("export round-trip shows no change: fixed always, latest for unpinned mods", () => {
    const items: ExportItem[] = current.map((c) => ({ ...c }));
    const fixed = JSON.stringify({ game: { mods: exportMods(items, "fixed") } });
    const { diff } = computeImportPlan(current, parseImportBody(fixed).entries, catalog, true);
    expect(diff).toEqual({
      added: [],
      removed: [],
      version_changed: [],
      order_changed: [],
      not_in_catalog: [],
      unchanged: diff.unchanged,
      required_changed: [],
      kept_latest: [],
      stale_pins: [],
      notes: [],
      config_changes: [],
    });
    expect(diff.unchanged).toHaveLength(3);

    const unpinned = current.map((c) => ({ ...c, pinned_version: null }));
    const latest = JSON.stringify({ game: { mods: exportMods(unpinned, "latest") } });
    const d2 = computeImportPlan(unpinned, parseImportBody(latest).entries, catalog, true).diff;
    expect(d2.version_changed).toEqual([]);
    expect(d2.unchanged).toHaveLength(3);
    // A mod pinned below its latest version is moved to latest by a `latest` file.
    const d3 = computeImportPlan(current, parseImportBody(JSON.stringify(exportMods(items, "latest"))).entries, catalog, false).diff;
    expect(d3.version_changed).toEqual([{ workshop_id: A, name: "Alpha", old_version: "1.0.0", new_version: "1.1.0" }]);
  });
});
