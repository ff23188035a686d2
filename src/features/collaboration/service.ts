// The rules of collaboration: who is added how, what groups give, what a suggestion must carry
// and what accepting it does. Knows nothing of HTTP; throws AppError. Permission checks on a
// list are done by the routes with src/features/lists/access.ts; group roles are checked here.
// Over 500 lines on purpose: the five sections (collaborators, groups, blocks, form fields,
// suggestions) share the lookups and one transaction helper; each is short.
import type { Deps } from "../../deps";
import type { Tx } from "../../db/client";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { toIso, toIsoOrNull } from "../../shared/time";
import { recordEvent } from "../../outbox/outbox";
import { type ListAccess, addModsToList } from "../lists";
import type { FormFieldInput } from "./model";
import * as repo from "./repository";

function tx<T>(deps: Deps, fn: (t: Tx) => T): T {
  return deps.db.transaction((t) => fn(t), { behavior: "immediate" });
}

const isUniqueViolation = (e: unknown) => e instanceof Error && /UNIQUE constraint failed|PRIMARY KEY/i.test(e.message);

// ---------------------------------------------------------------------------------------------
// Finding people

/**
 * The one user named by `search`: an e-mail address (exact, any case) or a display name
 * (exact, any case). Unknown → 404 `user not found`; a display name several users share → 409.
 */
export function findUser(deps: Deps, search: string): repo.UserRow {
  const s = search.trim();
  if (s.includes("@")) {
    const byMail = repo.usersByEmail(deps.sqlite, s);
    if (byMail.length === 1) return byMail[0]!;
  }
  const byName = repo.usersByDisplayName(deps.sqlite, s);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) throw new AppError("user.name_ambiguous", `several users are named "${s}": use their e-mail address`);
  throw new AppError("user.not_found", "user not found");
}

const personOut = (r: repo.PersonRow) => ({ user_id: r.user_id, display_name: r.display_name, added_at: toIso(r.added_at) });
const collaboratorOut = (r: repo.CollaboratorRow) => ({
  user_id: r.user_id,
  display_name: r.display_name,
  can_add: !!r.can_add,
  can_remove: !!r.can_remove,
  can_deploy: !!r.can_deploy,
  added_at: toIso(r.added_at),
});

// ---------------------------------------------------------------------------------------------
// Collaborators and co-owners of a list

export const collaborators = (deps: Deps, listId: string) => ({ collaborators: repo.listCollaborators(deps.sqlite, listId).map(collaboratorOut) });

export function addCollaborator(
  deps: Deps,
  a: ListAccess,
  input: { search: string; can_add?: boolean; can_remove?: boolean; can_deploy?: boolean },
) {
  const u = findUser(deps, input.search);
  const listId = a.list.id;
  if (u.id === a.list.owner_id || repo.isListCoOwner(deps.sqlite, listId, u.id)) throw new AppError("list.already_owner", "user is already an owner of the list");
  if (repo.getCollaborator(deps.sqlite, listId, u.id)) throw new AppError("list.already_collaborator", "user is already a collaborator");
  try {
    repo.insertCollaborator(deps.sqlite, {
      listId,
      userId: u.id,
      canAdd: input.can_add ?? true,
      canRemove: input.can_remove ?? false,
      canDeploy: input.can_deploy ?? false,
      at: deps.clock.now(),
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("list.already_collaborator", "user is already a collaborator");
    throw e;
  }
  return collaboratorOut(repo.getCollaborator(deps.sqlite, listId, u.id)!);
}

export function updateCollaborator(deps: Deps, listId: string, userId: string, flags: { can_add?: boolean; can_remove?: boolean; can_deploy?: boolean }) {
  const cur = repo.getCollaborator(deps.sqlite, listId, userId);
  if (!cur) throw new AppError("list.collaborator_not_found", "collaborator not found");
  repo.updateCollaborator(deps.sqlite, listId, userId, {
    can_add: flags.can_add ?? !!cur.can_add,
    can_remove: flags.can_remove ?? !!cur.can_remove,
    can_deploy: flags.can_deploy ?? !!cur.can_deploy,
  });
  return collaboratorOut(repo.getCollaborator(deps.sqlite, listId, userId)!);
}

export function removeCollaborator(deps: Deps, listId: string, userId: string) {
  if (!repo.deleteCollaborator(deps.sqlite, listId, userId)) throw new AppError("list.collaborator_not_found", "collaborator not found");
}

export const listCoOwners = (deps: Deps, listId: string) => ({ owners: repo.listOwners(deps.sqlite, listId).map(personOut) });

export function addListCoOwner(deps: Deps, a: ListAccess, search: string) {
  const u = findUser(deps, search);
  if (u.id === a.list.owner_id) throw new AppError("list.already_owner", "user is the primary owner of the list");
  if (repo.isListCoOwner(deps.sqlite, a.list.id, u.id)) throw new AppError("list.already_co_owner", "user is already a co-owner");
  const at = deps.clock.now();
  try {
    repo.insertListOwner(deps.sqlite, a.list.id, u.id, at);
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("list.already_co_owner", "user is already a co-owner");
    throw e;
  }
  return { user_id: u.id, display_name: u.display_name, added_at: toIso(at) };
}

export function removeListCoOwner(deps: Deps, listId: string, userId: string) {
  if (!repo.deleteListOwner(deps.sqlite, listId, userId)) throw new AppError("list.co_owner_not_found", "co-owner not found");
}

// ---------------------------------------------------------------------------------------------
// Permission groups

export type GroupRole = "primary" | "owner";

export const groupOut = (g: repo.GroupRow, userId: string) => ({
  id: g.id,
  name: g.name,
  description: g.description,
  can_add: !!g.can_add,
  can_remove: !!g.can_remove,
  can_deploy: !!g.can_deploy,
  community_id: g.community_id,
  owner_id: g.owner_id,
  owner_name: g.owner_name,
  is_primary_owner: g.owner_id === userId,
  member_count: g.member_count,
  created_at: toIso(g.created_at),
  updated_at: toIso(g.updated_at),
});

/**
 * The group, if the user may manage it at `role`: "owner" = primary owner or co-owner,
 * "primary" = primary owner only. A group the user has nothing to do with is 404 `group not
 * found` (its existence is not revealed); a plain member (who knows the group: it grants them
 * rights) or a co-owner asking for more than they may do is 403 (spec rule 7).
 */
export function requireGroup(deps: Deps, groupId: string, userId: string, role: GroupRole): repo.GroupRow {
  const g = repo.getGroup(deps.sqlite, groupId, userId);
  if (!g) throw new AppError("group.not_found", "group not found");
  const primary = g.owner_id === userId;
  if (!primary && !g.is_co_owner) throw g.is_member ? new AppError("group.forbidden", "no permission") : new AppError("group.not_found", "group not found");
  if (role === "primary" && !primary) throw new AppError("group.forbidden", "no permission");
  return g;
}

export const myGroups = (deps: Deps, userId: string) => ({ groups: repo.groupsOf(deps.sqlite, userId).map((g) => groupOut(g, userId)) });

export function createGroup(deps: Deps, userId: string, input: { name: string; description?: string; can_add?: boolean; can_remove?: boolean; can_deploy?: boolean }) {
  const id = newId();
  repo.insertGroup(deps.sqlite, {
    id,
    ownerId: userId,
    name: input.name,
    description: input.description ?? "",
    canAdd: input.can_add ?? false,
    canRemove: input.can_remove ?? false,
    canDeploy: input.can_deploy ?? false,
    at: deps.clock.now(),
  });
  return groupOut(repo.getGroup(deps.sqlite, id, userId)!, userId);
}

export function updateGroup(deps: Deps, g: repo.GroupRow, input: { name?: string; description?: string; can_add?: boolean; can_remove?: boolean; can_deploy?: boolean }) {
  repo.updateGroup(
    deps.sqlite,
    g.id,
    {
      name: input.name ?? g.name,
      description: input.description ?? g.description,
      can_add: input.can_add ?? !!g.can_add,
      can_remove: input.can_remove ?? !!g.can_remove,
      can_deploy: input.can_deploy ?? !!g.can_deploy,
    },
    deps.clock.now(),
  );
}

/** Deleting cascades to members, co-owners and list assignments: the access they gave ends at once. */
export const deleteGroup = (deps: Deps, groupId: string) => void repo.deleteGroup(deps.sqlite, groupId);

export function assignGroupCommunity(deps: Deps, g: repo.GroupRow, userId: string, communityId: string | null) {
  if (communityId && !repo.communityVisible(deps.sqlite, communityId, userId)) throw new AppError("community.not_found", "community not found");
  repo.setGroupCommunity(deps.sqlite, g.id, communityId, deps.clock.now());
  return { ok: true as const, community_id: communityId };
}

export const groupMembers = (deps: Deps, groupId: string) => ({ members: repo.groupMembers(deps.sqlite, groupId).map(personOut) });

export function addGroupMember(deps: Deps, groupId: string, search: string) {
  const u = findUser(deps, search);
  if (repo.isGroupMember(deps.sqlite, groupId, u.id)) throw new AppError("group.already_member", "user is already a member of the group");
  const at = deps.clock.now();
  try {
    repo.insertGroupMember(deps.sqlite, groupId, u.id, at);
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("group.already_member", "user is already a member of the group");
    throw e;
  }
  return { user_id: u.id, display_name: u.display_name, added_at: toIso(at) };
}

export function removeGroupMember(deps: Deps, groupId: string, userId: string) {
  if (!repo.deleteGroupMember(deps.sqlite, groupId, userId)) throw new AppError("group.member_not_found", "member not found");
}

export const groupCoOwners = (deps: Deps, groupId: string) => ({ owners: repo.groupOwners(deps.sqlite, groupId).map(personOut) });

export function addGroupCoOwner(deps: Deps, g: repo.GroupRow, search: string) {
  const u = findUser(deps, search);
  if (u.id === g.owner_id) throw new AppError("group.already_owner", "user is the primary owner of the group");
  if (repo.isGroupCoOwner(deps.sqlite, g.id, u.id)) throw new AppError("group.already_co_owner", "user is already a co-owner of the group");
  const at = deps.clock.now();
  try {
    repo.insertGroupOwner(deps.sqlite, g.id, u.id, at);
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("group.already_co_owner", "user is already a co-owner of the group");
    throw e;
  }
  return { user_id: u.id, display_name: u.display_name, added_at: toIso(at) };
}

export function removeGroupCoOwner(deps: Deps, groupId: string, userId: string) {
  if (!repo.deleteGroupOwner(deps.sqlite, groupId, userId)) throw new AppError("group.co_owner_not_found", "co-owner not found");
}

// ---------------------------------------------------------------------------------------------
// Groups on a list

type Overrides = { can_add: boolean | null; can_remove: boolean | null; can_deploy: boolean | null };

const nb = (v: number | null) => (v === null ? null : !!v);
function listGroupOut(r: repo.ListGroupRow) {
  const overrides = { can_add: nb(r.o_add), can_remove: nb(r.o_remove), can_deploy: nb(r.o_deploy) };
  const defaults = { can_add: !!r.g_add, can_remove: !!r.g_remove, can_deploy: !!r.g_deploy };
  return {
    group_id: r.group_id,
    name: r.name,
    description: r.description,
    can_add: overrides.can_add ?? defaults.can_add,
    can_remove: overrides.can_remove ?? defaults.can_remove,
    can_deploy: overrides.can_deploy ?? defaults.can_deploy,
    overrides,
    defaults,
    member_count: r.member_count,
    added_at: toIso(r.added_at),
  };
}

export const listGroups = (deps: Deps, listId: string) => ({ groups: repo.listGroups(deps.sqlite, listId).map(listGroupOut) });

/** A list owner assigns a group they own or co-own (so nobody can hand their list to strangers' groups, or probe them). */
export function assignGroupToList(deps: Deps, listId: string, userId: string, input: { group_id: string } & Partial<Overrides>) {
  requireGroup(deps, input.group_id, userId, "owner");
  if (repo.getListGroup(deps.sqlite, listId, input.group_id)) throw new AppError("list.group_already_assigned", "group is already assigned to the list");
  const o = { can_add: input.can_add ?? null, can_remove: input.can_remove ?? null, can_deploy: input.can_deploy ?? null };
  try {
    repo.insertListGroup(deps.sqlite, listId, input.group_id, o, deps.clock.now());
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("list.group_already_assigned", "group is already assigned to the list");
    throw e;
  }
  return listGroupOut(repo.getListGroup(deps.sqlite, listId, input.group_id)!);
}

/** Absent flags stay as they are; null resets a flag to the group default. */
export function updateListGroup(deps: Deps, listId: string, groupId: string, input: Partial<Overrides>) {
  const cur = repo.getListGroup(deps.sqlite, listId, groupId);
  if (!cur) throw new AppError("list.group_not_assigned", "group not assigned to the list");
  const pick = (v: boolean | null | undefined, old: number | null) => (v === undefined ? nb(old) : v);
  repo.updateListGroup(deps.sqlite, listId, groupId, {
    can_add: pick(input.can_add, cur.o_add),
    can_remove: pick(input.can_remove, cur.o_remove),
    can_deploy: pick(input.can_deploy, cur.o_deploy),
  });
  return listGroupOut(repo.getListGroup(deps.sqlite, listId, groupId)!);
}

export function removeListGroup(deps: Deps, listId: string, groupId: string) {
  if (!repo.deleteListGroup(deps.sqlite, listId, groupId)) throw new AppError("list.group_not_assigned", "group not assigned to the list");
}

// ---------------------------------------------------------------------------------------------
// Moderation

const blockOut = (r: repo.BlockRow) => ({ user_id: r.user_id, display_name: r.display_name, blocked_by: r.blocked_by, created_at: toIso(r.created_at) });

export const blocks = (deps: Deps, listId: string) => ({ blocks: repo.listBlocks(deps.sqlite, listId).map(blockOut) });

export function blockUser(deps: Deps, a: ListAccess, byUserId: string, userId: string) {
  const u = repo.userById(deps.sqlite, userId);
  if (!u) throw new AppError("user.not_found", "user not found");
  if (u.id === a.list.owner_id || repo.isListCoOwner(deps.sqlite, a.list.id, u.id)) throw new AppError("list.cannot_block_owner", "an owner of the list cannot be blocked");
  if (repo.isBlocked(deps.sqlite, a.list.id, u.id)) throw new AppError("list.already_blocked", "user is already blocked");
  const at = deps.clock.now();
  repo.insertBlock(deps.sqlite, a.list.id, u.id, byUserId, at);
  return { user_id: u.id, display_name: u.display_name, blocked_by: byUserId, created_at: toIso(at) };
}

export function unblockUser(deps: Deps, listId: string, userId: string) {
  if (!repo.deleteBlock(deps.sqlite, listId, userId)) throw new AppError("list.not_blocked", "user is not blocked");
}

export const BLOCKED_MESSAGE = "you are blocked on this list";
export const isBlocked = (deps: Deps, listId: string, userId: string) => repo.isBlocked(deps.sqlite, listId, userId);

// ---------------------------------------------------------------------------------------------
// Form fields

const fieldOut = (f: repo.FieldRow) => ({
  id: f.id,
  list_id: f.list_id,
  label: f.label,
  type: f.type,
  required: !!f.required,
  options: JSON.parse(f.options_json) as string[],
  position: f.position,
  created_at: toIso(f.created_at),
});

export const formFields = (deps: Deps, listId: string) => ({ fields: repo.formFields(deps.sqlite, listId).map(fieldOut) });

export function createFormField(deps: Deps, listId: string, input: FormFieldInput) {
  const id = newId();
  repo.insertFormField(deps.sqlite, {
    id,
    list_id: listId,
    label: input.label,
    type: input.type,
    required: input.required ?? false,
    options_json: JSON.stringify(input.type === "select" ? (input.options ?? []) : []),
    position: repo.nextFieldPosition(deps.sqlite, listId),
    created_at: deps.clock.now(),
  });
  return fieldOut(repo.getFormField(deps.sqlite, listId, id)!);
}

export function updateFormField(deps: Deps, listId: string, id: string, input: FormFieldInput) {
  const n = repo.updateFormField(deps.sqlite, listId, id, {
    label: input.label,
    type: input.type,
    required: input.required ?? false,
    options_json: JSON.stringify(input.type === "select" ? (input.options ?? []) : []),
  });
  if (!n) throw new AppError("list.form_field_not_found", "form field not found");
  return fieldOut(repo.getFormField(deps.sqlite, listId, id)!);
}

export function deleteFormField(deps: Deps, listId: string, id: string) {
  if (!repo.deleteFormField(deps.sqlite, listId, id)) throw new AppError("list.form_field_not_found", "form field not found");
}

export type AnswersIn = Record<string, string | boolean> | { field_id: string; value: string | boolean }[] | null | undefined;

/**
 * Checks answers against the list's fields and returns them in object form. Unknown field ids
 * and duplicates are 400; a required field must be answered (a text answer must not be blank;
 * a checkbox answer may be false); text wants a string, checkbox a boolean, select one of its
 * options.
 */
export function validateAnswers(fields: readonly repo.FieldRow[], input: AnswersIn): Record<string, string | boolean> {
  const answers: Record<string, string | boolean> = {};
  if (Array.isArray(input)) {
    for (const a of input) {
      if (Object.hasOwn(answers, a.field_id)) throw new AppError("request.invalid", `form_answers: field ${a.field_id} is answered twice`);
      answers[a.field_id] = a.value;
    }
  } else if (input) {
    Object.assign(answers, input);
  }
  const byId = new Map(fields.map((f) => [f.id, f]));
  for (const id of Object.keys(answers)) if (!byId.has(id)) throw new AppError("request.invalid", `form_answers: unknown field ${id}`);
  for (const f of fields) {
    const v = answers[f.id];
    const label = `"${f.label}"`;
    if (v === undefined || (typeof v === "string" && v.trim() === "")) {
      if (f.required) throw new AppError("request.invalid", `form_answers: ${label} is required`);
      delete answers[f.id];
      continue;
    }
    if (f.type === "text") {
      if (typeof v !== "string") throw new AppError("request.invalid", `form_answers: ${label} must be a string`);
      if (v.length > 2000) throw new AppError("request.invalid", `form_answers: ${label} must be at most 2000 characters`);
    } else if (f.type === "checkbox") {
      if (typeof v !== "boolean") throw new AppError("request.invalid", `form_answers: ${label} must be a boolean`);
    } else {
      const options = JSON.parse(f.options_json) as string[];
      if (typeof v !== "string" || !options.includes(v)) throw new AppError("request.invalid", `form_answers: ${label} must be one of ${options.map((o) => `"${o}"`).join(", ")}`);
    }
  }
  return answers;
}

// ---------------------------------------------------------------------------------------------
// Suggestions

const suggestionOut = (r: repo.SuggestionRow) => ({
  id: r.id,
  list_id: r.list_id,
  workshop_id: r.workshop_id,
  mod_name: r.mod_name,
  reason: r.reason,
  form_answers: JSON.parse(r.form_answers_json) as Record<string, string | boolean>,
  status: r.status,
  note: r.note,
  user_id: r.user_id,
  display_name: r.display_name,
  reviewed_by: r.reviewed_by,
  reviewed_at: toIsoOrNull(r.reviewed_at),
  created_at: toIso(r.created_at),
  votes: r.votes,
  voted: !!r.voted,
});

/** Pending first (most votes, then oldest), then reviewed (most recently reviewed first). */
export function suggestions(deps: Deps, listId: string, userId: string, status?: "pending" | "reviewed" | "accepted" | "rejected") {
  let rows = repo.listSuggestions(deps.sqlite, listId, userId);
  if (status === "reviewed") rows = rows.filter((r) => r.status !== "pending");
  else if (status) rows = rows.filter((r) => r.status === status);
  const pending = rows.filter((r) => r.status === "pending").sort((a, b) => b.votes - a.votes || a.created_at - b.created_at);
  const reviewed = rows.filter((r) => r.status !== "pending").sort((a, b) => (b.reviewed_at ?? 0) - (a.reviewed_at ?? 0));
  return { suggestions: [...pending, ...reviewed].map(suggestionOut) };
}

export function getSuggestion(deps: Deps, listId: string, id: string, userId: string) {
  const r = repo.getSuggestion(deps.sqlite, listId, id, userId);
  if (!r) throw new AppError("suggestion.not_found", "suggestion not found");
  return r;
}

export function createSuggestion(deps: Deps, a: ListAccess, userId: string, input: { workshop_id: string; reason?: string; form_answers?: AnswersIn }) {
  const listId = a.list.id;
  if (repo.isBlocked(deps.sqlite, listId, userId)) throw new AppError("list.blocked", BLOCKED_MESSAGE);
  const answers = validateAnswers(repo.formFields(deps.sqlite, listId), input.form_answers);
  if (repo.modInList(deps.sqlite, listId, input.workshop_id)) throw new AppError("mod_in_list", "mod is already in the list");
  if (repo.pendingSuggestionFor(deps.sqlite, listId, input.workshop_id)) throw new AppError("suggestion.already_exists", "mod is already suggested");
  const id = newId();
  const at = deps.clock.now();
  const reason = input.reason ?? "";
  tx(deps, (t) => {
    repo.insertSuggestion(deps.sqlite, { id, listId, userId, workshopId: input.workshop_id, reason, answersJson: JSON.stringify(answers), at });
    recordEvent(t, {
      kind: "suggestion_created",
      listId,
      actorId: userId,
      data: { suggestion_id: id, workshop_id: input.workshop_id, mod_name: repo.modName(deps.sqlite, input.workshop_id), reason, list_name: a.list.name },
      at,
    });
  });
  return suggestionOut(getSuggestion(deps, listId, id, userId));
}

export function vote(deps: Deps, listId: string, suggestionId: string, userId: string, value: 0 | 1) {
  if (repo.isBlocked(deps.sqlite, listId, userId)) throw new AppError("list.blocked", BLOCKED_MESSAGE);
  const s = getSuggestion(deps, listId, suggestionId, userId);
  if (s.status !== "pending") throw new AppError("suggestion.already_reviewed", "suggestion already reviewed");
  if (value === 1) repo.addVote(deps.sqlite, s.id, userId, deps.clock.now());
  else repo.removeVote(deps.sqlite, s.id, userId);
  return { votes: repo.voteCount(deps.sqlite, s.id), voted: value === 1 };
}

/**
 * Accepts or rejects a pending suggestion (else 409 `suggestion already reviewed`). Accepting
 * adds the mod through the lists service first (audited, 1000 limit, duplicates, age rule): if
 * that fails, the error is returned and the suggestion stays pending. The handler runs without
 * an await, so nothing interleaves between the add and the status change.
 */
export function review(deps: Deps, a: ListAccess, suggestionId: string, userId: string, input: { status: "accepted" | "rejected"; note?: string | null }) {
  const listId = a.list.id;
  const s = getSuggestion(deps, listId, suggestionId, userId);
  if (s.status !== "pending") throw new AppError("suggestion.already_reviewed", "suggestion already reviewed");
  if (input.status === "accepted") {
    addModsToList(deps, { listId, userId, workshopIds: [s.workshop_id], source: "suggestion" });
  }
  const at = deps.clock.now();
  const note = input.note ?? null;
  tx(deps, (t) => {
    if (!repo.reviewSuggestion(deps.sqlite, s.id, { status: input.status, note, by: userId, at })) throw new AppError("suggestion.already_reviewed", "suggestion already reviewed");
    recordEvent(t, {
      kind: "suggestion_reviewed",
      listId,
      actorId: userId,
      data: {
        suggestion_id: s.id,
        workshop_id: s.workshop_id,
        mod_name: repo.modName(deps.sqlite, s.workshop_id) ?? s.mod_name,
        status: input.status,
        note,
        requester_id: s.user_id,
        list_name: a.list.name,
      },
      at,
    });
  });
  return suggestionOut(getSuggestion(deps, listId, s.id, userId));
}

export function deleteSuggestion(deps: Deps, listId: string, id: string) {
  if (!repo.deleteSuggestion(deps.sqlite, listId, id)) throw new AppError("suggestion.not_found", "suggestion not found");
}
