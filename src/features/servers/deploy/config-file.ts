// The server's config file (server.json) as a deploy edits it: turn a list's mods into
// `game.mods` entries and put them into the server's current config text, keeping every other
// byte as it was. Pure: no database, no network. The entry shape is the lists feature's
// (`ServerJsonMod` in lists/server-json-format.ts), which also writes the exports.
import { ConfigShapeError, writeModsIntoConfig, type ServerJsonMod } from "../../lists";
import { JsonSyntaxError, parseJsonDocument } from "../../../shared/jsonc";
import { strictJsonText } from "../../../shared/json-edit";
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

/**
 * Parses config text (comments and trailing commas tolerated, as people write it); a syntax
 * error becomes "<name> is not valid JSON at line N, column C: <what>".
 */
export function parseConfig(text: string, fileName: string): Record<string, unknown> {
  if (text.replace(/^\ufeff/, "").trim() === "") throw new DeployError(`${fileName} is empty`);
  let parsed: unknown;
  try {
    parsed = parseJsonDocument(text).value;
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new DeployError(`${fileName} is not valid JSON at line ${e.line}, column ${e.column}: ${e.reason}`);
    throw e;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new DeployError(`${fileName} must contain a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * The config text with `game.mods` replaced by `mods`, edited in place (lists/server-json-edit.ts):
 * every other byte as it was, an entry of a mod that did not change keeps its text; comments and
 * trailing commas removed, because the game's parser refuses them. A mod whose `required` the
 * list does not state follows the list's modsRequiredByDefault; where the server's own default
 * differs, it is written out so it keeps its meaning.
 */
export function applyModsToConfig(text: string, mods: readonly ServerJsonMod[], fileName: string, listRequiredDefault = true): string {
  parseConfig(text, fileName); // the file's own faults named first, with the file's name
  try {
    const want = mods.map((m) => ({ modId: m.modId, name: m.name, version: m.version ?? null, required: m.required ?? null }));
    return strictJsonText(writeModsIntoConfig(text, want, { listRequiredDefault }));
  } catch (e) {
    if (e instanceof ConfigShapeError) throw new DeployError(e.message.startsWith("has ") ? `${fileName} ${e.message}` : `${fileName}: ${e.message}`);
    throw e;
  }
}
