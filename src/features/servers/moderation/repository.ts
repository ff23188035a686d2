// The queries of moderation (docs/rcon.md "Moderation"): moderators, the community's bans and the
// log of every act.
import type { Database } from "bun:sqlite";

export interface BanRow {
  id: string;
  owner_id: string;
  server_id: string;
  scope: "server" | "all";
  uid: string;
  name: string;
  reason: string;
  duration_s: number;
  expires_at: number | null;
  created_by: string | null;
  created_at: number;
  lifted_at: number | null;
  lifted_by: string | null;
  expired_at: number | null;
}

export interface LogRow {
  id: string;
  server_id: string;
  action: "kick" | "ban" | "unban" | "reapplied" | "expired";
  actor_id: string | null;
  actor_name: string | null;
  ban_id: string | null;
  uid: string | null;
  name: string | null;
  reason: string | null;
  duration_s: number | null;
  result: string;
  created_at: number;
}

// ---- moderators

export const moderators = (sqlite: Database, serverId: string) =>
  sqlite
    .query(
      `SELECT m.user_id, u.display_name, m.added_at FROM server_moderators m JOIN users u ON u.id = m.user_id
       WHERE m.server_id = ? ORDER BY m.added_at, m.user_id`,
    )
    .all(serverId) as { user_id: string; display_name: string; added_at: number }[];

/** The servers a user moderates, by name. */
export const moderatedBy = (sqlite: Database, userId: string) =>
  sqlite
    .query("SELECT s.id, s.name FROM server_moderators m JOIN servers s ON s.id = m.server_id WHERE m.user_id = ? ORDER BY s.name COLLATE NOCASE, s.id")
    .all(userId) as { id: string; name: string }[];

/** Whether the user moderates the server. */
export const isModerator = (sqlite: Database, serverId: string, userId: string) =>
  sqlite.query("SELECT 1 FROM server_moderators WHERE server_id = ? AND user_id = ?").get(serverId, userId) !== null;

export const moderatorIds = (sqlite: Database, serverId: string) =>
  (sqlite.query("SELECT user_id FROM server_moderators WHERE server_id = ?").all(serverId) as { user_id: string }[]).map((r) => r.user_id);

export const addModerator = (sqlite: Database, serverId: string, userId: string, by: string, at: number) =>
  sqlite.query("INSERT INTO server_moderators (server_id, user_id, added_by, added_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING").run(serverId, userId, by, at).changes > 0;

export const removeModerator = (sqlite: Database, serverId: string, userId: string) =>
  sqlite.query("DELETE FROM server_moderators WHERE server_id = ? AND user_id = ?").run(serverId, userId).changes > 0;

// ---- bans

const BAN_COLS = "id, owner_id, server_id, scope, uid, name, reason, duration_s, expires_at, created_by, created_at, lifted_at, lifted_by, expired_at";

export function insertBan(sqlite: Database, b: BanRow): void {
  sqlite
    .query(
      `INSERT INTO server_bans (${BAN_COLS}) VALUES ($id, $owner_id, $server_id, $scope, $uid, $name, $reason, $duration_s, $expires_at, $created_by, $created_at, $lifted_at, $lifted_by, $expired_at)`,
    )
    .run(Object.fromEntries(Object.entries(b).map(([k, v]) => [`$${k}`, v])) as any);
}

export const getBan = (sqlite: Database, id: string) => sqlite.query(`SELECT ${BAN_COLS} FROM server_bans WHERE id = ?`).get(id) as BanRow | null;

/** The bans that cover a server: given on it, or of scope all by its owner. `active`: not lifted, not run out at `now`. */
export function bansCovering(sqlite: Database, server: { id: string; owner_id: string }, o: { active?: boolean; now: number }): BanRow[] {
  const rows = sqlite
    .query(`SELECT ${BAN_COLS} FROM server_bans WHERE owner_id = ? AND (server_id = ? OR scope = 'all') ORDER BY created_at DESC, id DESC`)
    .all(server.owner_id, server.id) as BanRow[];
  if (o.active === undefined) return rows;
  return rows.filter((b) => isActive(b, o.now) === o.active);
}

export const isActive = (b: BanRow, now: number) => b.lifted_at === null && (b.expires_at === null || b.expires_at > now);

/** Every ban the caller may see: on servers they own or moderate. */
export function bansVisibleTo(sqlite: Database, userId: string): BanRow[] {
  return sqlite
    .query(
      `SELECT ${BAN_COLS} FROM server_bans b WHERE b.owner_id = ?1
         OR EXISTS (SELECT 1 FROM server_moderators m JOIN servers s ON s.id = m.server_id
                    WHERE m.user_id = ?1 AND s.owner_id = b.owner_id AND (b.scope = 'all' OR b.server_id = s.id))
       ORDER BY b.created_at DESC, b.id DESC LIMIT 1000`,
    )
    .all(userId) as BanRow[];
}

export const liftBan = (sqlite: Database, id: string, by: string | null, at: number) =>
  sqlite.query("UPDATE server_bans SET lifted_at = ?, lifted_by = ? WHERE id = ? AND lifted_at IS NULL").run(at, by, id).changes > 0;

export const markExpired = (sqlite: Database, id: string, at: number) =>
  sqlite.query("UPDATE server_bans SET expired_at = ? WHERE id = ? AND expired_at IS NULL").run(at, id).changes > 0;

/** The owner's servers a ban of scope all covers: every one with RCON settings. */
export const ownerRconServers = (sqlite: Database, ownerId: string) =>
  sqlite.query("SELECT id FROM servers WHERE owner_id = ? AND rcon_host IS NOT NULL ORDER BY created_at, id").all(ownerId) as { id: string }[];

// ---- the log

export function log(sqlite: Database, e: Omit<LogRow, "actor_name">): void {
  sqlite
    .query(
      `INSERT INTO moderation_log (id, server_id, action, actor_id, ban_id, uid, name, reason, duration_s, result, created_at)
       VALUES ($id, $server_id, $action, $actor_id, $ban_id, $uid, $name, $reason, $duration_s, $result, $created_at)`,
    )
    .run(Object.fromEntries(Object.entries(e).map(([k, v]) => [`$${k}`, v])) as any);
}

/** When a ban was last issued on a server (its latest `ban` or `reapplied` entry), or null. */
export const lastIssuedAt = (sqlite: Database, banId: string, serverId: string) =>
  (sqlite.query("SELECT max(created_at) AS at FROM moderation_log WHERE ban_id = ? AND server_id = ? AND action IN ('ban', 'reapplied')").get(banId, serverId) as { at: number | null }).at;

export const logOf = (sqlite: Database, serverId: string, limit: number) =>
  sqlite
    .query(
      `SELECT l.id, l.server_id, l.action, l.actor_id, u.display_name AS actor_name, l.ban_id, l.uid, l.name, l.reason, l.duration_s, l.result, l.created_at
       FROM moderation_log l LEFT JOIN users u ON u.id = l.actor_id WHERE l.server_id = ? ORDER BY l.created_at DESC, l.id DESC LIMIT ?`,
    )
    .all(serverId, limit) as LogRow[];

export const userByEmail = (sqlite: Database, email: string) =>
  sqlite.query("SELECT id FROM users WHERE lower(email) = lower(?)").get(email) as { id: string } | null;
export const userExists = (sqlite: Database, id: string) => sqlite.query("SELECT 1 FROM users WHERE id = ?").get(id) !== null;
export const displayName = (sqlite: Database, id: string | null) =>
  id ? ((sqlite.query("SELECT display_name FROM users WHERE id = ?").get(id) as { display_name: string } | null)?.display_name ?? null) : null;
