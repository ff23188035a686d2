// The lists feature's queries. Hot paths (detail, import, export, audit) are prepared bun:sqlite
// statements, cached per connection and set-based (json_each over id arrays, one recursive CTE
// for the dependency closure): no query per mod. They run inside drizzle transactions because
// drizzle's bun-sqlite transaction is a BEGIN on the same connection.
import type { Database, Statement } from "bun:sqlite";
import { statementSet } from "../../db/statements";
import type { listAudit, listSnapshots } from "./tables";

export interface ItemRow {
  workshop_id: string;
  name: string;
  /** Latest version the catalog knows, "" when never scraped. */
  version: string;
  pinned_version: string | null;
  /** The stated per-mod `required` (1, 0), null when the list's default applies. */
  required: number | null;
  size_bytes: number;
  image_url: string | null;
  position: number;
  added_at: number;
  /** 1 when the catalog has scraped the mod. */
  in_catalog: number;
  state: string | null;
  game_version: string | null;
  /** The mod's newest version's time (the age rule's clock, epoch ms), null when unknown. */
  mod_updated_at: number | null;
  /** Who added it (null for rows from before accounts were recorded, or a deleted account). */
  added_by: string | null;
  added_by_name: string | null;
}

export interface CatalogRow {
  workshop_id: string;
  name: string;
  version: string;
  size_bytes: number;
  /** Epoch ms of the latest version (or the mod's update time); null when unknown. */
  latest_at: number | null;
  in_catalog: number;
}

export interface DepEdge {
  workshop_id: string;
  depends_on_id: string;
  name: string;
}

/** A row of list_audit as raw SQL reads it (`reverted` as 0/1), with the author's display name. */
export type AuditRow = Omit<typeof listAudit.$inferSelect, "reverted"> & { reverted: number; display_name: string | null };

/**
 * A row of list_snapshots as raw SQL reads it: the table's columns (drizzle's $inferSelect),
 * except that SQLite hands the boolean `is_release` over as 0/1. `snapshot_json` is the JSON
 * array of {modId, name, version}.
 */
export type SnapshotRow = Omit<typeof listSnapshots.$inferSelect, "is_release"> & { is_release: number };

export interface ListSummaryRow {
  id: string;
  /** JSON array of the list's tags: [{id, name, color}]. */
  tags_json: string;
  owner_id: string;
  owner_name: string | null;
  name: string;
  description: string;
  is_public: number;
  share_token: string;
  suggestion_token: string;
  require_deploy_approval: number;
  community_id: string | null;
  folder_id: string | null;
  max_mod_age_days: number | null;
  created_at: number;
  updated_at: number;
  mod_count: number;
  total_size_bytes: number;
  role?: string;
}

const ITEM_NAME = "COALESCE(NULLIF(m.name, ''), NULLIF(li.name, ''), li.workshop_id)";
const IN_CATALOG = "(m.workshop_id IS NOT NULL AND m.state <> 'unknown')";
const LATEST_AT =
  "COALESCE((SELECT MAX(v.created_at) FROM mod_versions v WHERE v.workshop_id = m.workshop_id), m.updated_at)";
const SUMMARY_COLS = `l.id, l.owner_id, u.display_name AS owner_name, l.name, l.description, l.is_public, l.share_token,
  l.suggestion_token, l.require_deploy_approval, l.community_id, l.folder_id, l.max_mod_age_days, l.created_at, l.updated_at,
  (SELECT COUNT(*) FROM list_items li WHERE li.list_id = l.id) AS mod_count,
  (SELECT COALESCE(SUM(m.size_bytes), 0) FROM list_items li JOIN mods m ON m.workshop_id = li.workshop_id WHERE li.list_id = l.id) AS total_size_bytes,
  (SELECT json_group_array(json_object('id', t.id, 'name', t.name, 'color', t.color)) FROM
    (SELECT t.id, t.name, t.color FROM list_tags lt JOIN tags t ON t.id = lt.tag_id WHERE lt.list_id = l.id ORDER BY t.name, t.id) t) AS tags_json`;

const SQL = {
  items: `SELECT li.workshop_id, ${ITEM_NAME} AS name, COALESCE(m.version, '') AS version, li.pinned_version, li.required,
      COALESCE(m.size_bytes, 0) AS size_bytes, m.image_url, li.position, li.added_at, ${IN_CATALOG} AS in_catalog,
      m.state, m.game_version, ${LATEST_AT} AS mod_updated_at, li.added_by, au.display_name AS added_by_name
    FROM list_items li LEFT JOIN mods m ON m.workshop_id = li.workshop_id LEFT JOIN users au ON au.id = li.added_by
    WHERE li.list_id = ? ORDER BY li.position, li.added_at`,
  itemIds: `SELECT workshop_id, pinned_version, required, name, position FROM list_items WHERE list_id = ? ORDER BY position, added_at`,
  item: `SELECT li.workshop_id, ${ITEM_NAME} AS name, li.pinned_version, li.required, li.position FROM list_items li
    LEFT JOIN mods m ON m.workshop_id = li.workshop_id WHERE li.list_id = ? AND li.workshop_id = ?`,
  count: `SELECT COUNT(*) AS n, COALESCE(MAX(position), -1) AS max_pos FROM list_items WHERE list_id = ?`,
  catalog: `SELECT j.value AS workshop_id, COALESCE(m.name, '') AS name, COALESCE(m.version, '') AS version,
      COALESCE(m.size_bytes, 0) AS size_bytes, ${LATEST_AT} AS latest_at, ${IN_CATALOG} AS in_catalog
    FROM json_each(?) j LEFT JOIN mods m ON m.workshop_id = j.value ORDER BY j.key`,
  // CROSS JOIN keeps the closure as the outer loop (a primary-key probe per node); a plain JOIN
  // let SQLite scan every dependency edge of the catalog for each list read (docs/performance.md).
  closureEdges: `WITH RECURSIVE closure(id) AS (
      SELECT workshop_id FROM list_items WHERE list_id = ?
      UNION SELECT d.depends_on_id FROM closure c CROSS JOIN mod_dependencies d ON d.workshop_id = c.id
    )
    SELECT d.workshop_id, d.depends_on_id, COALESCE(NULLIF(m.name, ''), NULLIF(d.depends_on_name, ''), d.depends_on_id) AS name
    FROM closure c CROSS JOIN mod_dependencies d ON d.workshop_id = c.id LEFT JOIN mods m ON m.workshop_id = d.depends_on_id`,
  depsOf: `WITH RECURSIVE closure(id) AS (
      SELECT value FROM json_each(?)
      UNION SELECT d.depends_on_id FROM closure c CROSS JOIN mod_dependencies d ON d.workshop_id = c.id
    ) SELECT id FROM closure`,
  versionExists: `SELECT 1 AS ok FROM mod_versions WHERE workshop_id = ? AND version = ?
    UNION ALL SELECT 1 FROM mods WHERE workshop_id = ? AND version = ? LIMIT 1`,
  versionCount: `SELECT (SELECT COUNT(*) FROM mod_versions WHERE workshop_id = ?) + (SELECT COUNT(*) FROM mods WHERE workshop_id = ? AND state <> 'unknown' AND version <> '') AS n`,
  insertItem: `INSERT INTO list_items (list_id, workshop_id, name, position, pinned_version, added_by, added_at, required) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  setRequired: `UPDATE list_items SET required = ? WHERE list_id = ? AND workshop_id = ?`,
  deleteItem: `DELETE FROM list_items WHERE list_id = ? AND workshop_id = ?`,
  setPin: `UPDATE list_items SET pinned_version = ? WHERE list_id = ? AND workshop_id = ?`,
  setPosition: `UPDATE list_items SET position = ? WHERE list_id = ? AND workshop_id = ?`,
  touch: `UPDATE lists SET updated_at = ? WHERE id = ?`,
  insertAudit: `INSERT INTO list_audit (id, list_id, action, workshop_id, mod_name, old_value, new_value, user_id, reverted, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
  audit: `SELECT a.id, a.list_id, a.action, a.workshop_id, a.mod_name, a.old_value, a.new_value, a.user_id, u.display_name,
      a.reverted, a.created_at
    FROM list_audit a LEFT JOIN users u ON u.id = a.user_id WHERE a.list_id = ? ORDER BY a.created_at DESC, a.id DESC LIMIT ?`,
  auditOne: `SELECT a.id, a.list_id, a.action, a.workshop_id, a.mod_name, a.old_value, a.new_value, a.user_id, u.display_name,
      a.reverted, a.created_at
    FROM list_audit a LEFT JOIN users u ON u.id = a.user_id WHERE a.id = ? AND a.list_id = ?`,
  markReverted: `UPDATE list_audit SET reverted = 1 WHERE id = ?`,
  summaryOne: `SELECT ${SUMMARY_COLS} FROM lists l LEFT JOIN users u ON u.id = l.owner_id WHERE l.id = ?`,
  publicLists: `SELECT ${SUMMARY_COLS} FROM lists l LEFT JOIN users u ON u.id = l.owner_id
    WHERE l.is_public = 1 AND ($search IS NULL OR l.name LIKE $search ESCAPE '\\' OR l.description LIKE $search ESCAPE '\\')
      AND ($community IS NULL OR l.community_id = $community)
    ORDER BY l.updated_at DESC, l.id DESC LIMIT $limit OFFSET $offset`,
  mine: `SELECT ${SUMMARY_COLS},
      CASE WHEN l.owner_id = $uid THEN 'owner'
           WHEN EXISTS (SELECT 1 FROM list_owners o WHERE o.list_id = l.id AND o.user_id = $uid) THEN 'co_owner'
           ELSE 'collaborator' END AS role
    FROM lists l LEFT JOIN users u ON u.id = l.owner_id
    WHERE l.owner_id = $uid
       OR EXISTS (SELECT 1 FROM list_owners o WHERE o.list_id = l.id AND o.user_id = $uid)
       OR EXISTS (SELECT 1 FROM list_collaborators c WHERE c.list_id = l.id AND c.user_id = $uid)
       OR EXISTS (SELECT 1 FROM list_groups lg JOIN group_members gm ON gm.group_id = lg.group_id
                  WHERE lg.list_id = l.id AND gm.user_id = $uid)
    ORDER BY l.updated_at DESC, l.id DESC`,
  pins: `SELECT ${SUMMARY_COLS} FROM list_pins p JOIN lists l ON l.id = p.list_id LEFT JOIN users u ON u.id = l.owner_id
    WHERE p.user_id = ? ORDER BY p.created_at DESC`,
  tagsOfList: `SELECT t.id, t.name, t.color FROM list_tags lt JOIN tags t ON t.id = lt.tag_id WHERE lt.list_id = ? ORDER BY t.name`,
  insertList: `INSERT INTO lists (id, owner_id, name, description, is_public, share_token, suggestion_token, require_deploy_approval,
      max_mod_age_days, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
  ageRule: `SELECT id, max_mod_age_days FROM lists WHERE id = ?`,
  deleteList: `DELETE FROM lists WHERE id = ?`,
  deletePin: `DELETE FROM list_pins WHERE user_id = ? AND list_id = ?`,
  insertPin: `INSERT INTO list_pins (user_id, list_id, created_at) VALUES (?, ?, ?)`,
  communityOfMember: `SELECT 1 FROM communities c WHERE c.id = $c
      AND (c.owner_id = $u OR EXISTS (SELECT 1 FROM community_members m WHERE m.community_id = c.id AND m.user_id = $u))`,
  setCommunity: `UPDATE lists SET community_id = ?, updated_at = ? WHERE id = ?`,
  folderOfOwner: `SELECT 1 FROM folders WHERE id = ? AND owner_id = ?`,
  setFolder: `UPDATE lists SET folder_id = ?, updated_at = ? WHERE id = ?`,
  setShareToken: `UPDATE lists SET share_token = ?, updated_at = ? WHERE id = ?`,
  setSuggestionToken: `UPDATE lists SET suggestion_token = ?, updated_at = ? WHERE id = ?`,
  pinsKnown: `SELECT p.value ->> '$[0]' AS workshop_id FROM json_each(?) p
    WHERE EXISTS (SELECT 1 FROM mod_versions v WHERE v.workshop_id = p.value ->> '$[0]' AND v.version = p.value ->> '$[1]')
       OR EXISTS (SELECT 1 FROM mods m WHERE m.workshop_id = p.value ->> '$[0]' AND m.version = p.value ->> '$[1]')`,
  insertSnapshot: `INSERT INTO list_snapshots (id, list_id, version_name, tag, notes, is_release, snapshot_json, created_by, created_at)
    VALUES ($id, $list_id, $version_name, $tag, $notes, $is_release, $snapshot_json, $created_by, $created_at)`,
  snapshots: `SELECT * FROM list_snapshots WHERE list_id = ? ORDER BY created_at DESC, id DESC`,
  snapshot: `SELECT * FROM list_snapshots WHERE id = ? AND list_id = ?`,
  updateSnapshot: `UPDATE list_snapshots SET version_name = ?, tag = ?, notes = ?, is_release = ? WHERE id = ?`,
  deleteSnapshot: `DELETE FROM list_snapshots WHERE id = ?`,
} as const;

type Stmts = { [K in keyof typeof SQL]: Statement };
/** The prepared statements of this feature for one connection (held by the connection: db/statements.ts statementSet). */
export const stmts: (sqlite: Database) => Stmts = statementSet((sqlite) => {
  const s = {} as Stmts;
  for (const k of Object.keys(SQL) as (keyof typeof SQL)[]) {
    // Prepared lazily on first use: a statement over another feature's table must not fail
    // before that table exists.
    let prepared: Statement | undefined;
    Object.defineProperty(s, k, { get: () => (prepared ??= sqlite.prepare(SQL[k])), enumerable: true });
  }
  return s;
});

export const listItems = (sqlite: Database, listId: string) => stmts(sqlite).items.all(listId) as ItemRow[];

export const listItemKeys = (sqlite: Database, listId: string) =>
  stmts(sqlite).itemIds.all(listId) as { workshop_id: string; pinned_version: string | null; required: number | null; name: string; position: number }[];

export const getItem = (sqlite: Database, listId: string, workshopId: string) =>
  stmts(sqlite).item.get(listId, workshopId) as { workshop_id: string; name: string; pinned_version: string | null; required: number | null; position: number } | null;

/** A stored `required` (1, 0 or null) as the API's boolean or null. */
export const requiredOf = (v: number | null | undefined): boolean | null => (v === null || v === undefined ? null : v !== 0);

export const countItems = (sqlite: Database, listId: string) =>
  stmts(sqlite).count.get(listId) as { n: number; max_pos: number };

/** One row per requested id, in the given order (in_catalog 0 for mods the catalog lacks). */
export const catalogLookup = (sqlite: Database, ids: readonly string[]) =>
  stmts(sqlite).catalog.all(JSON.stringify(ids)) as CatalogRow[];

/** Every dependency edge reachable from the list's mods. */
export const dependencyEdges = (sqlite: Database, listId: string) => stmts(sqlite).closureEdges.all(listId) as DepEdge[];

/** The transitive dependency closure of `ids`, the ids themselves included. */
export const dependencyClosure = (sqlite: Database, ids: readonly string[]) =>
  (stmts(sqlite).depsOf.all(JSON.stringify(ids)) as { id: string }[]).map((r) => r.id);

/** Whether the catalog knows versions for the mod, and whether `version` is one of them. */
export function versionKnown(sqlite: Database, workshopId: string, version: string): { catalogKnows: boolean; exists: boolean } {
  const s = stmts(sqlite);
  const n = (s.versionCount.get(workshopId, workshopId) as { n: number }).n;
  if (n === 0) return { catalogKnows: false, exists: false };
  return { catalogKnows: true, exists: s.versionExists.get(workshopId, version, workshopId, version) !== null };
}

export function insertItem(
  sqlite: Database,
  row: { listId: string; workshopId: string; name: string; position: number; pinned: string | null; userId: string | null; at: number; required?: boolean | null },
) {
  const required = row.required === true ? 1 : row.required === false ? 0 : null;
  stmts(sqlite).insertItem.run(row.listId, row.workshopId, row.name, row.position, row.pinned, row.userId, row.at, required);
}

export const setRequired = (sqlite: Database, listId: string, workshopId: string, required: boolean | null) =>
  stmts(sqlite).setRequired.run(required === null ? null : required ? 1 : 0, listId, workshopId).changes;

export const deleteItem = (sqlite: Database, listId: string, workshopId: string) =>
  stmts(sqlite).deleteItem.run(listId, workshopId).changes;

export const setPin = (sqlite: Database, listId: string, workshopId: string, version: string | null) =>
  stmts(sqlite).setPin.run(version, listId, workshopId).changes;

/** Rewrites positions 0..n-1 in the given order. */
export function setOrder(sqlite: Database, listId: string, order: readonly string[]) {
  const st = stmts(sqlite).setPosition;
  for (let i = 0; i < order.length; i++) st.run(i, listId, order[i]);
}

export const touchList = (sqlite: Database, listId: string, at: number) => stmts(sqlite).touch.run(at, listId);

export function insertAudit(
  sqlite: Database,
  e: { id: string; listId: string; action: string; workshopId: string | null; modName: string | null; oldValue: unknown; newValue: unknown; userId: string | null; at: number },
) {
  stmts(sqlite).insertAudit.run(
    e.id,
    e.listId,
    e.action,
    e.workshopId,
    e.modName,
    e.oldValue == null ? null : JSON.stringify(e.oldValue),
    e.newValue == null ? null : JSON.stringify(e.newValue),
    e.userId,
    e.at,
  );
}

export const auditEntries = (sqlite: Database, listId: string, limit: number) => stmts(sqlite).audit.all(listId, limit) as AuditRow[];
export const auditEntry = (sqlite: Database, listId: string, entryId: string) =>
  stmts(sqlite).auditOne.get(entryId, listId) as AuditRow | null;
export const markReverted = (sqlite: Database, entryId: string) => stmts(sqlite).markReverted.run(entryId);

export const listSummary = (sqlite: Database, listId: string) => stmts(sqlite).summaryOne.get(listId) as ListSummaryRow | null;

export function publicLists(sqlite: Database, q: { search?: string; communityId?: string; limit: number; offset: number }) {
  const search = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  return stmts(sqlite).publicLists.all({ search, community: q.communityId ?? null, limit: q.limit, offset: q.offset }) as ListSummaryRow[];
}

export const myLists = (sqlite: Database, userId: string) => stmts(sqlite).mine.all({ uid: userId }) as ListSummaryRow[];
export const pinnedLists = (sqlite: Database, userId: string) => stmts(sqlite).pins.all(userId) as ListSummaryRow[];
export const tagsOfList = (sqlite: Database, listId: string) =>
  stmts(sqlite).tagsOfList.all(listId) as { id: string; name: string; color: string }[];

// ---- lists ----------------------------------------------------------------------------------

export function insertList(
  sqlite: Database,
  r: { id: string; ownerId: string; name: string; description: string; isPublic: boolean; shareToken: string; suggestionToken: string; maxModAgeDays: number | null; at: number },
) {
  stmts(sqlite).insertList.run(r.id, r.ownerId, r.name, r.description, r.isPublic ? 1 : 0, r.shareToken, r.suggestionToken, r.maxModAgeDays, r.at, r.at);
}

/** Whether the list exists. */
export const listExists = (sqlite: Database, listId: string) => sqlite.query("SELECT 1 FROM lists WHERE id = ?").get(listId) !== null;

/** The list's id and age rule, null when the list does not exist. */
export const listAgeRule = (sqlite: Database, listId: string) =>
  stmts(sqlite).ageRule.get(listId) as { id: string; max_mod_age_days: number | null } | null;

/** Sets the given fields (only those present) and `updated_at`. */
export function updateList(
  sqlite: Database,
  listId: string,
  f: { name?: string; description?: string; is_public?: boolean; max_mod_age_days?: number | null },
  at: number,
) {
  const sets: string[] = [];
  const vals: (string | number | null)[] = [];
  if (f.name !== undefined) sets.push("name = ?"), vals.push(f.name);
  if (f.description !== undefined) sets.push("description = ?"), vals.push(f.description);
  if (f.is_public !== undefined) sets.push("is_public = ?"), vals.push(f.is_public ? 1 : 0);
  if (f.max_mod_age_days !== undefined) sets.push("max_mod_age_days = ?"), vals.push(f.max_mod_age_days);
  sets.push("updated_at = ?");
  vals.push(at);
  sqlite.query(`UPDATE lists SET ${sets.join(", ")} WHERE id = ?`).run(...vals, listId);
}

export const deleteList = (sqlite: Database, listId: string) => stmts(sqlite).deleteList.run(listId);

/** Removes the pin; returns whether there was one. */
export const deletePin = (sqlite: Database, userId: string, listId: string) => stmts(sqlite).deletePin.run(userId, listId).changes > 0;
export const insertPin = (sqlite: Database, userId: string, listId: string, at: number) => stmts(sqlite).insertPin.run(userId, listId, at);

/** Whether the user owns or is a member of the community. */
export const isCommunityMember = (sqlite: Database, communityId: string, userId: string) =>
  stmts(sqlite).communityOfMember.get({ c: communityId, u: userId }) !== null;
export const setCommunity = (sqlite: Database, listId: string, communityId: string | null, at: number) =>
  stmts(sqlite).setCommunity.run(communityId, at, listId);

export const isFolderOwner = (sqlite: Database, folderId: string, userId: string) => stmts(sqlite).folderOfOwner.get(folderId, userId) !== null;
export const setFolder = (sqlite: Database, listId: string, folderId: string | null, at: number) => stmts(sqlite).setFolder.run(folderId, at, listId);

export const setToken = (sqlite: Database, listId: string, which: "share_token" | "suggestion_token", token: string, at: number) =>
  stmts(sqlite)[which === "share_token" ? "setShareToken" : "setSuggestionToken"].run(token, at, listId);

/** Of the given (workshop id, version) pins, the workshop ids whose version the catalog has. */
export const pinsKnown = (sqlite: Database, pins: readonly (readonly [string, string])[]) =>
  (stmts(sqlite).pinsKnown.all(JSON.stringify(pins)) as { workshop_id: string }[]).map((r) => r.workshop_id);

// ---- snapshots ------------------------------------------------------------------------------

export const insertSnapshot = (sqlite: Database, row: SnapshotRow) => stmts(sqlite).insertSnapshot.run(row as any);
export const snapshotsOf = (sqlite: Database, listId: string) => stmts(sqlite).snapshots.all(listId) as SnapshotRow[];
export const snapshot = (sqlite: Database, listId: string, id: string) => stmts(sqlite).snapshot.get(id, listId) as SnapshotRow | null;
export const updateSnapshot = (sqlite: Database, r: Pick<SnapshotRow, "id" | "version_name" | "tag" | "notes" | "is_release">) =>
  stmts(sqlite).updateSnapshot.run(r.version_name, r.tag, r.notes, r.is_release, r.id);
export const deleteSnapshot = (sqlite: Database, id: string) => stmts(sqlite).deleteSnapshot.run(id);

// ---- access (access.ts) ------------------------------------------------------------------------

const ACCESS_SQL = `
SELECT l.id, l.owner_id, l.name, l.description, l.is_public, l.share_token, l.suggestion_token,
       l.require_deploy_approval, l.community_id, l.folder_id, l.max_mod_age_days, l.created_at, l.updated_at,
       EXISTS (SELECT 1 FROM list_owners o WHERE o.list_id = l.id AND o.user_id = $uid) AS co_owner,
       c.user_id IS NOT NULL AS collab, c.can_add AS c_add, c.can_remove AS c_remove, c.can_deploy AS c_deploy,
       g.n AS g_n, g.can_add AS g_add, g.can_remove AS g_remove, g.can_deploy AS g_deploy
FROM lists l
LEFT JOIN list_collaborators c ON c.list_id = l.id AND c.user_id = $uid
LEFT JOIN (
  SELECT lg.list_id, COUNT(*) AS n,
         MAX(COALESCE(lg.can_add, pg.can_add)) AS can_add,
         MAX(COALESCE(lg.can_remove, pg.can_remove)) AS can_remove,
         MAX(COALESCE(lg.can_deploy, pg.can_deploy)) AS can_deploy
  FROM list_groups lg
  JOIN permission_groups pg ON pg.id = lg.group_id
  JOIN group_members gm ON gm.group_id = lg.group_id AND gm.user_id = $uid
  WHERE lg.list_id = $id
  GROUP BY lg.list_id
) g ON g.list_id = l.id
WHERE l.id = $id`;

/** ACCESS_SQL prepared once per connection (held by the connection: db/statements.ts statementSet). */
const accessStmt = statementSet((sqlite) => sqlite.prepare(ACCESS_SQL));

/**
 * The list with what the caller (`uid`, "" for an anonymous one) holds on it: co-ownership, the
 * direct grant, the union of the group grants; null when the list does not exist.
 */
export const accessRow = (sqlite: Database, listId: string, uid: string) =>
  accessStmt(sqlite).get({ id: listId, uid }) as Record<string, any> | null;

// ---- the remembered server config (remembered-config.ts) ----------------------------------------

/** A row of list_server_configs: the document sealed whole (null for one stored before it was kept), the settings in clear. */
export type ServerConfigRow = {
  list_id: string;
  settings_json: string;
  secrets: string | null;
  has_mods_key: number;
  document: string | null;
  updated_by: string | null;
  updated_at: number;
};

export const serverConfigRow = (sqlite: Database, listId: string) =>
  sqlite
    .query("SELECT list_id, settings_json, secrets, has_mods_key, document, updated_by, updated_at FROM list_server_configs WHERE list_id = ?")
    .get(listId) as ServerConfigRow | null;

/** Stores (replaces) the list's config: the sealed document, the settings in clear beside it (secrets null). */
export const upsertServerConfig = (sqlite: Database, listId: string, settingsJson: string, hasModsKey: boolean, document: string, userId: string | null, at: number) =>
  sqlite
    .query(
      `INSERT INTO list_server_configs (list_id, settings_json, secrets, has_mods_key, document, updated_by, updated_at) VALUES (?, ?, NULL, ?, ?, ?, ?)
       ON CONFLICT(list_id) DO UPDATE SET settings_json = excluded.settings_json, secrets = NULL, has_mods_key = excluded.has_mods_key,
         document = excluded.document, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    )
    .run(listId, settingsJson, hasModsKey ? 1 : 0, document, userId, at);

/** Forgets the list's config; false when it had none. */
export const deleteServerConfig = (sqlite: Database, listId: string) => sqlite.query("DELETE FROM list_server_configs WHERE list_id = ?").run(listId).changes > 0;

/** Keeps the config as it was before the audited change `auditId` (`document` sealed, null: the list had none). */
export const insertServerConfigRevision = (sqlite: Database, auditId: string, listId: string, document: string | null, at: number) =>
  sqlite.query("INSERT INTO list_server_config_revisions (audit_id, list_id, document, created_at) VALUES (?, ?, ?, ?)").run(auditId, listId, document, at);

/** The revision kept for the audit entry, null when it kept none. */
export const serverConfigRevision = (sqlite: Database, auditId: string) =>
  sqlite.query("SELECT document FROM list_server_config_revisions WHERE audit_id = ?").get(auditId) as { document: string | null } | null;

/** The stored `game.modsRequiredByDefault` (1, 0, or null when unset or the list keeps no config). */
export const modsRequiredByDefaultSetting = (sqlite: Database, listId: string) =>
  (sqlite.query("SELECT settings_json ->> '$.game.modsRequiredByDefault' AS v FROM list_server_configs WHERE list_id = ?").get(listId) as { v: number | null } | null)?.v ?? null;

export const hasServerConfig = (sqlite: Database, listId: string) => sqlite.query("SELECT 1 FROM list_server_configs WHERE list_id = ?").get(listId) !== null;
