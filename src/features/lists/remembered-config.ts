// A list's remembered server config (docs/lists.md "What a file says is kept"): the file's own
// text, sealed whole with the credential key (it holds the passwords), changed only by edits of
// what a person changes through Loadout, written back by export/game with the list's mods in
// `game.mods` and nothing else touched. Every change of it (import, the settings page, forgetting
// it, an undo) is an audit entry naming the keys it changed, never their values, and keeps the
// config as it was before, sealed, so the entry can be undone. The queries of
// list_server_configs and list_server_config_revisions are in repository.ts.
import type { Database } from "bun:sqlite";
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { CredentialCryptoError, decryptSecret, encryptSecret } from "../../shared/crypto";
import { newId } from "../../shared/ids";
import { parseJsonDocument, type JsonDocument } from "../../shared/jsonc";
import { strictJsonText } from "../../shared/json-edit";
import { diffConfigs, editSettings, requiredDefaultOf, secretPlaces, setSecrets, settingsOf, SettingsEditError, withoutSecrets } from "./config-document";
import { assembleConfig, openSecrets, pathText, type JsonObject } from "./server-config";
import { exportGameConfig, type ExportItem, type ExportType } from "./server-json-format";
import { writeModsIntoConfig } from "./server-json-edit";
import * as repo from "./repository";
import { inTransaction } from "./rules";

/** The game's default of `modsRequiredByDefault` (a mod without `required` is required). */
export const GAME_MODS_REQUIRED_BY_DEFAULT = true;

/** Additional authenticated data of a list's sealed document: a value copied to another list does not open. */
export const documentAad = (listId: string) => `list-config-document:${listId}`;
/** … and of the config kept before an audited change. */
export const revisionAad = (auditId: string) => `list-config-revision:${auditId}`;

/** The audit action of a change of the remembered config made outside an import. */
export const SERVER_CONFIG_ACTION = "server_config";

export interface Remembered {
  text: string;
  doc: JsonDocument;
  updatedAt: number;
  updatedBy: string | null;
}

const unreadable = (e: unknown): never => {
  if (e instanceof CredentialCryptoError) throw new AppError("list.config_unreadable", `the list's stored config secrets cannot be opened: ${e.message}`);
  throw e;
};

/** The list's remembered config, opened; null when it has none. */
export function loadRemembered(deps: Pick<Deps, "sqlite" | "secrets">, listId: string): Remembered | null {
  const r = repo.serverConfigRow(deps.sqlite, listId);
  if (!r) return null;
  let text: string;
  try {
    text = r.document !== null ? decryptSecret(r.document, deps.secrets.credentialKey, documentAad(listId)) : legacyText(r, deps.secrets.credentialKey);
  } catch (e) {
    return unreadable(e);
  }
  return { text, doc: parseJsonDocument(text), updatedAt: r.updated_at, updatedBy: r.updated_by };
}

/**
 * A config stored before the document was kept (settings in clear, secrets sealed apart): its text
 * is what export/game wrote from it then, so nothing a list exported changes with the upgrade.
 */
function legacyText(r: repo.ServerConfigRow, key: Uint8Array): string {
  const settings = JSON.parse(r.settings_json) as JsonObject;
  const secrets = openSecrets(r.secrets, key, r.list_id);
  return `${JSON.stringify(assembleConfig(settings, secrets, [], { withSecrets: true, hasModsKey: !!r.has_mods_key }), null, 2)}\n`;
}

/** Stores (replaces) the list's config text: sealed whole, with the settings in clear beside it (secrets and mods null) for SQL. */
function save(deps: Pick<Deps, "sqlite" | "secrets" | "clock">, listId: string, text: string, userId: string | null) {
  const doc = parseJsonDocument(text);
  const hasModsKey = Object.prototype.hasOwnProperty.call((doc.value as { game?: object }).game ?? {}, "mods");
  repo.upsertServerConfig(deps.sqlite, listId, JSON.stringify(settingsOf(doc, true)), hasModsKey, encryptSecret(text, deps.secrets.credentialKey, documentAad(listId)), userId, deps.clock.now());
}

/** Keeps the config as it was before the audited change `auditId` (null: the list had none), sealed. */
function keepRevision(deps: Pick<Deps, "sqlite" | "secrets" | "clock">, auditId: string, listId: string, before: string | null) {
  repo.insertServerConfigRevision(deps.sqlite, auditId, listId, before === null ? null : encryptSecret(before, deps.secrets.credentialKey, revisionAad(auditId)), deps.clock.now());
}

/** The config as it was before the audited change (null: none); undefined when the entry kept none. */
export function revisionBefore(deps: Pick<Deps, "sqlite" | "secrets">, auditId: string): { text: string | null } | undefined {
  const r = repo.serverConfigRevision(deps.sqlite, auditId);
  if (!r) return undefined;
  try {
    return { text: r.document === null ? null : decryptSecret(r.document, deps.secrets.credentialKey, revisionAad(auditId)) };
  } catch (e) {
    return unreadable(e);
  }
}

/** The keys a change of the remembered config touches, by path (secrets by path only), for the audit log. */
export function changedKeys(before: JsonDocument | null, after: JsonDocument | null): string[] {
  if (before && after) {
    const d = diffConfigs(before, after, { compareSecrets: true, limit: 50 });
    return [...d.changed, ...d.added, ...d.removed, ...d.secretsChanged];
  }
  const one = before ?? after;
  if (!one) return [];
  const value = one.value as Record<string, unknown>;
  return Object.keys(value).flatMap((k) =>
    k === "game" && value.game && typeof value.game === "object" ? Object.keys(value.game).filter((g) => g !== "mods").map((g) => `game.${g}`) : [k],
  );
}

/**
 * Replaces (or with null forgets) the remembered config inside the caller's transaction, keeping
 * what it was for the audit entry `auditId` (which the caller writes).
 */
export function replaceRemembered(deps: Pick<Deps, "sqlite" | "secrets" | "clock">, listId: string, auditId: string, before: Remembered | null, text: string | null, userId: string | null) {
  keepRevision(deps, auditId, listId, before?.text ?? null);
  if (text === null) repo.deleteServerConfig(deps.sqlite, listId);
  else save(deps, listId, text, userId);
}

/** Writes a `server_config` audit entry and the change it names (settings page, forget, undo). */
function auditedChange(deps: Deps, listId: string, userId: string, before: Remembered | null, text: string | null, how: "edited" | "forgotten" | "restored") {
  const keys = changedKeys(before?.doc ?? null, text === null ? null : parseJsonDocument(text));
  const id = newId();
  const now = deps.clock.now();
  repo.insertAudit(deps.sqlite, {
    id,
    listId,
    action: SERVER_CONFIG_ACTION,
    workshopId: null,
    modName: null,
    oldValue: { config: before ? "remembered" : null },
    newValue: { config: text === null ? null : "remembered", change: how, keys },
    userId,
    at: now,
  });
  replaceRemembered(deps, listId, id, before, text, userId);
  repo.touchList(deps.sqlite, listId, now);
}

// ---- the settings page --------------------------------------------------------------------------

/** GET …/server-config: the settings without mods and secrets, and which secrets are set. */
export function configView(deps: Pick<Deps, "sqlite" | "secrets">, listId: string) {
  const c = loadRemembered(deps, listId);
  if (!c) return { source: "defaults" as const, settings: null, secrets: [], updated_at: null };
  const set = setSecrets(c.doc);
  return {
    source: "imported" as const,
    settings: settingsOf(c.doc),
    secrets: secretPlaces(c.doc).map((s) => ({ path: pathText(s.path), set: set.has(pathText(s.path)) })),
    updated_at: new Date(c.updatedAt).toISOString(),
  };
}

/**
 * PUT …/server-config (owners): `settings` are compared with the remembered document and only
 * what differs is edited (null at a secret keeps it); `secrets` set or clear secrets by path,
 * write-only. Audited; a change that changes nothing writes nothing.
 */
export function updateConfig(deps: Deps, listId: string, userId: string, input: { settings?: Record<string, unknown>; secrets?: Record<string, string | null> }) {
  return inTransaction(deps, () => {
    const old = loadRemembered(deps, listId);
    let base = old?.text;
    if (base === undefined) {
      if (input.settings === undefined) throw new AppError("list.no_config", "the list has no server config; import a full server.json first or send settings");
      base = `${JSON.stringify({ game: {} }, null, 2)}\n`;
    }
    let next: string;
    try {
      next = editSettings(base, input.settings as JsonObject | undefined, input.secrets);
    } catch (e) {
      if (e instanceof SettingsEditError) throw new AppError("request.invalid", e.message);
      throw e;
    }
    if (next !== old?.text) auditedChange(deps, listId, userId, old, next, "edited");
    return configView(deps, listId);
  });
}

/** DELETE …/server-config (owners): forgets it (audited, and undone by reverting the entry); false when there was none. */
export function deleteConfig(deps: Deps, listId: string, userId: string): boolean {
  return inTransaction(deps, () => {
    const old = loadRemembered(deps, listId);
    if (!old) return false;
    auditedChange(deps, listId, userId, old, null, "forgotten");
    return true;
  });
}

/** What undoing the config part of the audit entry `auditId` does: null when the config is already as it was. */
export function restorePlan(deps: Pick<Deps, "sqlite" | "secrets">, listId: string, auditId: string) {
  const rev = revisionBefore(deps, auditId);
  if (rev === undefined) throw new AppError("audit.not_revertible", "cannot revert: the entry kept no earlier config");
  const current = loadRemembered(deps, listId);
  if ((current?.text ?? null) === rev.text) return null;
  return { before: current, text: rev.text, keys: changedKeys(current?.doc ?? null, rev.text === null ? null : parseJsonDocument(rev.text)) };
}

/** Undoes a `server_config` entry: the config as it was before it, as a new audited change. */
export function restoreRevision(deps: Deps, listId: string, auditId: string, userId: string) {
  const plan = restorePlan(deps, listId, auditId);
  if (plan) auditedChange(deps, listId, userId, plan.before, plan.text, "restored");
}

// ---- export/game ----------------------------------------------------------------------------------

/**
 * The list's `modsRequiredByDefault`: its remembered config's, else the game's default (true).
 * What a list item without a stated `required` means.
 */
export function listRequiredDefault(sqlite: Database, listId: string): boolean {
  const v = repo.modsRequiredByDefaultSetting(sqlite, listId);
  return v === 0 ? false : v === 1 ? true : GAME_MODS_REQUIRED_BY_DEFAULT;
}

/**
 * export/game's body: the remembered file with the list's mods edited into `game.mods` (secrets
 * for owners only, as "" for everyone else), strict JSON; or the documented defaults.
 * `config` and `secretsWithheld` become the response headers.
 */
export function gameConfigExport(
  deps: Pick<Deps, "sqlite" | "secrets">,
  list: { id: string; name: string },
  items: readonly ExportItem[],
  type: ExportType,
  mayReadSecrets: boolean,
): { text: string; config: "imported" | "defaults"; secretsWithheld: boolean } {
  const c = loadRemembered(deps, list.id);
  if (!c) return { text: `${JSON.stringify(exportGameConfig(list.name, items, type), null, 2)}\n`, config: "defaults", secretsWithheld: false };
  const mods = items.map((it) => ({
    modId: it.workshop_id,
    name: it.name,
    version: (type === "fixed" ? it.pinned_version : it.latest_version || it.pinned_version) || null,
    required: it.required ?? null,
  }));
  let text = writeModsIntoConfig(c.text, mods, { listRequiredDefault: requiredDefaultOf(c.doc) });
  const withheld = !mayReadSecrets && setSecrets(c.doc).size > 0;
  if (withheld) text = withoutSecrets(text);
  return { text: strictJsonText(text), config: "imported", secretsWithheld: withheld };
}
