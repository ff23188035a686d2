// The collaboration feature's queries (bun:sqlite; `query()` caches each statement).
import type { Database } from "bun:sqlite";
import type { formFields as formFieldsTable } from "./tables";

export interface UserRow {
  id: string;
  display_name: string;
}
export interface PersonRow {
  user_id: string;
  display_name: string;
  added_at: number;
}
export interface CollaboratorRow extends PersonRow {
  can_add: number;
  can_remove: number;
  can_deploy: number;
}
export interface GroupRow {
  id: string;
  owner_id: string;
  owner_name: string;
  name: string;
  description: string;
  can_add: number;
  can_remove: number;
  can_deploy: number;
  community_id: string | null;
  member_count: number;
  created_at: number;
  updated_at: number;
  is_co_owner: number;
  is_member: number;
}
export interface ListGroupRow {
  group_id: string;
  name: string;
  description: string;
  g_add: number;
  g_remove: number;
  g_deploy: number;
  o_add: number | null;
  o_remove: number | null;
  o_deploy: number | null;
  member_count: number;
  added_at: number;
}
/** A row of form_fields as raw SQL reads it (`required` as 0/1). */
export type FieldRow = Omit<typeof formFieldsTable.$inferSelect, "required"> & { required: number };
export interface SuggestionRow {
  id: string;
  list_id: string;
  user_id: string;
  display_name: string;
  workshop_id: string;
  mod_name: string | null;
  reason: string;
  form_answers_json: string;
  status: "pending" | "accepted" | "rejected";
  note: string | null;
  reviewed_by: string | null;
  reviewed_at: number | null;
  created_at: number;
  votes: number;
  voted: number;
}
export interface BlockRow {
  user_id: string;
  display_name: string;
  blocked_by: string | null;
  created_at: number;
}

// ---- users ----------------------------------------------------------------------------------

export const usersByEmail = (db: Database, email: string) =>
  db.query("SELECT id, display_name FROM users WHERE email = ?").all(email.toLowerCase()) as UserRow[];
export const usersByDisplayName = (db: Database, displayName: string) =>
  db.query("SELECT id, display_name FROM users WHERE display_name = ? COLLATE NOCASE LIMIT 10").all(displayName) as UserRow[];
export const userById = (db: Database, id: string) => db.query("SELECT id, display_name FROM users WHERE id = ?").get(id) as UserRow | null;

// ---- list co-owners and collaborators -------------------------------------------------------

/**
 * The three membership tables (list co-owners, group members, group co-owners) have the same
 * shape: (scope id, user_id, added_at). One set of statements serves each; table and column
 * names are constants, never input.
 */
function membership(table: "list_owners" | "group_members" | "group_owners", scope: "list_id" | "group_id") {
  return {
    people: (db: Database, scopeId: string) =>
      db
        .query(
          `SELECT m.user_id, u.display_name, m.added_at FROM ${table} m JOIN users u ON u.id = m.user_id
           WHERE m.${scope} = ? ORDER BY m.added_at, u.display_name`,
        )
        .all(scopeId) as PersonRow[],
    has: (db: Database, scopeId: string, userId: string) =>
      !!db.query(`SELECT 1 FROM ${table} WHERE ${scope} = ? AND user_id = ?`).get(scopeId, userId),
    insert: (db: Database, scopeId: string, userId: string, at: number) =>
      db.query(`INSERT INTO ${table} (${scope}, user_id, added_at) VALUES (?, ?, ?)`).run(scopeId, userId, at),
    remove: (db: Database, scopeId: string, userId: string) =>
      db.query(`DELETE FROM ${table} WHERE ${scope} = ? AND user_id = ?`).run(scopeId, userId).changes,
  };
}

const listCoOwners = membership("list_owners", "list_id");
export const listOwners = listCoOwners.people;
export const isListCoOwner = listCoOwners.has;
export const insertListOwner = listCoOwners.insert;
export const deleteListOwner = listCoOwners.remove;

const COLLAB_SELECT = `SELECT c.user_id, u.display_name, c.can_add, c.can_remove, c.can_deploy, c.added_at
  FROM list_collaborators c JOIN users u ON u.id = c.user_id`;
export const listCollaborators = (db: Database, listId: string) =>
  db.query(`${COLLAB_SELECT} WHERE c.list_id = ? ORDER BY c.added_at, u.display_name`).all(listId) as CollaboratorRow[];
export const getCollaborator = (db: Database, listId: string, userId: string) =>
  db.query(`${COLLAB_SELECT} WHERE c.list_id = ? AND c.user_id = ?`).get(listId, userId) as CollaboratorRow | null;
export const insertCollaborator = (db: Database, r: { listId: string; userId: string; canAdd: boolean; canRemove: boolean; canDeploy: boolean; at: number }) =>
  db
    .query("INSERT INTO list_collaborators (list_id, user_id, can_add, can_remove, can_deploy, added_at) VALUES (?, ?, ?, ?, ?, ?)")
    .run(r.listId, r.userId, r.canAdd ? 1 : 0, r.canRemove ? 1 : 0, r.canDeploy ? 1 : 0, r.at);
export const updateCollaborator = (db: Database, listId: string, userId: string, f: { can_add: boolean; can_remove: boolean; can_deploy: boolean }) =>
  db
    .query("UPDATE list_collaborators SET can_add = ?, can_remove = ?, can_deploy = ? WHERE list_id = ? AND user_id = ?")
    .run(f.can_add ? 1 : 0, f.can_remove ? 1 : 0, f.can_deploy ? 1 : 0, listId, userId).changes;
export const deleteCollaborator = (db: Database, listId: string, userId: string) =>
  db.query("DELETE FROM list_collaborators WHERE list_id = ? AND user_id = ?").run(listId, userId).changes;

// ---- groups ---------------------------------------------------------------------------------

const GROUP_SELECT = `SELECT g.id, g.owner_id, ou.display_name AS owner_name, g.name, g.description, g.can_add, g.can_remove,
    g.can_deploy, g.community_id, g.created_at, g.updated_at,
    (SELECT COUNT(*) FROM group_members m WHERE m.group_id = g.id) AS member_count,
    EXISTS (SELECT 1 FROM group_owners o WHERE o.group_id = g.id AND o.user_id = $uid) AS is_co_owner,
    EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = g.id AND m.user_id = $uid) AS is_member
  FROM permission_groups g JOIN users ou ON ou.id = g.owner_id`;

/** Groups the user owns or co-owns, by name. */
export const groupsOf = (db: Database, userId: string) =>
  db.query(`${GROUP_SELECT} WHERE g.owner_id = $uid OR EXISTS (SELECT 1 FROM group_owners o WHERE o.group_id = g.id AND o.user_id = $uid)
    ORDER BY g.name COLLATE NOCASE, g.id`).all({ uid: userId }) as GroupRow[];
export const getGroup = (db: Database, groupId: string, userId: string) =>
  db.query(`${GROUP_SELECT} WHERE g.id = $id`).get({ id: groupId, uid: userId }) as GroupRow | null;
export const insertGroup = (
  db: Database,
  g: { id: string; ownerId: string; name: string; description: string; canAdd: boolean; canRemove: boolean; canDeploy: boolean; at: number },
) =>
  db
    .query(
      `INSERT INTO permission_groups (id, owner_id, name, description, can_add, can_remove, can_deploy, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(g.id, g.ownerId, g.name, g.description, g.canAdd ? 1 : 0, g.canRemove ? 1 : 0, g.canDeploy ? 1 : 0, g.at, g.at);
export const updateGroup = (db: Database, id: string, g: { name: string; description: string; can_add: boolean; can_remove: boolean; can_deploy: boolean }, at: number) =>
  db
    .query("UPDATE permission_groups SET name = ?, description = ?, can_add = ?, can_remove = ?, can_deploy = ?, updated_at = ? WHERE id = ?")
    .run(g.name, g.description, g.can_add ? 1 : 0, g.can_remove ? 1 : 0, g.can_deploy ? 1 : 0, at, id);
export const setGroupCommunity = (db: Database, id: string, communityId: string | null, at: number) =>
  db.query("UPDATE permission_groups SET community_id = ?, updated_at = ? WHERE id = ?").run(communityId, at, id);
export const deleteGroup = (db: Database, id: string) => db.query("DELETE FROM permission_groups WHERE id = ?").run(id).changes;

/** The community exists and the user owns it or is a member of it. */
export const communityVisible = (db: Database, communityId: string, userId: string) =>
  !!db
    .query(
      `SELECT 1 FROM communities c WHERE c.id = $cid AND (c.owner_id = $uid
         OR EXISTS (SELECT 1 FROM community_members m WHERE m.community_id = c.id AND m.user_id = $uid))`,
    )
    .get({ cid: communityId, uid: userId });

const groupMemberRows = membership("group_members", "group_id");
export const groupMembers = groupMemberRows.people;
export const isGroupMember = groupMemberRows.has;
export const insertGroupMember = groupMemberRows.insert;
export const deleteGroupMember = groupMemberRows.remove;

const groupOwnerRows = membership("group_owners", "group_id");
export const groupOwners = groupOwnerRows.people;
export const isGroupCoOwner = groupOwnerRows.has;
export const insertGroupOwner = groupOwnerRows.insert;
export const deleteGroupOwner = groupOwnerRows.remove;

// ---- groups on lists ------------------------------------------------------------------------

const LIST_GROUP_SELECT = `SELECT lg.group_id, g.name, g.description, g.can_add AS g_add, g.can_remove AS g_remove, g.can_deploy AS g_deploy,
    lg.can_add AS o_add, lg.can_remove AS o_remove, lg.can_deploy AS o_deploy, lg.added_at,
    (SELECT COUNT(*) FROM group_members m WHERE m.group_id = g.id) AS member_count
  FROM list_groups lg JOIN permission_groups g ON g.id = lg.group_id`;
export const listGroups = (db: Database, listId: string) =>
  db.query(`${LIST_GROUP_SELECT} WHERE lg.list_id = ? ORDER BY lg.added_at, g.name`).all(listId) as ListGroupRow[];
export const getListGroup = (db: Database, listId: string, groupId: string) =>
  db.query(`${LIST_GROUP_SELECT} WHERE lg.list_id = ? AND lg.group_id = ?`).get(listId, groupId) as ListGroupRow | null;
const flag = (v: boolean | null) => (v === null ? null : v ? 1 : 0);
export const insertListGroup = (db: Database, listId: string, groupId: string, o: { can_add: boolean | null; can_remove: boolean | null; can_deploy: boolean | null }, at: number) =>
  db
    .query("INSERT INTO list_groups (list_id, group_id, can_add, can_remove, can_deploy, added_at) VALUES (?, ?, ?, ?, ?, ?)")
    .run(listId, groupId, flag(o.can_add), flag(o.can_remove), flag(o.can_deploy), at);
export const updateListGroup = (db: Database, listId: string, groupId: string, o: { can_add: boolean | null; can_remove: boolean | null; can_deploy: boolean | null }) =>
  db
    .query("UPDATE list_groups SET can_add = ?, can_remove = ?, can_deploy = ? WHERE list_id = ? AND group_id = ?")
    .run(flag(o.can_add), flag(o.can_remove), flag(o.can_deploy), listId, groupId).changes;
export const deleteListGroup = (db: Database, listId: string, groupId: string) =>
  db.query("DELETE FROM list_groups WHERE list_id = ? AND group_id = ?").run(listId, groupId).changes;

// ---- blocks ---------------------------------------------------------------------------------

export const listBlocks = (db: Database, listId: string) =>
  db
    .query(
      `SELECT b.user_id, u.display_name, b.blocked_by, b.created_at FROM list_blocks b JOIN users u ON u.id = b.user_id
       WHERE b.list_id = ? ORDER BY b.created_at, u.display_name`,
    )
    .all(listId) as BlockRow[];
export const isBlocked = (db: Database, listId: string, userId: string) =>
  !!db.query("SELECT 1 FROM list_blocks WHERE list_id = ? AND user_id = ?").get(listId, userId);
export const insertBlock = (db: Database, listId: string, userId: string, by: string, at: number) =>
  db.query("INSERT INTO list_blocks (list_id, user_id, blocked_by, created_at) VALUES (?, ?, ?, ?)").run(listId, userId, by, at);
export const deleteBlock = (db: Database, listId: string, userId: string) =>
  db.query("DELETE FROM list_blocks WHERE list_id = ? AND user_id = ?").run(listId, userId).changes;

// ---- form fields ----------------------------------------------------------------------------

export const formFields = (db: Database, listId: string) =>
  db.query("SELECT * FROM form_fields WHERE list_id = ? ORDER BY position, created_at, id").all(listId) as FieldRow[];
export const getFormField = (db: Database, listId: string, id: string) =>
  db.query("SELECT * FROM form_fields WHERE list_id = ? AND id = ?").get(listId, id) as FieldRow | null;
export const nextFieldPosition = (db: Database, listId: string) =>
  (db.query("SELECT COALESCE(MAX(position), -1) + 1 AS p FROM form_fields WHERE list_id = ?").get(listId) as { p: number }).p;
export const insertFormField = (db: Database, f: Omit<FieldRow, "required"> & { required: boolean }) =>
  db
    .query("INSERT INTO form_fields (id, list_id, label, type, required, options_json, position, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    .run(f.id, f.list_id, f.label, f.type, f.required ? 1 : 0, f.options_json, f.position, f.created_at);
export const updateFormField = (db: Database, listId: string, id: string, f: { label: string; type: string; required: boolean; options_json: string }) =>
  db
    .query("UPDATE form_fields SET label = ?, type = ?, required = ?, options_json = ? WHERE list_id = ? AND id = ?")
    .run(f.label, f.type, f.required ? 1 : 0, f.options_json, listId, id).changes;
export const deleteFormField = (db: Database, listId: string, id: string) =>
  db.query("DELETE FROM form_fields WHERE list_id = ? AND id = ?").run(listId, id).changes;

// ---- suggestions ----------------------------------------------------------------------------

const SUGG_SELECT = `SELECT s.id, s.list_id, s.user_id, u.display_name, s.workshop_id, md.name AS mod_name, s.reason,
    s.form_answers_json, s.status, s.note, s.reviewed_by, s.reviewed_at, s.created_at,
    (SELECT COUNT(*) FROM suggestion_votes v WHERE v.suggestion_id = s.id) AS votes,
    EXISTS (SELECT 1 FROM suggestion_votes v WHERE v.suggestion_id = s.id AND v.user_id = $uid) AS voted
  FROM suggestions s JOIN users u ON u.id = s.user_id LEFT JOIN mods md ON md.workshop_id = s.workshop_id`;

export const listSuggestions = (db: Database, listId: string, userId: string) =>
  db.query(`${SUGG_SELECT} WHERE s.list_id = $lid ORDER BY s.created_at, s.id`).all({ lid: listId, uid: userId }) as SuggestionRow[];
export const getSuggestion = (db: Database, listId: string, id: string, userId: string) =>
  db.query(`${SUGG_SELECT} WHERE s.list_id = $lid AND s.id = $id`).get({ lid: listId, id, uid: userId }) as SuggestionRow | null;
export const pendingSuggestionFor = (db: Database, listId: string, workshopId: string) =>
  !!db.query("SELECT 1 FROM suggestions WHERE list_id = ? AND workshop_id = ? AND status = 'pending'").get(listId, workshopId);
export const modInList = (db: Database, listId: string, workshopId: string) =>
  !!db.query("SELECT 1 FROM list_items WHERE list_id = ? AND workshop_id = ?").get(listId, workshopId);
export const modName = (db: Database, workshopId: string) =>
  (db.query("SELECT name FROM mods WHERE workshop_id = ?").get(workshopId) as { name: string } | null)?.name ?? null;
export const insertSuggestion = (db: Database, s: { id: string; listId: string; userId: string; workshopId: string; reason: string; answersJson: string; at: number }) =>
  db
    .query(
      "INSERT INTO suggestions (id, list_id, user_id, workshop_id, reason, form_answers_json, status, created_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)",
    )
    .run(s.id, s.listId, s.userId, s.workshopId, s.reason, s.answersJson, s.at);
/** Moves a pending suggestion; 0 changes when it was no longer pending. */
export const reviewSuggestion = (db: Database, id: string, r: { status: string; note: string | null; by: string; at: number }) =>
  db
    .query("UPDATE suggestions SET status = ?, note = ?, reviewed_by = ?, reviewed_at = ? WHERE id = ? AND status = 'pending'")
    .run(r.status, r.note, r.by, r.at, id).changes;
export const deleteSuggestion = (db: Database, listId: string, id: string) =>
  db.query("DELETE FROM suggestions WHERE list_id = ? AND id = ?").run(listId, id).changes;
export const addVote = (db: Database, suggestionId: string, userId: string, at: number) =>
  db.query("INSERT OR IGNORE INTO suggestion_votes (suggestion_id, user_id, created_at) VALUES (?, ?, ?)").run(suggestionId, userId, at);
export const removeVote = (db: Database, suggestionId: string, userId: string) =>
  db.query("DELETE FROM suggestion_votes WHERE suggestion_id = ? AND user_id = ?").run(suggestionId, userId);
export const voteCount = (db: Database, suggestionId: string) =>
  (db.query("SELECT COUNT(*) AS n FROM suggestion_votes WHERE suggestion_id = ?").get(suggestionId) as { n: number }).n;
