// A list's remembered server config as a document (docs/lists.md "What a file says is kept"):
// the file's own text, kept whole (sealed: it holds the passwords) and changed only by edits of
// the places a person changes through Loadout. What the rest of the feature needs of it: the
// settings as a client may see them, the places of its secrets, how two configs differ (named
// by path, never by value), a copy without the secrets, and the settings page's edit. Pure.
import { isUnsafeInteger, nodeAt, nodeText, nodeValue, parseJsonDocument, propertyOf, type JsonDocument, type JsonNode, type JsonPath } from "../../shared/jsonc";
import { removeJsonValue, setJsonValue } from "../../shared/json-edit";
import { isSecretKey, pathText, type JsonObject } from "./server-config";

/** Whether the node is the `game.mods` array's property (the list's mods go there, not the settings'). */
const isModsPath = (path: JsonPath) => path.length === 2 && path[0] === "game" && path[1] === "mods";

export interface SecretPlace {
  path: JsonPath;
  /** The value's node (a string) */
  node: JsonNode;
  value: string;
}

/** Every string value under a password-like key, in file order (empty ones included). */
export function secretPlaces(doc: JsonDocument): SecretPlace[] {
  const out: SecretPlace[] = [];
  const walk = (node: JsonNode, path: JsonPath) => {
    if (node.type === "object") {
      for (const p of node.children ?? []) {
        const [k, v] = p.children ?? [];
        if (!k || !v) continue;
        const here = [...path, k.value as string];
        if (isModsPath(here)) continue;
        if (isSecretKey(k.value as string) && v.type === "string") out.push({ path: here, node: v, value: v.value as string });
        else walk(v, here);
      }
    } else if (node.type === "array") (node.children ?? []).forEach((c, i) => walk(c, [...path, i]));
  };
  walk(doc.root, []);
  return out;
}

/** Every set (non-empty) secret of the document, by path text. */
export const setSecrets = (doc: JsonDocument) => new Map(secretPlaces(doc).filter((s) => s.value !== "").map((s) => [pathText(s.path), s.value]));

/**
 * The settings: every key but `game.mods` in the file's order, a secret's value null (set or
 * not), integers beyond the safe range as their exact text. With `withMods`, `game.mods` stays
 * in its place as null (the stored clear copy: where the list's mods go).
 */
export function settingsOf(doc: JsonDocument, withMods = false): JsonObject {
  const value = nodeValue(doc.root, doc.text) as JsonObject;
  const blank = (v: unknown, path: JsonPath): unknown => {
    if (Array.isArray(v)) return v.map((x, i) => blank(x, [...path, i]));
    if (v === null || typeof v !== "object" || (JSON as any).isRawJSON?.(v)) return v;
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const here = [...path, k];
      if (isModsPath(here)) {
        if (withMods) o[k] = null;
        else delete o[k];
      } else if (isSecretKey(k) && typeof o[k] === "string") o[k] = null;
      else o[k] = blank(o[k], here);
    }
    return o;
  };
  return blank(value, []) as JsonObject;
}

/** Whether the file says anything besides `game.mods` (a mods-only file: the plain export's shape). */
export function hasSettings(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== "game") return true;
  const game = (value as { game: unknown }).game;
  if (game === null || typeof game !== "object" || Array.isArray(game)) return true;
  const gk = Object.keys(game);
  return !(gk.length === 0 || (gk.length === 1 && gk[0] === "mods"));
}

export interface ConfigDiff {
  /** Paths whose value differs (numbers compared by value, and by text beyond the safe range) */
  changed: string[];
  /** Paths the new config has and the old one lacks */
  added: string[];
  /** Paths the old config has and the new one lacks */
  removed: string[];
  /** Secret paths whose value differs (only when secrets are compared) */
  secretsChanged: string[];
}

/**
 * How `b` differs from `a`, leaf by leaf (objects by key, arrays of the same length by index),
 * `game.mods` left out. Secrets are compared only with `compareSecrets` (for those who may read
 * them); otherwise secret places appear nowhere, so the answer says nothing of their values.
 */
export function diffConfigs(a: JsonDocument, b: JsonDocument, opts: { compareSecrets: boolean; limit?: number }): ConfigDiff {
  const limit = opts.limit ?? 200;
  const out: ConfigDiff = { changed: [], added: [], removed: [], secretsChanged: [] };
  const room = () => out.changed.length + out.added.length + out.removed.length + out.secretsChanged.length < limit;
  const walk = (x: JsonNode | undefined, y: JsonNode | undefined, path: JsonPath) => {
    if (!room() || isModsPath(path)) return;
    const last = path[path.length - 1];
    const secret = typeof last === "string" && isSecretKey(last) && (x?.type === "string" || y?.type === "string");
    if (secret) {
      if (!opts.compareSecrets) return;
      // Compared (an owner's view): a remembered secret the file lacks is removed like any setting.
      if (x && !y) return void out.removed.push(pathText(path));
      const xv = x?.type === "string" ? (x.value as string) : "";
      const yv = y?.type === "string" ? (y.value as string) : "";
      if (xv !== yv) out.secretsChanged.push(pathText(path));
      return;
    }
    if (!x) return void out.added.push(pathText(path));
    if (!y) return void out.removed.push(pathText(path));
    if (x.type === "object" && y.type === "object") {
      const keys = new Map<string, [JsonNode | undefined, JsonNode | undefined]>();
      for (const p of x.children ?? []) keys.set(p.children![0]!.value, [p.children![1], undefined]);
      for (const p of y.children ?? []) {
        const k = p.children![0]!.value as string;
        keys.set(k, [keys.get(k)?.[0], p.children![1]]);
      }
      for (const [k, [xv, yv]] of keys) walk(xv, yv, [...path, k]);
      return;
    }
    if (x.type === "array" && y.type === "array" && (x.children?.length ?? 0) === (y.children?.length ?? 0)) {
      (x.children ?? []).forEach((c, i) => walk(c, y.children![i], [...path, i]));
      return;
    }
    if (!sameLeaf(a.text, x, b.text, y)) out.changed.push(pathText(path));
  };
  walk(a.root, b.root, []);
  return out;
}

/** Two leaves (or differently shaped values) hold the same value: numbers by value, exactly beyond the safe range. */
function sameLeaf(ta: string, x: JsonNode, tb: string, y: JsonNode): boolean {
  if (x.type !== y.type) return false;
  if (x.type === "number") {
    const [tx, ty] = [nodeText(ta, x), nodeText(tb, y)];
    if (tx === ty) return true;
    if (isUnsafeInteger(ta, x) || isUnsafeInteger(tb, y)) return /^-?\d+$/.test(tx) && /^-?\d+$/.test(ty) && BigInt(tx) === BigInt(ty);
    return x.value === y.value;
  }
  if (x.type === "object" || x.type === "array") return JSON.stringify(nodeValue(x, ta)) === JSON.stringify(nodeValue(y, tb));
  return x.value === y.value;
}

/** The text with every set secret written as "" (what someone who may not read them gets). */
export function withoutSecrets(text: string): string {
  let out = text;
  const places = secretPlaces(parseJsonDocument(text)).filter((s) => s.value !== "");
  for (let i = places.length - 1; i >= 0; i--) {
    const s = places[i]!;
    out = out.slice(0, s.node.offset) + '""' + out.slice(s.node.offset + s.node.length);
  }
  return out;
}

/** A settings edit that cannot be made (400 with this message). */
export class SettingsEditError extends Error {
  override name = "SettingsEditError";
}

/**
 * The settings page's edit as text edits of the remembered document: `settings` (the page's
 * copy: no `game.mods`, null at a secret to keep it) is compared leaf by leaf with the document,
 * and only what differs is written; keys the page dropped are removed; new keys are added after
 * their object's last. A number equal in value to the file's (a rounded SteamID included) keeps
 * the file's text. `secrets` sets ("x") or clears (null, "") secrets by path.
 */
export function editSettings(text: string, settings: JsonObject | undefined, secrets: Record<string, string | null> | undefined): string {
  let out = text;
  if (settings !== undefined) {
    const game = settings.game;
    if (game === undefined || game === null || typeof game !== "object" || Array.isArray(game)) throw new SettingsEditError('settings: must have a "game" object');
    if (Object.prototype.hasOwnProperty.call(game, "mods") && (game as JsonObject).mods !== null)
      throw new SettingsEditError("settings: game.mods is the list's mods; edit them in the list, not here");
    out = applyValue(out, [], settings);
  }
  if (secrets) {
    const doc = parseJsonDocument(out);
    const places = new Map(secretPlaces(doc).map((s) => [pathText(s.path), s]));
    for (const path of Object.keys(secrets)) if (!places.has(path)) throw new SettingsEditError(`secrets: ${path} is not a password-like key of the settings`);
    const order = [...places.values()].filter((s) => Object.prototype.hasOwnProperty.call(secrets, pathText(s.path)));
    for (let i = order.length - 1; i >= 0; i--) {
      const s = order[i]!;
      const v = secrets[pathText(s.path)];
      out = out.slice(0, s.node.offset) + JSON.stringify(v ?? "") + out.slice(s.node.offset + s.node.length);
    }
  }
  return out;
}

/** Makes the document's value at `path` equal to `want`, editing only what differs. */
function applyValue(text: string, path: JsonPath, want: unknown): string {
  const doc = parseJsonDocument(text);
  const node = nodeAt(doc.root, path);
  const last = path[path.length - 1];
  if (isModsPath(path)) return text;
  if (typeof last === "string" && isSecretKey(last) && (node?.type === "string" || node === undefined) && (want === null || typeof want === "string")) {
    // null keeps the stored secret; a string sets it.
    if (want === null) return text;
    return node && node.value === want ? text : setJsonValue(text, path, want, doc.root);
  }
  if (!node) return setJsonValue(text, path, want, doc.root);
  if (isPlainObject(want) && node.type === "object") {
    let out = text;
    // Keys the page dropped go (but game.mods, which the page never has).
    for (const p of node.children ?? []) {
      const k = p.children![0]!.value as string;
      if (!Object.prototype.hasOwnProperty.call(want, k) && !isModsPath([...path, k])) out = removeJsonValue(out, [...path, k]);
    }
    for (const k of Object.keys(want)) out = applyValue(out, [...path, k], (want as Record<string, unknown>)[k]);
    return out;
  }
  if (Array.isArray(want) && node.type === "array" && (node.children?.length ?? 0) === want.length) {
    let out = text;
    want.forEach((v, i) => (out = applyValue(out, [...path, i], v)));
    return out;
  }
  if (sameValue(text, node, want)) return text;
  return setJsonValue(text, path, want, doc.root);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v) && !(JSON as any).isRawJSON?.(v);

function sameValue(text: string, node: JsonNode, want: unknown): boolean {
  if ((JSON as any).isRawJSON?.(want)) return node.type === "number" && nodeText(text, node) === (want as { rawJSON: string }).rawJSON;
  if (node.type === "number") return typeof want === "number" && (node.value === want || (isUnsafeInteger(text, node) && Number(nodeText(text, node)) === want));
  if (node.type === "object" || node.type === "array") return JSON.stringify(nodeValue(node)) === JSON.stringify(want);
  return node.value === want;
}

/** `game.modsRequiredByDefault` of the document (the game's default, true, when it says nothing). */
export function requiredDefaultOf(doc: JsonDocument): boolean {
  const v = propertyOf(nodeAt(doc.root, ["game"]), "modsRequiredByDefault")?.children?.[1]?.value;
  return typeof v === "boolean" ? v : true;
}
