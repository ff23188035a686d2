// Edit, don't rewrite (docs/lists.md): writing a mod list into a config changes `game.mods` and
// nothing else, byte for byte; an entry of an unchanged mod keeps its text. A property test over
// random configs (layouts people write: indentation, CRLF, BOM, one-line or spread entries, key
// orders, `"version": ""`, numbers as written) and random mod lists, plus the named cases.
import { describe, expect, test } from "bun:test";
import { mulberry32 } from "../../../test/fixtures/prng";
import { outsideMods } from "../../../test/config-text";
import { nodeAt, nodeText, parseJsonDocument } from "../../shared/jsonc";
import { writeModsIntoConfig, type ModToWrite } from "./server-json-edit";

const hex = (rnd: () => number) => Array.from({ length: 16 }, () => "0123456789ABCDEF"[Math.floor(rnd() * 16)]).join("");
const pick = <T,>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

/** A config text as someone might have written it, with `n` mods, and the entries it holds. */
function randomConfig(rnd: () => number, ids: string[]): { text: string; entries: ModToWrite[] } {
  const eol = rnd() < 0.3 ? "\r\n" : "\n";
  const unit = pick(rnd, ["  ", "    ", "\t"]);
  const oneLineEntries = rnd() < 0.5;
  const nameFirst = rnd() < 0.3;
  const emptyVersion = rnd() < 0.3;
  const entries: ModToWrite[] = ids.map((id, i) => ({
    modId: id,
    name: `Mod ${i} "quoted" \\ name`,
    version: rnd() < 0.4 ? `1.${i}.0` : null,
    required: rnd() < 0.2 ? rnd() < 0.5 : null,
  }));
  const entryText = (e: ModToWrite, depth: number) => {
    const parts: [string, string][] = [];
    const id: [string, string] = ["modId", JSON.stringify(e.modId)];
    const name: [string, string] = ["name", JSON.stringify(e.name)];
    if (nameFirst) parts.push(name, id);
    else parts.push(id, name);
    if (e.version !== null) parts.push(["version", JSON.stringify(e.version)]);
    else if (emptyVersion) parts.push(["version", '""']);
    if (e.required !== null) parts.push(["required", String(e.required)]);
    if (oneLineEntries) return `{ ${parts.map(([k, v]) => `"${k}": ${v}`).join(", ")} }`;
    const inner = unit.repeat(depth + 1);
    return `{${eol}${parts.map(([k, v]) => `${inner}"${k}": ${v}`).join(`,${eol}`)}${eol}${unit.repeat(depth)}}`;
  };
  const i1 = unit;
  const i2 = unit.repeat(2);
  const i3 = unit.repeat(3);
  const mods = entries.length ? `[${eol}${entries.map((e) => i3 + entryText(e, 3)).join(`,${eol}`)}${eol}${i2}]` : "[]";
  const gameKeys = [
    `${i2}"name": "Server ${Math.floor(rnd() * 1000)}"`,
    `${i2}"admins": [${rnd() < 0.5 ? "76561198200329058" : '"76561198000000001"'}]`,
    `${i2}"maxPlayers": ${pick(rnd, ["64", "64.0", "1.28e2"])}`,
    `${i2}"gameProperties": { "serverMaxViewDistance": ${pick(rnd, ["2500", "3000.0"])}, "battlEye": true }`,
    `${i2}"mods": ${mods}`,
  ];
  if (rnd() < 0.5) gameKeys.push(gameKeys.splice(4, 1)[0]!); // mods first or last
  else gameKeys.unshift(gameKeys.splice(4, 1)[0]!);
  const text =
    (rnd() < 0.3 ? "\ufeff" : "") +
    `{${eol}${i1}"bindPort": 2001,${eol}${i1}"game": {${eol}${gameKeys.join(`,${eol}`)}${eol}${i1}},${eol}${i1}"operating": { "aiLimit": -1.0 }${eol}}` +
    (rnd() < 0.7 ? eol : "");
  return { text, entries };
}

/** The mods a config holds, as the writer's input. */
function modsIn(text: string): ModToWrite[] {
  const doc = parseJsonDocument(text);
  const arr = (doc.value as any).game?.mods ?? [];
  return arr.map((m: any) => ({ modId: m.modId, name: m.name, version: m.version === "" || m.version === undefined ? null : m.version, required: m.required ?? null }));
}

describe("writeModsIntoConfig", () => {
  test("property: random mod lists into random configs change game.mods only; kept entries keep their text", () => {
    const rnd = mulberry32(45);
    for (let round = 0; round < 300; round++) {
      const pool = Array.from({ length: 12 }, () => hex(rnd));
      const start = pool.filter(() => rnd() < 0.5);
      const { text, entries } = randomConfig(rnd, start);
      // A new list: some kept (maybe re-pinned, required changed), some removed, some new, shuffled or not.
      const want: ModToWrite[] = [];
      for (const id of pool) {
        const had = entries.find((e) => e.modId === id);
        if (had && rnd() < 0.8) {
          const repin = rnd() < 0.2;
          want.push({ ...had, version: repin ? (had.version ? null : "9.9.9") : had.version, required: rnd() < 0.1 ? !(had.required ?? true) : had.required });
        } else if (!had && rnd() < 0.3) want.push({ modId: id, name: `New ${id}`, version: rnd() < 0.5 ? "2.0" : null, required: null });
      }
      if (rnd() < 0.3) want.reverse();
      const out = writeModsIntoConfig(text, want);
      // Every byte outside game.mods is the file's own.
      expect(outsideMods(out)).toBe(outsideMods(text));
      // The mods are exactly the list, in order, with their pins and required.
      const got = modsIn(out);
      expect(got.map((m) => m.modId)).toEqual(want.map((m) => m.modId));
      expect(got.map((m) => m.version)).toEqual(want.map((m) => m.version));
      expect(got.map((m) => m.required ?? true)).toEqual(want.map((m) => m.required ?? true));
      // An entry that did not change keeps its text (its key order, its name, a "version": "").
      const before = new Map((nodeAt(parseJsonDocument(text).root, ["game", "mods"])?.children ?? []).map((n) => [(parseJsonDocument(nodeText(text, n)).value as any).modId, nodeText(text, n)]));
      const after = nodeAt(parseJsonDocument(out).root, ["game", "mods"])?.children ?? [];
      want.forEach((w, i) => {
        const had = entries.find((e) => e.modId === w.modId);
        if (had && had.version === w.version && (had.required ?? true) === (w.required ?? true)) expect(nodeText(out, after[i]!)).toBe(before.get(w.modId)!);
      });
      // Writing the same list again changes nothing.
      expect(writeModsIntoConfig(out, want)).toBe(out);
    }
  });

  test("a changed entry keeps the person's key order and name; a new one copies the layout of the first", () => {
    const text = '{"game": {"mods": [\n  {"name": "Enhanced Weapon Immersion 2.6", "modId": "5965550F24A0C152", "version": "1.0"}\n]}}';
    const out = writeModsIntoConfig(text, [
      { modId: "5965550F24A0C152", name: "BetterWeaponImmersion", version: "1.1", required: null },
      { modId: "591AF5BDA9F7CE8B", name: "Capture", version: null, required: false },
    ]);
    expect(out).toBe(
      '{"game": {"mods": [\n  {"name": "Enhanced Weapon Immersion 2.6", "modId": "5965550F24A0C152", "version": "1.1"},\n  {"name": "Capture", "modId": "591AF5BDA9F7CE8B", "required": false}\n]}}',
    );
  });

  test("a mods-less game gets game.mods laid out like the document; an emptied list leaves []", () => {
    expect(writeModsIntoConfig('{\n  "game": {\n    "name": "x"\n  }\n}\n', [{ modId: "5965550F24A0C152", name: "A", version: null, required: null }])).toBe(
      '{\n  "game": {\n    "name": "x",\n    "mods": [\n      {\n        "modId": "5965550F24A0C152",\n        "name": "A"\n      }\n    ]\n  }\n}\n',
    );
    expect(writeModsIntoConfig('{"game": {"mods": [{"modId": "5965550F24A0C152", "name": "A"}], "x": 1}}', [])).toBe('{"game": {"mods": [], "x": 1}}');
  });

  test("the list's required default against the file's: stated where they differ", () => {
    const text = '{"game": {"modsRequiredByDefault": true, "mods": []}}';
    expect(modsIn(writeModsIntoConfig(text, [{ modId: "5965550F24A0C152", name: "A", version: null, required: null }], { listRequiredDefault: false }))[0]!.required).toBe(false);
    expect(modsIn(writeModsIntoConfig(text, [{ modId: "5965550F24A0C152", name: "A", version: null, required: null }], { listRequiredDefault: true }))[0]!.required).toBeNull();
  });
});
