// Writing a list's mods into a server config as a text edit (docs/lists.md "Edit, don't
// rewrite"): only `game.mods` changes, and inside it only the entries whose mod, pin or
// `required` changed. An entry Loadout leaves alone keeps its text (its key order, its `name`,
// a `"version": ""`); a changed entry is edited in place (its other keys and layout kept); a new
// entry copies the layout of the file's first entry. Everything outside `game.mods` stays byte
// for byte. Used by export/game (the list's remembered file) and by every deploy (the server's
// own file). Pure: no database.
import { nodeAt, nodeText, parseJsonDocument, propertyOf, type JsonNode } from "../../shared/jsonc";
import { removeJsonValue, setJsonValue } from "../../shared/json-edit";

/** One mod as the list wants it: `version` null = the newest, `required` null = not stated. */
export interface ModToWrite {
  modId: string;
  name: string;
  version: string | null;
  required: boolean | null;
}

/** A config the writer cannot put mods into (not JSON, no `game` object, `game.mods` not an array). */
export class ConfigShapeError extends Error {
  override name = "ConfigShapeError";
}

interface Entry {
  node: JsonNode;
  id: string;
  /** The key the file names the id with (`modId`, or `modID` as older generators write it). */
  idKey: string;
  version: string | null | undefined;
  required: boolean | null;
}

function readEntry(text: string, node: JsonNode): Entry | null {
  if (node.type !== "object") return null;
  const idProp = propertyOf(node, "modId") ?? propertyOf(node, "modID");
  const id = idProp?.children?.[1]?.value;
  if (typeof id !== "string") return null;
  const v = propertyOf(node, "version")?.children?.[1];
  const r = propertyOf(node, "required")?.children?.[1];
  return {
    node,
    id: id.toUpperCase(),
    idKey: idProp!.children![0]!.value as string,
    version: v === undefined ? undefined : typeof v.value === "string" ? v.value : null,
    required: typeof r?.value === "boolean" ? r.value : null,
  };
}

/** What an entry without `required` means in that file: its `game.modsRequiredByDefault`, else the game's default (true). */
function requiredDefaultOf(game: JsonNode): boolean {
  const v = propertyOf(game, "modsRequiredByDefault")?.children?.[1]?.value;
  return typeof v === "boolean" ? v : true;
}

/**
 * `text` with `game.mods` holding exactly `mods`, in order. `listRequiredDefault` is what an
 * unstated `required` means in the list; where the file's own default differs, the list's is
 * written out on the entries that need it. Throws JsonSyntaxError (not JSON) or ConfigShapeError.
 */
export function writeModsIntoConfig(text: string, mods: readonly ModToWrite[], opts: { listRequiredDefault?: boolean } = {}): string {
  const doc = parseJsonDocument(text);
  const game = nodeAt(doc.root, ["game"]);
  if (doc.root.type !== "object") throw new ConfigShapeError("the config must be a JSON object");
  if (!game) throw new ConfigShapeError('has no "game" section; it does not look like a game server config');
  if (game.type !== "object") throw new ConfigShapeError('"game" must be an object');
  const fileDefault = requiredDefaultOf(game);
  const listDefault = opts.listRequiredDefault ?? true;
  /** The `required` to state on a new or edited entry (undefined: leave it unstated). */
  const requiredToState = (m: ModToWrite): boolean | undefined => (m.required !== null ? m.required : listDefault !== fileDefault ? listDefault : undefined);

  const arr = propertyOf(game, "mods")?.children?.[1];
  if (!arr) {
    if (!mods.length) return text;
    return setJsonValue(text, ["game", "mods"], mods.map((m) => freshEntry(m, requiredToState(m))), doc.root);
  }
  if (arr.type !== "array") throw new ConfigShapeError('"game.mods" must be an array');

  const entries = (arr.children ?? []).map((n) => ({ n, e: readEntry(text, n) }));
  const byId = new Map<string, Entry>();
  for (const { e } of entries) if (e && !byId.has(e.id)) byId.set(e.id, e);
  const template = entries.find((x) => x.e)?.e ?? null;

  const out: { text: string; from: Entry | null; changed: boolean }[] = [];
  for (const m of mods) {
    const id = m.modId.toUpperCase();
    const e = byId.get(id);
    byId.delete(id); // a second entry for the same mod in the file is not kept
    if (!e) {
      out.push({ text: template ? fromTemplate(text, template, m, requiredToState(m)) : "", from: null, changed: true });
      continue;
    }
    const own = nodeText(text, e.node);
    const versionSame = m.version === null ? e.version === undefined || e.version === null || e.version === "" : e.version === m.version;
    const requiredSame = (e.required ?? fileDefault) === (m.required ?? listDefault);
    if (versionSame && requiredSame) {
      out.push({ text: own, from: e, changed: false });
      continue;
    }
    let t = own;
    if (!versionSame) t = m.version === null ? removeJsonValue(t, ["version"]) : setJsonValue(t, ["version"], m.version);
    if (!requiredSame) {
      const state = requiredToState(m);
      t = state === undefined ? removeJsonValue(t, ["required"]) : setJsonValue(t, ["required"], state);
    }
    out.push({ text: t, from: e, changed: true });
  }

  const kept = entries.map((x) => x.e);
  const sameShape = out.length === kept.length && out.every((o, i) => o.from !== null && o.from === kept[i]);
  if (sameShape) {
    // The same mods in the same order: only the changed entries' own text changes.
    let result = text;
    for (let i = out.length - 1; i >= 0; i--) {
      const o = out[i]!;
      if (!o.changed) continue;
      result = result.slice(0, o.from!.node.offset) + o.text + result.slice(o.from!.node.offset + o.from!.node.length);
    }
    return result;
  }
  // No entry to copy the layout of (an empty array): the array is written in the document's layout.
  if (!template) return setJsonValue(text, ["game", "mods"], mods.map((m) => freshEntry(m, requiredToState(m))), doc.root);
  return text.slice(0, arr.offset + 1) + arrayInside(text, arr, out.map((o) => o.text)) + text.slice(arr.offset + arr.length - 1);
}

const COMMENTS = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;

/** The inside of `arr` holding `items`, separated and indented as the file separates its entries. */
function arrayInside(text: string, arr: JsonNode, items: string[]): string {
  const children = arr.children ?? [];
  if (!items.length) return "";
  const first = children[0]!;
  const last = children[children.length - 1]!;
  const lead = text.slice(arr.offset + 1, first.offset).replace(COMMENTS, "");
  let trail = text.slice(last.offset + last.length, arr.offset + arr.length - 1).replace(COMMENTS, "");
  trail = trail.replace(/^\s*,/, (m) => m.slice(0, -1)); // a trailing comma is not carried over
  let sep: string;
  if (children.length >= 2) sep = text.slice(first.offset + first.length, children[1]!.offset).replace(COMMENTS, "");
  else sep = /[\r\n]/.test(lead) ? `,${lead}` : lead === "" ? "," : `,${lead}`;
  if (!sep.includes(",")) sep = `,${sep}`;
  return lead + items.join(sep) + trail;
}

/** A new entry as a value (for a file whose `game.mods` has no entry to copy). */
function freshEntry(m: ModToWrite, required: boolean | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { modId: m.modId.toUpperCase(), name: m.name };
  if (m.version !== null) out.version = m.version;
  if (required !== undefined) out.required = required;
  return out;
}

/** A new entry written like `template` (its key order, spacing and lines), with the mod's values. */
function fromTemplate(text: string, template: Entry, m: ModToWrite, required: boolean | undefined): string {
  let t = nodeText(text, template.node);
  // Keys a mod entry does not have are not copied.
  const keep = new Set([template.idKey, "name", "version", "required"]);
  for (const p of template.node.children ?? []) {
    const k = p.children?.[0]?.value as string;
    if (!keep.has(k)) t = removeJsonValue(t, [k]);
  }
  t = setJsonValue(t, [template.idKey], m.modId.toUpperCase());
  t = setJsonValue(t, ["name"], m.name);
  // A file that writes "" for "the newest" gets "" for a new unpinned mod too.
  if (m.version !== null) t = setJsonValue(t, ["version"], m.version);
  else t = template.version === "" ? setJsonValue(t, ["version"], "") : removeJsonValue(t, ["version"]);
  t = required === undefined ? removeJsonValue(t, ["required"]) : setJsonValue(t, ["required"], required);
  return t;
}
