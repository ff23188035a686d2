// The one permission model for lists. Every list, suggestion, deploy and server route asks it.
//
// Roles on a list:
//   primary owner  lists.owner_id: everything
//   co-owner       list_owners: every owner right except deleting the list and managing co-owners
//   collaborator   list_collaborators: can_add / can_remove / can_deploy as flagged
//   group member   group_members of a group in list_groups: the group's defaults, overridden
//                  per list (null = inherit)
// Effective collaborator rights are the union over the direct grant and every group grant.
// Read access: public lists for everyone; private lists for anyone with a role above, or with
// the list's share token (read only). Admins get no special rights on other people's lists.
import type { Database } from "bun:sqlite";
import type { lists } from "./tables";
import { accessRow } from "./repository";
import { AppError } from "../../shared/errors";

export interface AccessUser {
  id: string;
}

export type ListRow = typeof lists.$inferSelect;

export interface ListAccess {
  list: ListRow;
  userId: string | null;
  isPrimary: boolean;
  /** Primary owner or co-owner. */
  isOwner: boolean;
  /** A direct collaborator or a member of an assigned group. */
  isCollaborator: boolean;
  canRead: boolean;
  canAdd: boolean;
  canRemove: boolean;
  canDeploy: boolean;
  /** Read access came only from the share token. */
  viaShare: boolean;
}

export type ListRight = "add" | "remove" | "deploy";

/** Computes what `user` (or an anonymous caller holding `shareToken`) may do on list `listId`; null when the list does not exist. */
export function resolveListAccess(
  deps: { sqlite: Database },
  listId: string,
  user: AccessUser | null | undefined,
  shareToken?: string | null,
): ListAccess | null {
  const row = accessRow(deps.sqlite, listId, user?.id ?? "");
  if (!row) return null;
  const list: ListRow = {
    id: row.id,
    owner_id: row.owner_id,
    name: row.name,
    description: row.description,
    is_public: !!row.is_public,
    share_token: row.share_token,
    suggestion_token: row.suggestion_token,
    require_deploy_approval: !!row.require_deploy_approval,
    community_id: row.community_id,
    folder_id: row.folder_id,
    max_mod_age_days: row.max_mod_age_days,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  const uid = user?.id ?? null;
  const isPrimary = uid !== null && list.owner_id === uid;
  const isOwner = isPrimary || (uid !== null && !!row.co_owner);
  const inGroup = uid !== null && !!row.g_n;
  const isCollaborator = uid !== null && (!!row.collab || inGroup);
  const grant = (direct: unknown, group: unknown) => isOwner || (!!row.collab && !!direct) || (inGroup && !!group);
  const member = isOwner || isCollaborator;
  const shareOk = !!shareToken && shareToken === list.share_token;
  return {
    list,
    userId: uid,
    isPrimary,
    isOwner,
    isCollaborator,
    canRead: list.is_public || member || shareOk,
    canAdd: grant(row.c_add, row.g_add),
    canRemove: grant(row.c_remove, row.g_remove),
    canDeploy: grant(row.c_deploy, row.g_deploy),
    viaShare: shareOk && !list.is_public && !member,
  };
}

const LIST_NOT_FOUND = "list not found";

/** The list exists and the caller may read it; else 404 (a private list's existence is not revealed). */
export function requireListRead(access: ListAccess | null): ListAccess {
  if (!access || !access.canRead) throw new AppError("list.not_found", LIST_NOT_FOUND);
  return access;
}

function requireCaller(access: ListAccess | null): ListAccess {
  const a = requireListRead(access);
  if (!a.userId) throw new AppError("unauthorized", "unauthorized");
  return a;
}

/** Primary owner or co-owner. */
export function requireListOwner(access: ListAccess | null): ListAccess {
  const a = requireCaller(access);
  if (!a.isOwner) throw new AppError("list.forbidden", "no permission");
  return a;
}

/** Primary owner only. */
export function requireListPrimary(access: ListAccess | null): ListAccess {
  const a = requireCaller(access);
  if (!a.isPrimary) throw new AppError("list.forbidden", "no permission");
  return a;
}

/** Owner, or collaborator (direct or through a group) with the right. */
/** An import may add and remove mods, so it needs both rights. */
export const canImport = (a: ListAccess): boolean => a.canAdd && a.canRemove;

export function requireListRight(access: ListAccess | null, right: ListRight): ListAccess {
  const a = requireCaller(access);
  const ok = right === "add" ? a.canAdd : right === "remove" ? a.canRemove : a.canDeploy;
  if (!ok) throw new AppError("list.forbidden", "no permission");
  return a;
}

/** Owner or any collaborator (the spec's O/C badge for reads such as audit and suggestions). */
export function requireListMember(access: ListAccess | null): ListAccess {
  const a = requireCaller(access);
  if (!a.isOwner && !a.isCollaborator) throw new AppError("list.forbidden", "no permission");
  return a;
}

/** Owner, or collaborator (direct or through a group) who may add or remove mods: the right to take a snapshot. */
export function requireListEdit(access: ListAccess | null): ListAccess {
  const a = requireCaller(access);
  if (!a.canAdd && !a.canRemove) throw new AppError("list.forbidden", "no permission");
  return a;
}

/**
 * Renaming or deleting a snapshot (`createdBy` its author): an owner or co-owner, or the author
 * while they still hold an edit right. A collaborator's own history is theirs to tidy; everyone
 * else's is the owners'.
 */
export function requireSnapshotManage(access: ListAccess, createdBy: string | null): ListAccess {
  if (access.isOwner) return access;
  if (createdBy !== null && createdBy === access.userId && (access.canAdd || access.canRemove)) return access;
  throw new AppError("list.forbidden", "no permission");
}
