// Item extraction: from the resource paths a mod version ships to the vehicles, weapons and
// gear it adds. The workshop does not publish file lists, so the paths come from a
// ResourcePathSource (docs/catalog.md explains where real lists come from); the classifier
// itself is pure and driven by fixture path lists in tests.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

export type ItemType = "vehicle" | "weapon" | "gear";
export const ITEM_TYPES: readonly ItemType[] = ["vehicle", "weapon", "gear"] as const;

export interface ExtractedItem {
  type: ItemType;
  /** The prefab's file name without extension, e.g. `UAZ469_covered`. */
  name: string;
  /** The resource path without the GUID prefix, e.g. `Prefabs/Vehicles/Wheeled/UAZ469/UAZ469_covered.et`. */
  path: string;
  /** The resource GUID when the list carried one (`{5E3C3B6D7A1E7B2C}Prefabs/...`), upper case. */
  guid: string | null;
}

/** Where a version's resource path list comes from. `null`: no list available (yet). */
export interface ResourcePathSource {
  pathsFor(workshopId: string, version: string): Promise<string[] | null>;
  /** Versions of a mod for which a list is available (so old versions can be back-filled). */
  versionsFor(workshopId: string): Promise<string[]>;
}

/**
 * Reads `<dir>/<WORKSHOP_ID>/<version>.txt`: one resource path per line, optionally prefixed
 * with its `{GUID}`; blank lines and lines starting with `#` are ignored.
 */
export class DirectoryPathSource implements ResourcePathSource {
  constructor(readonly dir: string) {}

  private file(workshopId: string, version: string): string | null {
    // Versions are workshop strings such as 1.2.0; refuse anything that could leave the folder.
    if (!/^[0-9A-F]{16}$/.test(workshopId) || !/^[\w.\-+]+$/.test(version) || version.startsWith(".")) return null;
    return join(this.dir, workshopId, `${version}.txt`);
  }

  async pathsFor(workshopId: string, version: string): Promise<string[] | null> {
    const f = this.file(workshopId, version);
    if (!f || !existsSync(f)) return null;
    return parsePathList(readFileSync(f, "utf8"));
  }

  async versionsFor(workshopId: string): Promise<string[]> {
    if (!/^[0-9A-F]{16}$/.test(workshopId)) return [];
    const d = join(this.dir, workshopId);
    if (!existsSync(d)) return [];
    return readdirSync(d)
      .filter((n) => n.endsWith(".txt"))
      .map((n) => n.slice(0, -4));
  }
}

/** In-memory source: `{ [workshopId]: { [version]: paths } }` (tests, imports). */
export class StaticPathSource implements ResourcePathSource {
  constructor(readonly lists: Record<string, Record<string, string[]>> = {}) {}
  async pathsFor(workshopId: string, version: string) {
    return this.lists[workshopId]?.[version] ?? null;
  }
  async versionsFor(workshopId: string) {
    return Object.keys(this.lists[workshopId] ?? {});
  }
}

export function parsePathList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

const GUID_RE = /^\{([0-9A-Fa-f]{16})\}/;

// Folders under Prefabs/<Category>/ that hold parts, not items a player picks or drives.
// Not "core": public mods keep whole vehicle variants in Prefabs/Vehicles/Core/ (abstract base
// prefabs there are caught by their names, *_Base).
const PART_FOLDERS = new Set([
  "parts", "wheels", "components", "wrecks", "wreck", "destroyed", "debris", "base",
  "bases", "prototypes", "templates", "test", "tests", "dev", "effects", "sounds", "damage",
  "hitzones", "turrets", "doors", "lights", "proxies", "proxy", "slots", "animations", "anims",
]);

// Under Prefabs/Characters/, the folders that hold wearable gear.
const CHARACTER_GEAR_FOLDERS = new Set([
  "uniforms", "uniform", "headgear", "helmets", "vests", "vest", "backpacks", "backpack",
  "footwear", "boots", "handwear", "gloves", "eyewear", "glasses", "goggles", "headcover",
  "facewear", "masks", "jackets", "jacket", "pants", "trousers", "armor", "armour", "clothes",
  "clothing", "accessories", "pouches", "belts", "webbing", "ghillie", "hats", "caps",
]);

// Under Prefabs/Weapons/, folders of things a player carries but which are not weapons.
const WEAPON_GEAR_FOLDERS = new Set(["magazines", "magazine", "ammo", "ammunition", "attachments", "optics", "sights", "suppressors", "muzzles"]);

// Top-level categories under Prefabs/ that never hold items (props of the world, AI, systems).
const NON_ITEM_ROOTS = new Set([
  "props", "structures", "buildings", "vegetation", "rocks", "terrain", "world", "ai", "groups",
  "systems", "mp", "editor", "editablelist", "compositions", "sounds", "particles", "effects",
  "lights", "animals", "environment", "gamemodes", "logic", "ui", "factions", "managers",
]);

const VEHICLE_WORDS = /(^|[_\-\s])(truck|car|jeep|uaz|ural|btr|brdm|bmp|m998|m1025|m923|humvee|hmmwv|heli|helicopter|uh1h?|mi8|mi-8|tank|apc|ifv|boat|plane|aircraft|van|bus|motorbike|motorcycle|quad|tractor|lav|stryker|t72|t-72|m113)(\d*)([_\-\s]|$)/i;
const WEAPON_WORDS = /(^|[_\-\s])(rifle|carbine|pistol|handgun|smg|shotgun|sniper|launcher|rpg|mg|lmg|hmg|machinegun|grenade|mine|ak\d*|akm|aks\d*|m16a?\d*|m4a?\d*|m249|pkm|pk|svd|rpk|m21|m60|m72|mk\d+|g3|fal)(\d*)([_\-\s]|$)/i;
const GEAR_WORDS = /(^|[_\-\s])(helmet|vest|backpack|uniform|jacket|pants|boots|gloves|cap|hat|beret|balaclava|goggles|radio|binoculars|compass|map|medkit|bandage|tourniquet|morphine|flashlight|nvg|armor|armour|plate|pouch|belt|rucksack)(\d*)([_\-\s]|$)/i;

/** Classifies one resource path; `null` when it is not an item (not a prefab, a part, a prop...). */
export function classifyPath(raw: string): ExtractedItem | null {
  let s = raw.trim().replace(/\\/g, "/");
  let guid: string | null = null;
  const g = GUID_RE.exec(s);
  if (g) {
    guid = g[1]!.toUpperCase();
    s = s.slice(g[0].length);
  }
  s = s.replace(/^\/+/, "");
  if (!/\.et$/i.test(s)) return null; // only prefabs (entity templates) are items
  const segs = s.split("/");
  const prefabsAt = segs.findIndex((x) => x.toLowerCase() === "prefabs");
  if (prefabsAt < 0) return null;
  const file = segs[segs.length - 1]!;
  const name = file.replace(/\.et$/i, "");
  // Base prefabs are abstract: `Vehicle_Base.et`, `_Base.et`, `Rifle_Base.et`, `BaseRifle.et`.
  if (/(^|_)base$/i.test(name) || /^base[_A-Z]/.test(name) || name.startsWith("_")) return null;
  const dirs = segs.slice(prefabsAt + 1, -1).map((x) => x.toLowerCase());
  if (dirs.some((d) => PART_FOLDERS.has(d))) return null;
  const path = segs.slice(prefabsAt).join("/");
  const root = dirs[0] ?? "";
  const item = (type: ItemType): ExtractedItem => ({ type, name, path, guid });

  if (root === "vehicles" || root === "vehicle") return item("vehicle");
  if (root === "weapons" || root === "weapon") {
    if (dirs.some((d) => WEAPON_GEAR_FOLDERS.has(d))) return item("gear");
    return item("weapon");
  }
  if (root === "characters" || root === "character") {
    return dirs.some((d) => CHARACTER_GEAR_FOLDERS.has(d)) ? item("gear") : null;
  }
  if (root === "items" || root === "equipment" || root === "gear" || root === "clothing") return item("gear");
  if (NON_ITEM_ROOTS.has(root)) return null;
  // A mod's own folder layout (Prefabs/MyMod/...): fall back on folder and file names.
  for (const d of dirs) {
    if (d === "vehicles") return item("vehicle");
    if (d === "weapons") return dirs.some((x) => WEAPON_GEAR_FOLDERS.has(x)) ? item("gear") : item("weapon");
    if (CHARACTER_GEAR_FOLDERS.has(d) || d === "items" || d === "equipment" || d === "gear") return item("gear");
  }
  if (VEHICLE_WORDS.test(name)) return item("vehicle");
  if (WEAPON_WORDS.test(name)) return item("weapon");
  if (GEAR_WORDS.test(name)) return item("gear");
  return null;
}

/** Extracts the items of a version's path list: classified, deduplicated (by GUID, else path), sorted. */
export function extractItems(paths: Iterable<string>): ExtractedItem[] {
  const byKey = new Map<string, ExtractedItem>();
  for (const p of paths) {
    const it = classifyPath(p);
    if (!it) continue;
    const key = itemKey(it);
    if (!byKey.has(key)) byKey.set(key, it);
  }
  return [...byKey.values()].sort((a, b) => a.type.localeCompare(b.type) || a.name.localeCompare(b.name) || a.path.localeCompare(b.path));
}

/** Identity of an item across versions: its GUID, else its path. */
export const itemKey = (it: { guid: string | null; path: string }) => it.guid ?? it.path.toLowerCase();

export interface ItemDiff {
  added: ExtractedItem[];
  removed: ExtractedItem[];
  changed: { from: ExtractedItem; to: ExtractedItem }[];
}

/** Items added, removed and changed (same identity, other path, name or type) between two versions. */
export function diffItems(from: ExtractedItem[], to: ExtractedItem[]): ItemDiff {
  const a = new Map(from.map((i) => [itemKey(i), i]));
  const b = new Map(to.map((i) => [itemKey(i), i]));
  const added: ExtractedItem[] = [];
  const removed: ExtractedItem[] = [];
  const changed: { from: ExtractedItem; to: ExtractedItem }[] = [];
  for (const [k, it] of b) {
    const old = a.get(k);
    if (!old) added.push(it);
    else if (old.path !== it.path || old.name !== it.name || old.type !== it.type) changed.push({ from: old, to: it });
  }
  for (const [k, it] of a) if (!b.has(k)) removed.push(it);
  return { added, removed, changed };
}
