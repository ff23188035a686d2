// server.json in and out: parsing the four import shapes of the spec and writing the export
// shapes of external-formats.md §1. Pure functions: no database, no HTTP.

/** A malformed import body; the service turns it into 400 {error: message}. */
export class ImportFormatError extends Error {
  override name = "ImportFormatError";
}

/** One mod entry of an imported file, normalised: upper-case id, version null = latest. */
export interface ImportEntry {
  workshop_id: string;
  name: string;
  version: string | null;
}

/** Bounds on imported fields: a version is a short label, a name a display name. */
export const MAX_IMPORT_VERSION = 64;
export const MAX_IMPORT_NAME = 200;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Which of the four accepted body shapes a request used. */
export type ImportShape = "full" | "simplified" | "fragment" | "array";

export interface ParsedImport {
  shape: ImportShape;
  entries: ImportEntry[];
}

const WORKSHOP_ID = /^[0-9A-Fa-f]{16}$/;

const SHAPES_HINT =
  'expected one of: a full server.json {"game": {"mods": [...]}}, {"mods": [...]}, ' +
  'the fragment "mods": [...], or a bare array [...] of {modId, name, version}';

const SHAPE_LABEL: Record<ImportShape, string> = {
  full: "full server.json",
  simplified: "simplified {mods}",
  fragment: 'fragment "mods": [...]',
  array: "bare array",
};

/** Path prefix used in error messages so the caller sees which shape was read. */
const SHAPE_PATH: Record<ImportShape, string> = {
  full: "game.mods",
  simplified: "mods",
  fragment: "mods",
  array: "",
};

function bad(message: string): never {
  throw new ImportFormatError(message);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Parses a raw import body. Throws ImportFormatError with a message naming the shape, the entry
 * index and the field when anything is wrong.
 */
export function parseImportBody(raw: string): ParsedImport {
  // A UTF-8 BOM is common in files saved by Windows editors.
  const text = raw.replace(/^\uFEFF/, "").trim();
  if (text === "") bad(`empty body: ${SHAPES_HINT}`);

  let shape: ImportShape;
  let mods: unknown;

  if (text.startsWith('"')) {
    // Shape 3: `"mods": [...]` is not JSON on its own; wrap it in braces. A trailing comma is
    // what one gets when copying the line out of a file.
    if (!/^"mods"\s*:/.test(text)) bad(`fragment: expected the text "mods": [...]; ${SHAPES_HINT}`);
    const parsed = tryJson(`{${text.replace(/,\s*$/, "")}}`);
    if (!parsed.ok) bad(`invalid JSON in fragment "mods": [...]: ${parsed.message}`);
    const obj = parsed.value as Record<string, unknown>;
    if (Object.keys(obj).length !== 1) bad(`fragment "mods": [...]: expected only the "mods" key, found ${Object.keys(obj).map((k) => `"${k}"`).join(", ")}`);
    shape = "fragment";
    mods = obj.mods;
    if (!Array.isArray(mods)) bad(`fragment "mods": [...]: mods must be an array, got ${describe(mods)}`);
  } else {
    const parsed = tryJson(text);
    if (!parsed.ok) bad(`invalid JSON: ${parsed.message}; ${SHAPES_HINT}`);
    const value = parsed.value;
    if (Array.isArray(value)) {
      shape = "array";
      mods = value;
    } else if (value !== null && typeof value === "object") {
      const obj = value as Record<string, unknown>;
      if ("game" in obj) {
        shape = "full";
        const game = obj.game;
        if (game === null || typeof game !== "object" || Array.isArray(game))
          bad(`full server.json: "game" must be an object, got ${describe(game)}`);
        mods = (game as Record<string, unknown>).mods;
        if (mods === undefined) bad('full server.json: "game.mods" is missing');
        if (!Array.isArray(mods)) bad(`full server.json: "game.mods" must be an array, got ${describe(mods)}`);
      } else if ("mods" in obj) {
        shape = "simplified";
        mods = obj.mods;
        if (!Array.isArray(mods)) bad(`simplified {mods}: "mods" must be an array, got ${describe(mods)}`);
      } else {
        bad(`object has neither "game" nor "mods"; ${SHAPES_HINT}`);
      }
    } else {
      bad(`body is ${describe(value)}; ${SHAPES_HINT}`);
    }
  }

  return { shape, entries: parseEntries(shape, mods as unknown[]) };
}

/** Where entry `i` of a body of this shape stood, for error messages ("server.json (full): game.mods[3]"). */
export const entryLabel = (shape: ImportShape, i: number) => `${SHAPE_LABEL[shape]}: ${SHAPE_PATH[shape]}[${i}]`;

function parseEntries(shape: ImportShape, mods: unknown[]): ImportEntry[] {
  const label = SHAPE_LABEL[shape];
  const base = SHAPE_PATH[shape];
  const seen = new Map<string, number>();
  const entries: ImportEntry[] = new Array(mods.length);
  for (let i = 0; i < mods.length; i++) {
    const at = `${base}[${i}]`;
    const m = mods[i];
    if (m === null || typeof m !== "object" || Array.isArray(m))
      bad(`${label}: ${at} must be an object {modId, name, version}, got ${describe(m)}`);
    const e = m as Record<string, unknown>;
    // `modID` is what some older config generators write; the game reads `modId`.
    const id = e.modId ?? e.modID;
    if (id === undefined) bad(`${label}: ${at}.modId is missing`);
    if (typeof id !== "string") bad(`${label}: ${at}.modId must be a string, got ${describe(id)}`);
    if (!WORKSHOP_ID.test(id)) bad(`${label}: ${at}.modId: invalid workshop ID "${id.slice(0, 40)}" (16 hexadecimal characters expected)`);
    const workshopId = id.toUpperCase();
    const name = e.name;
    if (name !== undefined && name !== null && typeof name !== "string")
      bad(`${label}: ${at}.name must be a string, got ${describe(name)}`);
    if (typeof name === "string" && name.length > MAX_IMPORT_NAME) bad(`${label}: ${at}.name must be at most ${MAX_IMPORT_NAME} characters`);
    const version = e.version;
    if (version !== undefined && version !== null && typeof version !== "string")
      bad(`${label}: ${at}.version must be a string, got ${describe(version)}`);
    if (typeof version === "string" && (version.trim().length > MAX_IMPORT_VERSION || CONTROL.test(version)))
      bad(`${label}: ${at}.version must be a version label of at most ${MAX_IMPORT_VERSION} printable characters`);
    const first = seen.get(workshopId);
    if (first !== undefined) bad(`${label}: ${at}.modId: duplicate mod ${workshopId} (also at ${base}[${first}])`);
    seen.set(workshopId, i);
    entries[i] = {
      workshop_id: workshopId,
      name: typeof name === "string" ? name : "",
      version: typeof version === "string" && version.trim() !== "" ? version.trim() : null,
    };
  }
  return entries;
}

// ---------------------------------------------------------------------------------------------
// Export

/** What the export needs to know of one list item, in list order. */
export interface ExportItem {
  workshop_id: string;
  name: string;
  pinned_version: string | null;
  /** Latest version the catalog knows; null or "" when the mod was never scraped. */
  latest_version: string | null;
}

export type ExportType = "fixed" | "latest";

/** A server.json mod entry (`version` absent means "latest" to the game). */
export interface ServerJsonMod {
  modId: string;
  name: string;
  version?: string;
}

/** `fixed`: pinned versions, unpinned mods without version. `latest`: latest known versions. */
export function exportMods(items: readonly ExportItem[], type: ExportType): ServerJsonMod[] {
  const out: ServerJsonMod[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    const version = type === "fixed" ? it.pinned_version : it.latest_version || it.pinned_version;
    out[i] = version ? { modId: it.workshop_id, name: it.name, version } : { modId: it.workshop_id, name: it.name };
  }
  return out;
}

/** The spec's `export` body: the `{game: {mods}}` fragment of a server.json. */
export function exportFragment(items: readonly ExportItem[], type: ExportType): { game: { mods: ServerJsonMod[] } } {
  return { game: { mods: exportMods(items, type) } };
}

/** Default scenario: Conflict – Everon, shipped with the game. */
export const DEFAULT_SCENARIO_ID = "{ECC61978EDCC2B5A}Missions/23_Campaign.conf";

/**
 * A complete dedicated-server config with the documented defaults (external-formats.md §1).
 * The game rejects unknown keys, so only documented keys are written.
 */
export function exportGameConfig(listName: string, items: readonly ExportItem[], type: ExportType) {
  return {
    bindAddress: "0.0.0.0",
    bindPort: 2001,
    publicAddress: "",
    publicPort: 2001,
    a2s: { address: "0.0.0.0", port: 17777 },
    game: {
      name: listName.slice(0, 100),
      password: "",
      passwordAdmin: "",
      admins: [] as string[],
      scenarioId: DEFAULT_SCENARIO_ID,
      maxPlayers: 64,
      visible: true,
      crossPlatform: false,
      supportedPlatforms: ["PLATFORM_PC"],
      gameProperties: {
        serverMaxViewDistance: 1600,
        serverMinGrassDistance: 0,
        networkViewDistance: 1500,
        disableThirdPerson: false,
        fastValidation: true,
        battlEye: true,
        VONDisableUI: false,
        VONDisableDirectSpeechUI: false,
      },
      modsRequiredByDefault: true,
      mods: exportMods(items, type),
    },
    operating: {
      lobbyPlayerSynchronise: true,
      joinQueue: { maxSize: 0 },
    },
  };
}

/** A file name safe for Content-Disposition, derived from the list name. */
export function exportFileName(listName: string, suffix: string): string {
  const slug = listName
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/[\s_]+/g, "-")
    .toLowerCase()
    .slice(0, 60);
  return `${slug || "modlist"}-${suffix}.json`;
}
