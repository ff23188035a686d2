// The users feature's SQL statements written by hand (docs/architecture.md "Features and their
// public faces"): the accounts admins run (accounts.ts), a password change, sign-in bookkeeping,
// and the callers the auth plugin reads (callers.ts). Each is `sqlite.query`, compiled once per
// connection and kept by bun:sqlite under its text. (service.ts and routes.ts use drizzle.)
import type { Database } from "bun:sqlite";

export type AdminAction = "approve" | "disable" | "enable" | "delete" | "make_admin" | "unmake_admin";

/** A users row as the admin's account list reads it. */
export interface AccountRow {
  id: string;
  email: string | null;
  display_name: string;
  role: "user" | "admin";
  is_approved: number;
  email_verified: number;
  disabled_at: number | null;
  last_login_at: number | null;
  created_at: number;
}

const COLS = "id, email, display_name, role, is_approved, email_verified, disabled_at, last_login_at, created_at";

// ---- accounts (admin)

/** Accounts, newest first; `pending`: only those waiting for approval (not disabled). */
export const accountRows = (sqlite: Database, pending: boolean, limit: number) =>
  sqlite
    .query(`SELECT ${COLS} FROM users WHERE (?1 = 0 OR (is_approved = 0 AND disabled_at IS NULL)) ORDER BY created_at DESC, id DESC LIMIT ?2`)
    .all(pending ? 1 : 0, limit) as AccountRow[];

export const accountRow = (sqlite: Database, id: string) => sqlite.query(`SELECT ${COLS} FROM users WHERE id = ?`).get(id) as AccountRow | null;

/** Admins that can act (approved, not disabled). */
export const activeAdminCount = (sqlite: Database) =>
  (sqlite.query("SELECT count(*) AS n FROM users WHERE role = 'admin' AND is_approved = 1 AND disabled_at IS NULL").get() as { n: number }).n;

export const insertAdminAudit = (sqlite: Database, id: string, actorId: string, action: AdminAction, targetId: string, targetLabel: string, at: number) =>
  sqlite
    .query("INSERT INTO admin_audit (id, actor_id, action, target_id, target_label, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .run(id, actorId, action, targetId, targetLabel, at);

// The admin's changes of an account (each also moves updated_at).
export const approveAccount = (sqlite: Database, id: string, at: number) =>
  sqlite.query("UPDATE users SET is_approved = 1, updated_at = ? WHERE id = ?").run(at, id);
export const disableAccount = (sqlite: Database, id: string, at: number) =>
  sqlite.query("UPDATE users SET disabled_at = ?, updated_at = ? WHERE id = ?").run(at, at, id);
export const enableAccount = (sqlite: Database, id: string, at: number) =>
  sqlite.query("UPDATE users SET disabled_at = NULL, updated_at = ? WHERE id = ?").run(at, id);
export const makeAdmin = (sqlite: Database, id: string, at: number) =>
  sqlite.query("UPDATE users SET role = 'admin', is_approved = 1, updated_at = ? WHERE id = ?").run(at, id);
export const unmakeAdmin = (sqlite: Database, id: string, at: number) =>
  sqlite.query("UPDATE users SET role = 'user', updated_at = ? WHERE id = ?").run(at, id);

export interface AdminAuditRow {
  id: string;
  action: AdminAction;
  target_id: string;
  target_label: string;
  created_at: number;
  actor_id: string | null;
  actor_name: string | null;
}

/** The admin audit log, newest first, with the actor's name. */
export const adminAuditRows = (sqlite: Database, limit: number) =>
  sqlite
    .query(
      `SELECT a.id, a.action, a.target_id, a.target_label, a.created_at, a.actor_id, u.display_name AS actor_name
         FROM admin_audit a LEFT JOIN users u ON u.id = a.actor_id ORDER BY a.created_at DESC, a.id DESC LIMIT ?`,
    )
    .all(limit) as AdminAuditRow[];

// ---- password and sign-in

/** The account's password hash (null: it has none); null when there is no such account. */
export const passwordHashRow = (sqlite: Database, userId: string) =>
  sqlite.query("SELECT password_hash FROM users WHERE id = ?").get(userId) as { password_hash: string | null } | null;

/** A new password hash; tokens issued before `tokensValidFrom` (epoch seconds) are refused from now on. */
export const setPassword = (sqlite: Database, userId: string, hash: string, tokensValidFrom: number, at: number) =>
  sqlite.query("UPDATE users SET password_hash = ?, tokens_valid_from = ?, updated_at = ? WHERE id = ?").run(hash, tokensValidFrom, at, userId);

export const disabledAtRow = (sqlite: Database, userId: string) =>
  sqlite.query("SELECT disabled_at FROM users WHERE id = ?").get(userId) as { disabled_at: number | null } | null;

export const setLastLogin = (sqlite: Database, userId: string, at: number) => sqlite.query("UPDATE users SET last_login_at = ? WHERE id = ?").run(at, userId);

// ---- callers (callers.ts)

/** A caller as the auth plugin reads it: the user's columns (and, by key, the key's id and last use). */
export interface CallerUserRow {
  id: string;
  email: string | null;
  display_name: string;
  role: "user" | "admin";
  is_approved: number;
  disabled_at: number | null;
  tokens_valid_from: number | null;
}

const USER_COLS = "u.id, u.email, u.display_name, u.role, u.is_approved, u.disabled_at, u.tokens_valid_from";

export const callerById = (sqlite: Database, id: string) => sqlite.query(`SELECT ${USER_COLS} FROM users u WHERE u.id = ?`).get(id) as CallerUserRow | null;

export const callerByKeyHash = (sqlite: Database, hash: string) =>
  sqlite
    .query(`SELECT ${USER_COLS}, k.id AS key_id, k.last_used_at FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ?`)
    .get(hash) as (CallerUserRow & { key_id: string; last_used_at: number | null }) | null;

export const setKeyLastUsed = (sqlite: Database, keyId: string, at: number) => sqlite.query("UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(at, keyId);
