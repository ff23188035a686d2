// modsHash and reportedModsHash (mods-hash.ts): a server's reported mod list hashes to what game_servers.mods_hash holds
// from every earlier scan (Bun.hash of the list's text), whether its bytes are written into the
// reused buffer (all ASCII) or the text is built (any other character).
import { describe, expect, test } from "bun:test";
import type { LiveMod } from "./battlemetrics";
import { modsHash, modsHashOfText, reportedModsHash } from "./mods-hash";
import { readServer, reportedModsOf } from "./battlemetrics";

/** The hash built from the list's text, as every stored hash was made: what modsHash must equal. */
const textHash = (mods: LiveMod[]) => {
  if (mods.length === 0) return "0";
  let s = "";
  for (const m of mods) s += `${m.workshop_id}\u0001${m.version ?? ""}\u0001${m.name ?? ""}\u0002`;
  return Bun.hash(s).toString(36);
};

describe("modsHash", () => {
  test("is the hash of the list's text, for every shape of ids, versions and names", () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const pieces = ["", "1.0.3", "Generated Mod 12", "Мод ⚙", "é", "x\u0000y", "\u007f", "\u0080", "😀", "a\"b\\c", "[\"x\",1]"];
    const lists: LiveMod[][] = [[], [{ workshop_id: "5A00000000000001", name: null, version: null }]];
    for (let l = 0; l < 300; l++) {
      const n = rand(60);
      const ascii = l % 3 !== 0;
      lists.push(
        Array.from({ length: n }, (_, k) => ({
          workshop_id: `5A${String(k).padStart(14, "0")}`,
          name: rand(5) === 0 ? null : ascii ? `Mod ${rand(1000)}` : pieces[rand(pieces.length)]!,
          version: rand(4) === 0 ? null : ascii ? `1.0.${rand(20)}` : pieces[rand(pieces.length)]!,
        })),
      );
    }
    // Longer than the buffer starts (64 KiB), in one list and after a short one.
    lists.push(Array.from({ length: 3000 }, (_, k) => ({ workshop_id: `5A${String(k).padStart(14, "0")}`, name: `A long mod name number ${k}`, version: "10.20.30" })));
    lists.push([{ workshop_id: "X", name: "", version: "" }]);
    lists.push([{ workshop_id: "5A00000000000002", name: "Мод", version: "1" }, ...lists[lists.length - 2]!]);
    for (const l of lists) {
      expect(modsHash(l)).toBe(textHash(l));
      expect(modsHashOfText(l)).toBe(textHash(l));
    }
    // The stored format does not move: one list's hash as earlier scans stored it.
    const fixed: LiveMod[] = [
      { workshop_id: "5A00000000000135", name: "Generated Mod 309", version: "1.0.3" },
      { workshop_id: "5A00000000000122", name: null, version: null },
    ];
    expect(modsHash(fixed)).toBe(Bun.hash("5A00000000000135\u00011.0.3\u0001Generated Mod 309\u00025A00000000000122\u0001\u0001\u0002").toString(36));
  });
});

describe("reportedModsHash", () => {
  // A server as a page reports it, read by readServer (normalise), with these mods.
  const serverWith = (mods: unknown[]) =>
    readServer({ type: "server", id: "1", attributes: { name: "S", ip: "203.0.113.1", port: 2001, players: 1, maxPlayers: 64, status: "online", details: { reforger: { mods } } } })!;
  const id = (k: number) => `5A${String(k).padStart(14, "0")}`;

  test("hashes a list in normal form as modsHash hashes its normalised mods", () => {
    let seed = 11;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let l = 0; l < 200; l++) {
      const raw = Array.from({ length: rand(50) }, (_, k) => {
        const o: Record<string, unknown> = { modId: id(k) };
        const r = rand(6);
        if (r !== 0) o.name = r === 1 ? 7 : `Mod ${rand(1000)}`;
        if (rand(4) !== 0) o.version = rand(5) === 0 ? null : `1.0.${rand(20)}`;
        return o;
      });
      const hash = reportedModsHash(raw);
      expect(hash).toBe(modsHash(serverWith(raw).mods));
      expect(hash).toBe(modsHashOfText(serverWith(raw).mods));
    }
    expect(reportedModsHash([])).toBe(modsHash([]));
  });

  test("answers nothing for a list normalising would change or that is not all ASCII", () => {
    for (const odd of [
      id(1),
      { modId: id(1).toLowerCase() },
      { modId: ` ${id(1)}` },
      { modId: "5A0000000000000" },
      { modId: 7 },
      null,
      [id(1)],
      { modId: id(1), name: "Мод" },
      { modId: id(1), version: "1.0", name: "é" },
    ]) {
      expect(reportedModsHash([{ modId: id(0), name: "A" }, odd])).toBeUndefined();
    }
  });

  test("a list that repeats an id hashes otherwise than its normalised list (the repeat dropped)", () => {
    const raw = [{ modId: id(1), name: "A" }, { modId: id(2), name: "B" }, { modId: id(1), name: "A again" }];
    const mods = serverWith(raw).mods;
    expect(mods.map((m) => m.workshop_id)).toEqual([id(1), id(2)]);
    expect(reportedModsHash(raw)).toBeString();
    expect(reportedModsHash(raw)).not.toBe(modsHash(mods));
  });

  test("a server's mods are normalised when first read, once, and its tags need no normalising", () => {
    const s = serverWith([{ modId: ` ${id(3).toLowerCase()} `, name: "Trimmed" }, "junk", { modId: id(3), name: "Repeat" }]);
    expect(reportedModsOf(s)).toHaveLength(3);
    expect(s.tags).toContain("modded");
    expect(s.mods).toEqual([{ workshop_id: id(3), name: "Trimmed", version: null }]);
    expect(s.mods).toBe(s.mods);
    expect(serverWith(["junk", { modId: "x" }]).tags).toContain("vanilla");
    expect(serverWith([]).tags).toContain("vanilla");
  });
});
