// A list's remembered server config (docs/lists.md "What a file says is kept"): stored, sealed,
// shown without its secrets, edited from the settings page, and assembled again for export/game.
// The queries of the list_server_configs table live here, next to the rules that use them.
import type { Database } from "bun:sqlite";
import type { listServerConfigs } from "./tables";
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { CredentialCryptoError } from "../../shared/crypto";
import {
  assembleConfig,
  cloneJson,
  keepModsPlace,
  openSecrets,
  pathText,
  sealSecrets,
  secretSlots,
  settingsForClient,
  splitConfig,
  type Json,
  type JsonObject,
  type JsonPath,
  type SplitConfig,
} from "./server-config";
import { exportGameConfig, exportMods, type ExportItem, type ExportType } from "./server-json-format";

/** The game's default of `modsRequiredByDefault` (a mod without `required` is required). */
export const GAME_MODS_REQUIRED_BY_DEFAULT = true;

/** A row of list_server_configs as raw SQL reads it (`has_mods_key` as 0/1). */
type Row = Omit<typeof listServerConfigs.$inferSelect, "has_mods_key"> & { has_mods_key: number };

const row = (sqlite: Database, listId: string) =>
  sqlite.query("SELECT list_id, settings_json, secrets, has_mods_key, updated_by, updated_at FROM list_server_configs WHERE list_id = ?").get(listId) as Row | null;

/** Settings are parsed with JSON.parse: stored by JSON.stringify, so `__proto__` keys survive as data. */
const parseSettings = (text: string) => JSON.parse(text) as JsonObject;

export interface StoredConfig extends SplitConfig {
  updatedAt: number;
  updatedBy: string | null;
}

/** The list's remembered config with its secrets opened; null when it has none. */
export function loadConfig(deps: Pick<Deps, "sqlite" | "secrets">, listId: string): StoredConfig | null {
  const r = row(deps.sqlite, listId);
  if (!r) return null;
  let secrets: [JsonPath, string][];
  try {
    secrets = openSecrets(r.secrets, deps.secrets.credentialKey, listId);
  } catch (e) {
    if (e instanceof CredentialCryptoError) throw new AppError(409, `the list's stored config secrets cannot be opened: ${e.message}`);
    throw e;
  }
  return { settings: parseSettings(r.settings_json), secrets, hasModsKey: !!r.has_mods_key, updatedAt: r.updated_at, updatedBy: r.updated_by };
}

/** Stores (replaces) a list's config; secrets sealed with the credential key. */
export function saveConfig(deps: Pick<Deps, "sqlite" | "secrets" | "clock">, listId: string, split: SplitConfig, userId: string | null) {
  deps.sqlite
    .query(
      `INSERT INTO list_server_configs (list_id, settings_json, secrets, has_mods_key, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(list_id) DO UPDATE SET settings_json = excluded.settings_json, secrets = excluded.secrets,
         has_mods_key = excluded.has_mods_key, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    )
    .run(listId, JSON.stringify(split.settings), sealSecrets(split.secrets, deps.secrets.credentialKey, listId), split.hasModsKey ? 1 : 0, userId, deps.clock.now());
}

export function deleteConfig(deps: Pick<Deps, "sqlite">, listId: string): boolean {
  return deps.sqlite.query("DELETE FROM list_server_configs WHERE list_id = ?").run(listId).changes > 0;
}

export const hasServerConfig = (sqlite: Database, listId: string) =>
  sqlite.query("SELECT 1 FROM list_server_configs WHERE list_id = ?").get(listId) !== null;

/**
 * The list's `modsRequiredByDefault`: its remembered config's, else the game's default (true).
 * What a list item without a stated `required` means.
 */
export function listRequiredDefault(sqlite: Database, listId: string): boolean {
  const r = sqlite.query("SELECT settings_json ->> '$.game.modsRequiredByDefault' AS v FROM list_server_configs WHERE list_id = ?").get(listId) as { v: number | null } | null;
  return r?.v === 0 ? false : r?.v === 1 ? true : GAME_MODS_REQUIRED_BY_DEFAULT;
}

/** GET …/server-config: the settings without mods and secrets, and which secrets are set. */
export function configView(deps: Pick<Deps, "sqlite" | "secrets">, listId: string) {
  const c = loadConfig(deps, listId);
  if (!c) return { source: "defaults" as const, settings: null, secrets: [], updated_at: null };
  return {
    source: "imported" as const,
    settings: settingsForClient(c.settings),
    secrets: secretSlots(c.settings, c.secrets),
    updated_at: new Date(c.updatedAt).toISOString(),
  };
}

/**
 * PUT …/server-config from the settings page. `settings` replaces the stored settings (mods are
 * never taken from it; a null at a secret's place keeps the sealed value, a string sets it);
 * `secrets` sets (string) or clears (null or "") secrets by path, write-only.
 */
export function updateConfig(
  deps: Pick<Deps, "sqlite" | "secrets" | "clock">,
  listId: string,
  userId: string,
  input: { settings?: Record<string, unknown>; secrets?: Record<string, string | null> },
) {
  const old = loadConfig(deps, listId);
  const base: JsonObject = input.settings !== undefined ? keepModsPlace(cloneJson(input.settings as JsonObject), old?.settings ?? null) : old ? old.settings : null!;
  if (!base) throw new AppError(404, "the list has no server config; import a full server.json first or send settings");
  const game = base.game;
  if (game === undefined || game === null || typeof game !== "object" || Array.isArray(game)) throw new AppError(400, 'settings: must have a "game" object');
  if (Object.prototype.hasOwnProperty.call(game, "mods") && input.settings !== undefined && (game as JsonObject).mods !== null) {
    throw new AppError(400, "settings: game.mods is the list's mods; edit them in the list, not here");
  }
  const kept = new Map((old?.secrets ?? []).map(([p, v]) => [pathText(p), v]));
  const split = splitConfig(base, (p) => kept.get(pathText(p)));
  if (input.secrets) {
    const slots = new Map(secretSlots(split.settings, split.secrets).map((s) => [s.path, s]));
    const byPath = new Map(split.secrets.map(([p, v]) => [pathText(p), [p, v] as [JsonPath, string]]));
    for (const [path, value] of Object.entries(input.secrets)) {
      if (!slots.has(path)) throw new AppError(400, `secrets: ${path} is not a password-like key of the settings`);
      if (value === null || value === "") byPath.delete(path);
      else byPath.set(path, [pathOf(split.settings, path)!, value]);
    }
    // Cleared secrets are written as "" (what the game reads as "no password").
    for (const s of slots.keys()) if (!byPath.has(s)) setAt(split.settings, pathOf(split.settings, s)!, "");
    for (const s of byPath.keys()) setAt(split.settings, pathOf(split.settings, s)!, null);
    split.secrets = [...byPath.values()];
  }
  split.hasModsKey = old?.hasModsKey ?? split.hasModsKey;
  saveConfig(deps, listId, split, userId);
  return configView(deps, listId);
}

/** The JsonPath of a path text that names a place in `root`. */
function pathOf(root: JsonObject, text: string): JsonPath | null {
  let found: JsonPath | null = null;
  const walk = (v: Json, path: JsonPath) => {
    if (found) return;
    if (pathText(path) === text) {
      found = path;
      return;
    }
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v !== null && typeof v === "object") for (const k of Object.keys(v)) walk(v[k]!, [...path, k]);
  };
  walk(root, []);
  return found;
}

function setAt(root: JsonObject, path: JsonPath, value: Json) {
  let at: any = root;
  for (let i = 0; i < path.length - 1; i++) at = at[path[i]!];
  at[path[path.length - 1]!] = value;
}

/** A complete config for export/game from the remembered one, or null when the list has none. */
export function rememberedGameConfig(deps: Pick<Deps, "sqlite" | "secrets">, listId: string, mods: Json[], withSecrets: boolean): JsonObject | null {
  const c = loadConfig(deps, listId);
  return c ? assembleConfig(c.settings, c.secrets, mods, { withSecrets, hasModsKey: c.hasModsKey }) : null;
}

/**
 * export/game's body: the remembered config with the list's mods (secrets for owners only), or
 * the documented defaults. `config` and `secretsWithheld` become the response headers.
 */
export function gameConfigExport(
  deps: Pick<Deps, "sqlite" | "secrets">,
  list: { id: string; name: string },
  items: readonly ExportItem[],
  type: ExportType,
  mayReadSecrets: boolean,
): { body: unknown; config: "imported" | "defaults"; secretsWithheld: boolean } {
  const c = loadConfig(deps, list.id);
  if (!c) return { body: exportGameConfig(list.name, items, type), config: "defaults", secretsWithheld: false };
  // The file's own modsRequiredByDefault travels with it: only stated flags are written.
  const mods = exportMods(items, type) as unknown as Json[];
  const body = assembleConfig(c.settings, c.secrets, mods, { withSecrets: mayReadSecrets, hasModsKey: c.hasModsKey });
  return { body, config: "imported", secretsWithheld: !mayReadSecrets && c.secrets.length > 0 };
}
