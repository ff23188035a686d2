// Mod lists themselves: create, read (summaries, detail), settings, pins, tokens, delete. The
// changes of a list's mods live beside it: mods.ts (add, remove, pin, order), import.ts,
// audit.ts (the log and its undo), snapshots.ts, check.ts, export.ts. Knows nothing of HTTP;
// throws AppError.
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { toIso } from "../../shared/time";
import { canImport, type ListAccess, resolveListAccess } from "./access";
import { dependencyReport } from "./dependencies";
import * as repo from "./repository";
import { inTransaction, isTooOld } from "./rules";
import { listRequiredDefault } from "./remembered-config";

type Caller = { id: string } | null | undefined;

export function access(deps: Deps, listId: string, user: Caller, share?: string | null): ListAccess | null {
  return resolveListAccess(deps, listId, user, share);
}

export interface ListInput {
  name: string;
  description?: string;
  is_public?: boolean;
  max_mod_age_days?: number | null;
}

export function createList(deps: Deps, userId: string, input: ListInput) {
  const now = deps.clock.now();
  const row = {
    id: newId(),
    share_token: crypto.randomUUID(),
    suggestion_token: crypto.randomUUID(),
  };
  repo.insertList(deps.sqlite, {
    id: row.id,
    ownerId: userId,
    name: input.name,
    description: input.description ?? "",
    isPublic: !!input.is_public,
    shareToken: row.share_token,
    suggestionToken: row.suggestion_token,
    maxModAgeDays: input.max_mod_age_days ?? null,
    at: now,
  });
  return row;
}

/** The list summary sent by list endpoints; tokens only for owners. */
export function summaryOut(r: repo.ListSummaryRow, showTokens: boolean) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    is_public: !!r.is_public,
    owner_id: r.owner_id,
    owner_name: r.owner_name ?? "",
    ...(showTokens ? { share_token: r.share_token, suggestion_token: r.suggestion_token } : {}),
    require_deploy_approval: !!r.require_deploy_approval,
    community_id: r.community_id,
    folder_id: r.folder_id,
    max_mod_age_days: r.max_mod_age_days,
    mod_count: r.mod_count,
    total_size_bytes: r.total_size_bytes,
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
    tags: JSON.parse(r.tags_json) as { id: string; name: string; color: string }[],
    ...(r.role ? { role: r.role } : {}),
  };
}

export function publicLists(deps: Deps, userId: string | null, q: { search?: string; community_id?: string; limit: number; offset: number }) {
  return repo
    .publicLists(deps.sqlite, { search: q.search, communityId: q.community_id, limit: q.limit, offset: q.offset })
    .map((r) => summaryOut(r, r.owner_id === userId));
}

export function myLists(deps: Deps, userId: string) {
  return repo.myLists(deps.sqlite, userId).map((r) => summaryOut(r, r.role === "owner" || r.role === "co_owner"));
}

export function pinnedLists(deps: Deps, userId: string) {
  // Pins of lists the caller can no longer read are not shown.
  return repo
    .pinnedLists(deps.sqlite, userId)
    .filter((r) => r.is_public || resolveListAccess(deps, r.id, { id: userId })?.canRead)
    .map((r) => summaryOut(r, r.owner_id === userId));
}

export function togglePin(deps: Deps, listId: string, userId: string): { pinned: boolean } {
  return inTransaction(deps, () => {
    if (repo.deletePin(deps.sqlite, userId, listId)) return { pinned: false };
    repo.insertPin(deps.sqlite, userId, listId, deps.clock.now());
    return { pinned: true };
  });
}

/** The list detail: the list's fields flat at the top level, its items, tags, dependency report and the caller's rights. */
export function listDetail(deps: Deps, a: ListAccess) {
  const l = a.list;
  const items = repo.listItems(deps.sqlite, l.id);
  const edges = items.length ? repo.dependencyEdges(deps.sqlite, l.id) : [];
  const requiredDefault = listRequiredDefault(deps.sqlite, l.id);
  let total = 0;
  const now = deps.clock.now();
  const outItems = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    total += it.size_bytes;
    outItems[i] = {
      workshop_id: it.workshop_id,
      name: it.name,
      version: it.version,
      pinned_version: it.pinned_version,
      size_bytes: it.size_bytes,
      image_url: it.image_url,
      position: i,
      added_at: toIso(it.added_at),
      added_by: it.added_by && it.added_by_name !== null ? { user_id: it.added_by, display_name: it.added_by_name } : null,
      mod_updated_at: it.mod_updated_at === null ? null : toIso(it.mod_updated_at),
      too_old: isTooOld(l.max_mod_age_days, it.in_catalog, it.mod_updated_at, now),
      required: it.required === null ? requiredDefault : it.required !== 0,
      required_stated: repo.requiredOf(it.required),
    };
  }
  const { tree, missing } = dependencyReport(items, edges);
  return {
    id: l.id,
    name: l.name,
    description: l.description,
    is_public: l.is_public,
    owner_id: l.owner_id,
    ...(a.isOwner ? { share_token: l.share_token, suggestion_token: l.suggestion_token } : {}),
    require_deploy_approval: l.require_deploy_approval,
    community_id: l.community_id,
    folder_id: l.folder_id,
    max_mod_age_days: l.max_mod_age_days,
    mod_count: items.length,
    total_size_bytes: total,
    created_at: toIso(l.created_at),
    updated_at: toIso(l.updated_at),
    items: outItems,
    tags: repo.tagsOfList(deps.sqlite, l.id),
    dependency_tree: tree,
    missing_dependencies: missing,
    mods_required_by_default: requiredDefault,
    server_config: repo.hasServerConfig(deps.sqlite, l.id) ? ("imported" as const) : ("defaults" as const),
    // What the caller may do here, so clients show only the actions that will work (the API
    // still decides every request).
    my_access: {
      is_owner: a.isOwner,
      is_primary: a.isPrimary,
      can_add: a.canAdd,
      can_remove: a.canRemove,
      can_deploy: a.canDeploy,
      can_import: canImport(a),
      via_share: a.viaShare,
    },
  };
}


export function updateList(deps: Deps, listId: string, input: Partial<ListInput>) {
  repo.updateList(deps.sqlite, listId, input, deps.clock.now());
}

/** Deletes the list; items, snapshots, audit, pins, tags and collaboration rows go by cascade. */
export function deleteList(deps: Deps, listId: string) {
  repo.deleteList(deps.sqlite, listId);
}

export function setCommunity(deps: Deps, listId: string, userId: string, communityId: string | null) {
  if (communityId && !repo.isCommunityMember(deps.sqlite, communityId, userId)) throw new AppError("community.not_found", "community not found");
  repo.setCommunity(deps.sqlite, listId, communityId, deps.clock.now());
}

export function setFolder(deps: Deps, listId: string, userId: string, folderId: string | null) {
  if (folderId && !repo.isFolderOwner(deps.sqlite, folderId, userId)) throw new AppError("folder.not_found", "folder not found");
  repo.setFolder(deps.sqlite, listId, folderId, deps.clock.now());
}

export function resetToken(deps: Deps, listId: string, which: "share_token" | "suggestion_token"): string {
  const token = crypto.randomUUID();
  repo.setToken(deps.sqlite, listId, which, token, deps.clock.now());
  return token;
}
