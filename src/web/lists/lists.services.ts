// List calls (/lists and a list's own parts: mods, check, import, export, history, snapshots,
// sharing, collaborators, co-owners, suggestions, blocks, the suggestion form). Folders, tags,
// communities, groups and templates have their own services beside this one.
import { api, get, qs, send } from "../app/api";
import type { z } from "zod";
import type * as L from "../../features/lists/model";
import type * as LR from "../../features/lists/routes";
import type * as C from "../../features/collaboration/model";
import type * as S from "../../features/servers/model";

export type ListSummary = z.infer<typeof L.listSummary>;
export type ListDetail = z.infer<typeof L.listDetail>;
export type ListItem = z.infer<typeof L.listItem>;
export type ImportDiff = z.infer<typeof L.importDiff>;
/** GET /lists/:id/check (answered by the servers feature, which may add a server's findings). */
export type CheckReport = z.infer<typeof S.checkResponse>;
export type AuditEntry = z.infer<typeof L.auditOut>;

export const myLists = (signal?: AbortSignal) => get<ListSummary[]>("/lists/mine", signal);
export const publicLists = (signal?: AbortSignal) => get<ListSummary[]>("/lists?public=1", signal);
export const createList = (body: { name: string; description: string; is_public: boolean }) =>
  api<{ id: string; share_token: string; suggestion_token: string }>("POST", "/lists", { body });
export const listDetail = (id: string, share?: string, signal?: AbortSignal) => get<ListDetail>(`/lists/${id}${qs({ share })}`, signal);
export const addMod = (id: string, workshop_id: string, with_dependencies = true) =>
  api<{ ok: boolean; added: { workshop_id: string; name: string; in_catalog: boolean }[] }>("POST", `/lists/${id}/mods`, { body: { workshop_id, with_dependencies } });
/** The header naming a removal's audit entry (the server's constant, checked by the compiler). */
const AUDIT_ENTRY_HEADER: typeof LR.AUDIT_ENTRY_HEADER = "x-audit-entry-id";
/** Removes a mod; answers the id of the removal's audit entry, which `revert` undoes. */
export const removeMod = (id: string, workshopId: string) =>
  send("DELETE", `/lists/${id}/mods/${workshopId}`).then((r) => r.headers.get(AUDIT_ENTRY_HEADER));
export const pinVersion = (id: string, workshopId: string, version: string | null) => api<void>("PUT", `/lists/${id}/mods/${workshopId}/version`, { body: { version } });
/** With `serverId`: the check against one of my servers as well (its scenario, game version, file conflicts, download). */
export const checkList = (id: string, share?: string, signal?: AbortSignal, serverId?: string) =>
  get<CheckReport>(`/lists/${id}/check${qs({ share, server_id: serverId })}`, signal);
export type CheckFinding = CheckReport["findings"][number];
/** Per-mod choices for pins the catalog lacks, sent as `resolve=<id>:unpinned,<id>:skip`. */
export type PinResolutions = Record<string, "unpinned" | "skip">;
const resolveParam = (r?: PinResolutions) => {
  const pairs = Object.entries(r ?? {}).map(([id, how]) => `${id}:${how}`);
  return pairs.length ? pairs.join(",") : undefined;
};
/** What to do with a full config's settings: keep the remembered ones (default) or replace them (owners). */
export type ConfigChoice = "keep" | "replace";
const importQuery = (checkOrder: boolean, resolve?: PinResolutions, config?: ConfigChoice) =>
  qs({ check_order: checkOrder ? "true" : undefined, resolve: resolveParam(resolve), config: config === "replace" ? "replace" : undefined });
export const importPreview = (id: string, text: string, checkOrder = false, resolve?: PinResolutions, config?: ConfigChoice) =>
  api<ImportDiff>("POST", `/lists/${id}/import-preview${importQuery(checkOrder, resolve, config)}`, { text });
export const importApply = (id: string, text: string, checkOrder = false, resolve?: PinResolutions, config?: ConfigChoice) =>
  api<{ ok: boolean; added: number; removed: number; version_changed: number }>("POST", `/lists/${id}/import-apply${importQuery(checkOrder, resolve, config)}`, { text });
export const setRequired = (id: string, workshopId: string, required: boolean | null) =>
  api<void>("PUT", `/lists/${id}/mods/${workshopId}/required`, { body: { required } });
export type ServerConfig = z.infer<typeof L.serverConfigOut>;
export const serverConfig = (id: string, signal?: AbortSignal) => get<ServerConfig>(`/lists/${id}/server-config`, signal);
export const updateServerConfig = (id: string, body: { settings?: Record<string, unknown>; secrets?: Record<string, string | null> }) =>
  api<ServerConfig>("PUT", `/lists/${id}/server-config`, { body });
export const forgetServerConfig = (id: string) => api<void>("DELETE", `/lists/${id}/server-config`);
export const audit = (id: string, signal?: AbortSignal) => get<AuditEntry[]>(`/lists/${id}/audit`, signal);
export const revert = (id: string, entryId: string) => api<{ ok: boolean }>("POST", `/lists/${id}/audit/${entryId}/revert`);

/** What an export wrote: the text, and (for a complete config) whether it came from the list's remembered config. */
export interface ExportResult {
  text: string;
  /** `imported` (the list's remembered config), `defaults` (the documented defaults), null for the fragment. */
  config: "imported" | "defaults" | null;
  /** The remembered config's passwords were left empty because the caller is not an owner. */
  secretsWithheld: boolean;
}

/** Export texts are not JSON API answers: fetched as text with the same token. */
export async function exportText(id: string, kind: "fragment" | "game", type: "fixed" | "latest", share?: string): Promise<ExportResult> {
  const { getToken } = await import("../app/auth-store");
  const token = getToken();
  const res = await fetch(`/api/v1/lists/${id}/export${kind === "game" ? "/game" : ""}${qs({ type, share })}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await res.text();
  if (!res.ok) {
    let message = `export failed (HTTP ${res.status})`;
    try {
      message = JSON.parse(text).error ?? message;
    } catch {}
    throw new Error(message);
  }
  const config = res.headers.get("x-loadout-config");
  return {
    text,
    config: config === "imported" || config === "defaults" ? config : null,
    secretsWithheld: res.headers.get("x-loadout-secrets") === "withheld",
  };
}

export type Collaborator = z.infer<typeof C.collaboratorOut>;
export const updateList = (id: string, body: { name?: string; description?: string; is_public?: boolean }) => api<void>("PUT", `/lists/${id}`, { body });
export const resetShareToken = (id: string) => api<{ share_token: string }>("POST", `/lists/${id}/share-token/reset`);
export const resetSuggestionToken = (id: string) => api<{ suggestion_token: string }>("POST", `/lists/${id}/suggestion-token/reset`);
export const collaborators = (id: string, signal?: AbortSignal) => get<{ collaborators: Collaborator[] }>(`/lists/${id}/collaborators`, signal).then((r) => r.collaborators);
export const addCollaborator = (id: string, body: { search: string; can_add: boolean; can_remove: boolean; can_deploy: boolean }) =>
  api<Collaborator>("POST", `/lists/${id}/collaborators`, { body });
export const setCollaboratorRights = (id: string, userId: string, body: { can_add: boolean; can_remove: boolean; can_deploy: boolean }) =>
  api<unknown>("PUT", `/lists/${id}/collaborators/${userId}/permissions`, { body });
export const removeCollaborator = (id: string, userId: string) => api<void>("DELETE", `/lists/${id}/collaborators/${userId}`);

export type Snapshot = z.infer<typeof L.snapshotOut>;
export const snapshots = (id: string, share?: string, signal?: AbortSignal) => get<Snapshot[]>(`/lists/${id}/versions${qs({ share })}`, signal);
export const liveSnapshot = (id: string, share?: string, signal?: AbortSignal) => get<Snapshot>(`/lists/${id}/versions/live${qs({ share })}`, signal);
export const createSnapshot = (id: string, body: { version_name?: string; notes?: string }) => api<Snapshot>("POST", `/lists/${id}/versions`, { body });

export interface SnapshotDiff {
  added: Snapshot["snapshot_json"];
  removed: Snapshot["snapshot_json"];
  changed: { modId: string; name: string; from: string; to: string }[];
}
/** What changed from snapshot `a` to snapshot `b` (mods by id; versions compared). */
export function diffSnapshots(a: Snapshot["snapshot_json"], b: Snapshot["snapshot_json"]): SnapshotDiff {
  const before = new Map(a.map((m) => [m.modId, m]));
  const after = new Map(b.map((m) => [m.modId, m]));
  return {
    added: b.filter((m) => !before.has(m.modId)),
    removed: a.filter((m) => !after.has(m.modId)),
    changed: b
      .filter((m) => before.has(m.modId) && before.get(m.modId)!.version !== m.version)
      .map((m) => ({ modId: m.modId, name: m.name, from: before.get(m.modId)!.version || "latest", to: m.version || "latest" })),
  };
}

export type Suggestion = z.infer<typeof C.suggestionOut>;
export type FormField = z.infer<typeof C.formFieldOut>;
export const formFields = (id: string, token?: string, signal?: AbortSignal) =>
  get<{ fields: FormField[] }>(`/lists/${id}/form-fields${qs({ token })}`, signal).then((r) => r.fields);
export const suggest = (id: string, token: string | undefined, body: { workshop_id: string; reason: string; form_answers: Record<string, string | boolean> }) =>
  api<Suggestion>("POST", `/lists/${id}/suggestions${qs({ token })}`, { body });
export const suggestionsOf = (id: string, signal?: AbortSignal) => get<{ suggestions: Suggestion[] }>(`/lists/${id}/suggestions`, signal).then((r) => r.suggestions);
export const vote = (id: string, suggestionId: string, v: 0 | 1) => api<unknown>("POST", `/lists/${id}/suggestions/${suggestionId}/vote`, { body: { vote: v } });
export const review = (id: string, suggestionId: string, status: "accepted" | "rejected", note: string) =>
  api<Suggestion>("PATCH", `/lists/${id}/suggestions/${suggestionId}`, { body: { status, note } });

export const pinnedLists = (signal?: AbortSignal) => get<ListSummary[]>("/lists/pins", signal);
export const togglePin = (id: string) => api<{ pinned: boolean }>("POST", `/lists/${id}/pin`);

export type Person = z.infer<typeof C.personOut>;
export const coOwners = (id: string, signal?: AbortSignal) => get<{ owners: Person[] }>(`/lists/${id}/owners`, signal).then((r) => r.owners);
export const addCoOwner = (id: string, search: string) => api<Person>("POST", `/lists/${id}/owners`, { body: { search } });
export const removeCoOwner = (id: string, userId: string) => api<void>("DELETE", `/lists/${id}/owners/${userId}`);

// ---- moderation and the suggestion form ---------------------------------------------------------
export type Block = z.infer<typeof C.blockOut>;
export const blocks = (id: string, signal?: AbortSignal) => get<{ blocks: Block[] }>(`/lists/${id}/blocks`, signal).then((r) => r.blocks);
export const blockUser = (id: string, user_id: string) => api<Block>("POST", `/lists/${id}/blocks`, { body: { user_id } });
export const unblockUser = (id: string, userId: string) => api<void>("DELETE", `/lists/${id}/blocks/${userId}`);
export type FieldInput = { label: string; type: "text" | "checkbox" | "select"; required: boolean; options: string[] | null };
export const createField = (id: string, body: FieldInput) => api<FormField>("POST", `/lists/${id}/form-fields`, { body });
export const updateField = (id: string, fid: string, body: FieldInput) => api<FormField>("PUT", `/lists/${id}/form-fields/${fid}`, { body });
export const deleteField = (id: string, fid: string) => api<void>("DELETE", `/lists/${id}/form-fields/${fid}`);

// ---- finding, deleting, settings, copying a live server's mods -------------------------------
export const searchPublicLists = (search: string, signal?: AbortSignal) => get<ListSummary[]>(`/lists${qs({ public: "1", search: search || undefined })}`, signal);
export const deleteList = (id: string) => api<void>("DELETE", `/lists/${id}`);
export const updateSettings = (id: string, body: { name: string; description: string; max_mod_age_days: number | null }) => api<void>("PUT", `/lists/${id}`, { body });
export const copyFromServer = (serverId: string, body: { list_id: string } | { list_name: string; is_public: boolean }) =>
  api<{ list_id: string }>("POST", `/modlists/copy-from-server/${serverId}`, { body });
export const searchPublicListsOf = (communityId: string, signal?: AbortSignal) => get<ListSummary[]>(`/lists${qs({ public: "1", community_id: communityId })}`, signal);
