// The rest of a full server config a list remembers (docs/lists.md "What a file says is kept"):
// every key but `game.mods`, in the file's order, with password-like values sealed like server
// credentials. Pure functions plus the sealing; the repository and routes use them.
import { decryptSecret, encryptSecret, CredentialCryptoError } from "../../shared/crypto";

/** A JSON value as parsed (objects keep their key order). */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };
/** Where a value sits: object keys and array indexes from the root. */
export type JsonPath = (string | number)[];

/**
 * Key names whose string values are secrets: `game.password`, `game.passwordAdmin`,
 * `rcon.password` in every published config we read (test/fixtures/server-configs/README.md),
 * and the usual spellings of tokens and keys that tools add.
 */
const SECRET_KEY = /pass(word|phrase|wd)|secret|token|api_?key/i;
export const isSecretKey = (key: string) => SECRET_KEY.test(key);

/** "game.passwordAdmin", "x[0].password": how a path is shown and addressed in the API. */
export function pathText(path: JsonPath): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out === "" ? p : `.${p}`;
  return out;
}

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

/** Sets an own property (also one called `__proto__`) keeping the object's key order. */
function put(obj: JsonObject, key: string, value: Json) {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A deep copy that keeps key order and `__proto__` keys as data. */
export function cloneJson<T extends Json>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => cloneJson(x)) as T;
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const k of Object.keys(v)) put(out, k, cloneJson(v[k]!));
    return out as T;
  }
  return v;
}

export interface SplitConfig {
  /** The config without `game.mods`' entries (its place kept as null) and with secrets null. */
  settings: JsonObject;
  /** Non-empty string values under secret keys, in file order. */
  secrets: [JsonPath, string][];
  hasModsKey: boolean;
}

/**
 * Splits a parsed full config into what is stored in clear and what is sealed. `keep` gives the
 * previously sealed value of a path whose new value is null ("unchanged" from the settings page).
 */
export function splitConfig(config: JsonObject, keep?: (path: JsonPath) => string | undefined): SplitConfig {
  const secrets: [JsonPath, string][] = [];
  const walk = (v: Json, path: JsonPath): Json => {
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]));
    if (!isObject(v)) return v;
    const out: JsonObject = {};
    for (const k of Object.keys(v)) {
      const value = v[k]!;
      const here = [...path, k];
      if (path.length === 1 && path[0] === "game" && k === "mods") {
        put(out, k, null);
      } else if (isSecretKey(k) && typeof value === "string" && value !== "") {
        secrets.push([here, value]);
        put(out, k, null);
      } else if (isSecretKey(k) && value === null && keep?.(here) !== undefined) {
        secrets.push([here, keep(here)!]);
        put(out, k, null);
      } else {
        put(out, k, walk(value, here));
      }
    }
    return out;
  };
  const game = config.game;
  const hasModsKey = isObject(game) && Object.prototype.hasOwnProperty.call(game, "mods");
  return { settings: walk(config, []) as JsonObject, secrets, hasModsKey };
}

/** Every secret-keyed place of the settings, with whether a value is stored for it. */
export function secretSlots(settings: JsonObject, sealed: readonly [JsonPath, string][]): { path: string; set: boolean }[] {
  const stored = new Set(sealed.map(([p]) => pathText(p)));
  const out: { path: string; set: boolean }[] = [];
  const walk = (v: Json, path: JsonPath) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (isObject(v))
      for (const k of Object.keys(v)) {
        const here = [...path, k];
        if (isSecretKey(k) && (v[k] === null || typeof v[k] === "string")) out.push({ path: pathText(here), set: stored.has(pathText(here)) });
        else walk(v[k]!, here);
      }
  };
  walk(settings, []);
  return out;
}

/** The settings as a client sees them: without `game.mods` (the list's mods go there). */
export function settingsForClient(settings: JsonObject): JsonObject {
  const out = cloneJson(settings);
  if (isObject(out.game)) delete out.game.mods;
  return out;
}

/**
 * The whole config again: settings with the secrets put back (or "" when `withSecrets` is
 * false) and `mods` at the place the file had it (appended to `game` when it had none and there
 * are mods to write).
 */
export function assembleConfig(
  settings: JsonObject,
  secrets: readonly [JsonPath, string][],
  mods: Json[],
  opts: { withSecrets: boolean; hasModsKey: boolean },
): JsonObject {
  const out = cloneJson(settings);
  for (const [path, value] of secrets) {
    let at: Json = out;
    for (let i = 0; i < path.length - 1; i++) at = (at as any)?.[path[i]!] ?? null;
    const last = path[path.length - 1]!;
    if (at !== null && typeof at === "object") (at as any)[last] = opts.withSecrets ? value : "";
  }
  if (!isObject(out.game)) put(out, "game", {});
  const game = out.game as JsonObject;
  if (Object.prototype.hasOwnProperty.call(game, "mods") || opts.hasModsKey || mods.length) put(game, "mods", mods);
  return out;
}

/** Puts `game.mods` back where the old settings had it, when new settings (from the page) lack it. */
export function keepModsPlace(next: JsonObject, old: JsonObject | null): JsonObject {
  const game = next.game;
  if (!isObject(game) || Object.prototype.hasOwnProperty.call(game, "mods")) return next;
  const oldGame = old && isObject(old.game) ? old.game : null;
  const oldKeys = oldGame ? Object.keys(oldGame) : [];
  const at = oldKeys.indexOf("mods");
  if (at === -1) return next;
  const before = oldKeys.slice(0, at).reverse().find((k) => Object.prototype.hasOwnProperty.call(game, k));
  const rebuilt: JsonObject = {};
  if (before === undefined) put(rebuilt, "mods", null);
  for (const k of Object.keys(game)) {
    put(rebuilt, k, game[k]!);
    if (k === before) put(rebuilt, "mods", null);
  }
  const out = cloneJson(next);
  put(out, "game", rebuilt);
  return out;
}

/** Leaf paths where two configs differ (secrets compared by value, named by path only). */
export function configChanges(a: SplitConfig | null, b: SplitConfig, limit = 50): string[] {
  const out: string[] = [];
  const walk = (x: Json | undefined, y: Json | undefined, path: JsonPath) => {
    if (out.length >= limit) return;
    if (isObject(x) && isObject(y)) {
      const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])];
      for (const k of keys) walk(x[k], y[k], [...path, k]);
      return;
    }
    if (Array.isArray(x) && Array.isArray(y) && x.length === y.length) {
      x.forEach((v, i) => walk(v, y[i], [...path, i]));
      return;
    }
    if (JSON.stringify(x) !== JSON.stringify(y)) out.push(pathText(path));
  };
  if (!a) return []; // nothing remembered yet: the preview says the settings will be (a note)
  walk(a.settings, b.settings, []);
  const sa = new Map(a.secrets.map(([p, v]) => [pathText(p), v]));
  const sb = new Map(b.secrets.map(([p, v]) => [pathText(p), v]));
  for (const k of new Set([...sa.keys(), ...sb.keys()])) if (sa.get(k) !== sb.get(k) && !out.includes(k) && out.length < limit) out.push(k);
  if (a.hasModsKey !== b.hasModsKey && out.length < limit) out.push("game.mods");
  return out;
}

// ---- sealing ---------------------------------------------------------------------------------

/** Additional authenticated data of a list's sealed secrets: a blob copied to another list does not open. */
export const listConfigAad = (listId: string) => `list-config:${listId}`;

export function sealSecrets(secrets: readonly [JsonPath, string][], key: Uint8Array, listId: string): string | null {
  return secrets.length ? encryptSecret(JSON.stringify(secrets), key, listConfigAad(listId)) : null;
}

export function openSecrets(sealed: string | null, key: Uint8Array, listId: string): [JsonPath, string][] {
  return sealed ? (JSON.parse(decryptSecret(sealed, key, listConfigAad(listId))) as [JsonPath, string][]) : [];
}

export { CredentialCryptoError };
