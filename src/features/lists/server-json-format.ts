// server.json in and out: parsing the four import shapes of the spec and writing the export
// shapes (`{game: {mods}}` and the complete dedicated-server config; docs/lists.md). Pure
// functions: no database, no HTTP.
import { ignoredNote, JsonSyntaxError, parseJsonDocument, type JsonDocument } from "../../shared/jsonc";
import { hasSettings } from "./config-document";

/** A malformed import body; the service turns it into 400 {error: message}. */
export class ImportFormatError extends Error {
  override name = "ImportFormatError";
}

/** One mod entry of an imported file, normalised: upper-case id, version null = latest. */
export interface ImportEntry {
  workshop_id: string;
  name: string;
  version: string | null;
  /** The entry's `required` when the file states it (null: the list's modsRequiredByDefault applies; absent for entries that do not come from a file). */
  required?: boolean | null;
}

/** Bounds on imported fields: a version is a short label, a name a display name. */
export const MAX_IMPORT_VERSION = 64;
export const MAX_IMPORT_NAME = 200;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Which of the four accepted body shapes a request used. */
export type ImportShape = "full" | "simplified" | "fragment" | "array";

/** What a file says besides its mods: a full config's settings, only mods (the plain export's shape), or nothing (the other shapes). */
export type ImportFileKind = "settings" | "mods_only" | "none";

export interface ParsedImport {
  shape: ImportShape;
  entries: ImportEntry[];
  /** The whole file, as text and tree, when it is a full config with settings (which a list may remember), else null. */
  document: JsonDocument | null;
  kind: ImportFileKind;
  /** What the reader tolerated or assumed, in words, for the preview ("2 comments were ignored"). */
  notes: string[];
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

/**
 * JSON as people write it (comments and trailing commas are skipped and counted in `notes`);
 * `shift` is how many characters were put before the text on its first line (the fragment's
 * brace), so positions name the user's text.
 */
function tryJson(text: string, notes: string[], shift = 0): { ok: true; value: unknown; doc: JsonDocument } | { ok: false; message: string } {
  try {
    const r = parseJsonDocument(text);
    const note = ignoredNote(r);
    if (note) notes.push(note);
    return { ok: true, value: r.value, doc: r };
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    const column = e.line === 1 ? Math.max(1, e.column - shift) : e.column;
    return { ok: false, message: `line ${e.line}, column ${column}: ${e.reason}` };
  }
}

/**
 * Parses a raw import body. Throws ImportFormatError with a message naming the shape, the entry
 * index and the field when anything is wrong.
 */
export function parseImportBody(raw: string, maxEntries = Infinity): ParsedImport {
  // A UTF-8 BOM is common in files saved by Windows editors: the reader reads it as nothing, and
  // the file keeps it. Lines and columns count the text as it came (leading blank lines too).
  const text = raw;
  const start = raw.replace(/^\uFEFF/, "").trimStart();
  if (start.trim() === "") bad(`empty body: ${SHAPES_HINT}`);

  let shape: ImportShape;
  let mods: unknown;
  let document: JsonDocument | null = null;
  let kind: ImportFileKind = "none";
  const notes: string[] = [];

  if (start.startsWith('"')) {
    // Shape 3: `"mods": [...]` is not JSON on its own; wrap it in braces. A trailing comma is
    // what one gets when copying the line out of a file (the reader skips it).
    if (!/^"mods"\s*:/.test(start)) bad(`fragment: expected the text "mods": [...]; ${SHAPES_HINT}`);
    const body = text.replace(/^\uFEFF/, " ");
    const parsed = tryJson(`{${body}\n}`, [], 1);
    if (!parsed.ok) bad(`invalid JSON in fragment "mods": [...]: ${parsed.message}`);
    // The wrapping brace's closing comma is ours, not the user's: count only theirs.
    tryJson(`{${body.replace(/,\s*$/, "")}\n}`, notes, 1);
    const obj = parsed.value as Record<string, unknown>;
    if (Object.keys(obj).length !== 1) bad(`fragment "mods": [...]: expected only the "mods" key, found ${Object.keys(obj).map((k) => `"${k}"`).join(", ")}`);
    shape = "fragment";
    mods = obj.mods;
    if (!Array.isArray(mods)) bad(`fragment "mods": [...]: mods must be an array, got ${describe(mods)}`);
  } else {
    const parsed = tryJson(text, notes);
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
        if (mods === undefined) {
          // A config for a vanilla server: an empty list (its settings are still remembered).
          notes.push('the file has no "game.mods": it imports as an empty list');
          mods = [];
        }
        if (!Array.isArray(mods)) bad(`full server.json: "game.mods" must be an array, got ${describe(mods)}`);
        const byDefault = (game as Record<string, unknown>).modsRequiredByDefault;
        if (byDefault !== undefined && typeof byDefault !== "boolean")
          bad(`full server.json: "game.modsRequiredByDefault" must be true or false, got ${describe(byDefault)}`);
        if (hasSettings(obj)) {
          document = parsed.doc;
          kind = "settings";
        } else kind = "mods_only";
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

  // A list holds at most `maxEntries` mods: a longer file is refused before any entry is read.
  if ((mods as unknown[]).length > maxEntries)
    bad(`the file has ${(mods as unknown[]).length} mod entries; a list holds at most ${maxEntries} mods`);
  return { shape, entries: parseEntries(shape, mods as unknown[]), document, kind, notes };
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
    const required = e.required;
    if (required !== undefined && required !== null && typeof required !== "boolean")
      bad(`${label}: ${at}.required must be true or false, got ${describe(required)}`);
    const first = seen.get(workshopId);
    if (first !== undefined) {
      // Named as people read the file: the mod by its name (either entry's), the entries by number.
      const named = (typeof name === "string" && name.trim()) || (mods[first] as Record<string, unknown>).name;
      const what = typeof named === "string" && named.trim() ? `${named.trim()} (${workshopId})` : workshopId;
      bad(`${label}: ${what} is in the mods twice, as entries ${first + 1} and ${i + 1}; keep one of them`);
    }
    seen.set(workshopId, i);
    entries[i] = {
      workshop_id: workshopId,
      name: typeof name === "string" ? name : "",
      version: typeof version === "string" && version.trim() !== "" ? version.trim() : null,
      required: typeof required === "boolean" ? required : null,
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
  /** The stated per-mod `required` (null or absent: the list's default applies). */
  required?: boolean | null;
}

export type ExportType = "fixed" | "latest";

/** A server.json mod entry (`version` absent means "latest" to the game). */
export interface ServerJsonMod {
  modId: string;
  name: string;
  version?: string;
  /** Written only when it says something: stated on the item, or unlike the target's default. */
  required?: boolean;
}

/**
 * Whose `modsRequiredByDefault` applies: the list's (what an unstated item means) and the
 * target file's (what an entry without `required` will mean there). Both default to the game's
 * default, true.
 */
export interface RequiredDefaults {
  list?: boolean;
  target?: boolean;
}

/** The `required` to write for an item: its stated value, else the list's default where the target's differs. */
export function requiredToWrite(stated: boolean | null | undefined, d: RequiredDefaults = {}): boolean | undefined {
  if (stated === true || stated === false) return stated;
  const list = d.list ?? true;
  return list !== (d.target ?? true) ? list : undefined;
}

/** `fixed`: pinned versions, unpinned mods without version. `latest`: latest known versions. */
export function exportMods(items: readonly ExportItem[], type: ExportType, defaults: RequiredDefaults = {}): ServerJsonMod[] {
  const out: ServerJsonMod[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    const version = type === "fixed" ? it.pinned_version : it.latest_version || it.pinned_version;
    const entry: ServerJsonMod = { modId: it.workshop_id, name: it.name };
    if (version) entry.version = version;
    const required = requiredToWrite(it.required, defaults);
    if (required !== undefined) entry.required = required;
    out[i] = entry;
  }
  return out;
}

/** The spec's `export` body: the `{game: {mods}}` fragment of a server.json. */
export function exportFragment(items: readonly ExportItem[], type: ExportType, listDefault = true): { game: { mods: ServerJsonMod[] } } {
  // The fragment carries no modsRequiredByDefault: whoever pastes it has the game's default.
  return { game: { mods: exportMods(items, type, { list: listDefault, target: true }) } };
}

/** Default scenario: Conflict – Everon, shipped with the game. */
export const DEFAULT_SCENARIO_ID = "{ECC61978EDCC2B5A}Missions/23_Campaign.conf";

/**
 * A complete dedicated-server config with the game's documented defaults.
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
