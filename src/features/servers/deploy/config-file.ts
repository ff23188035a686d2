// The server's config file (server.json) as a deploy edits it: turn a list's mods into
// `game.mods` entries and put them into the server's current config text, keeping every other
// key as it was. Pure: no database, no network. The entry shape is the lists feature's
// (`ServerJsonMod` in lists/server-json-format.ts), which also writes the exports.
import type { ServerJsonMod } from "../../lists";
import { DeployError } from "./errors";

/** What the deploy needs from a list item. */
export interface ListModForDeploy {
  workshop_id: string;
  name: string;
  pinned_version: string | null;
  /** The stated per-mod `required` (1/0 or true/false); null or absent when the list's default applies. */
  required?: number | boolean | null;
}

/**
 * List mods → `game.mods`, in list order. A pinned mod carries its version; an unpinned one is
 * written without `version` (the game then loads the latest), as the `fixed` export does. A
 * stated `required` is written; an unstated one is settled against the server's own
 * config by applyModsToConfig.
 */
export function listToServerJsonMods(items: readonly ListModForDeploy[]): ServerJsonMod[] {
  return items.map((item) => {
    const entry: ServerJsonMod = { modId: item.workshop_id.toUpperCase(), name: item.name };
    if (item.pinned_version != null && item.pinned_version !== "") entry.version = item.pinned_version;
    if (item.required !== null && item.required !== undefined) entry.required = item.required === true || item.required === 1;
    return entry;
  });
}

/** 1-based line and column of a character offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Finds the offset of the first JSON syntax error (JSON.parse in Bun does not say where).
 * Only called after JSON.parse has failed; returns the offset where parsing went wrong.
 */
export function findJsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = () => {
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 0x20) fail();
      if (c === 92) {
        i++;
        const e = text[i];
        if (e === "u") {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? "")) { i += k; fail(); }
          i += 5;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail();
      }
      i++;
    }
    fail();
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail();
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") { i++; return; }
      for (;;) {
        ws();
        string();
        ws();
        if (text[i] !== ":") fail();
        i++;
        value();
        ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") { i++; return; }
        fail();
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") { i++; return; }
      for (;;) {
        value();
        ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") { i++; return; }
        fail();
      }
    }
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return number();
    fail();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
  } catch (at) {
    if (typeof at === "number") return Math.min(at, text.length);
    throw at;
  }
  return text.length;
}

/** Parses config text; a syntax error becomes "<name> is not valid JSON at line N". */
export function parseConfig(text: string, fileName: string): Record<string, unknown> {
  // A UTF-8 byte order mark is common in files edited on Windows; JSON.parse rejects it.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    if (body.trim() === "") throw new DeployError(`${fileName} is empty`);
    const { line } = lineAndColumn(body, findJsonErrorOffset(body));
    throw new DeployError(`${fileName} is not valid JSON at line ${line}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new DeployError(`${fileName} must contain a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * Replaces `game.mods` in the config text and re-serialises it with 2-space indentation; all
 * other keys keep their values and order. Returns the new text (trailing newline kept as found).
 */
export function applyModsToConfig(text: string, mods: readonly ServerJsonMod[], fileName: string, listRequiredDefault = true): string {
  const config = parseConfig(text, fileName);
  const game = config.game;
  if (game === undefined) {
    throw new DeployError(`${fileName} has no "game" section; it does not look like a game server config`);
  }
  if (game === null || typeof game !== "object" || Array.isArray(game)) {
    throw new DeployError(`${fileName}: "game" must be an object`);
  }
  // A mod whose `required` the list does not state follows the list's modsRequiredByDefault;
  // where the server's own default differs, it is written out so it keeps its meaning.
  const serverDefault = (game as Record<string, unknown>).modsRequiredByDefault;
  const differs = listRequiredDefault !== (typeof serverDefault === "boolean" ? serverDefault : true);
  (game as Record<string, unknown>).mods = mods.map((m) => (differs && m.required === undefined ? { ...m, required: listRequiredDefault } : { ...m }));
  const out = JSON.stringify(config, null, 2);
  return /\r?\n$/.test(text) ? `${out}\n` : out;
}

/** The mods a config text currently holds (used to verify a read-back). */
export function modsInConfig(text: string, fileName: string): unknown {
  const config = parseConfig(text, fileName);
  const game = config.game as Record<string, unknown> | undefined;
  return game?.mods;
}
