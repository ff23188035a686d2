// The users feature's statements (docs/architecture.md "Features and their public faces"): the
// accounts admins run (accounts.ts), a password change, sign-in bookkeeping and the callers the
// auth plugin reads (callers.ts), each `sqlite.query`, compiled once per connection and kept by
// bun:sqlite under its text; and, through drizzle's query builder on a handle (the database or a
// transaction), accounts made, found and deleted, API keys, the e-mail tokens (auth_tokens) and
// the account changes sign-in makes (service.ts, routes.ts; auth reaches them through index.ts).
import type { Database } from "bun:sqlite";
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { apiKeys, authTokens, users } from "./tables";

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

// ---- accounts, API keys and e-mail tokens (drizzle; service.ts, routes.ts)

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type AuthTokenRow = typeof authTokens.$inferSelect;

/** An admin's id, if the instance has one. */
export const anyAdmin = (db: Tx) => db.select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1).get();

export const insertUser = (db: Tx, row: NewUserRow) => db.insert(users).values(row).run();

/** `email` as stored (lower-cased). */
export const userByEmail = (db: Tx, email: string): UserRow | null => db.select().from(users).where(eq(users.email, email)).get() ?? null;

export const userRowById = (db: Tx, id: string): UserRow | null => db.select().from(users).where(eq(users.id, id)).get() ?? null;

export const userByDiscordId = (db: Tx, discordId: string): UserRow | null => db.select().from(users).where(eq(users.discord_id, discordId)).get() ?? null;

export const userCount = (db: Tx) => db.select({ n: sql<number>`count(*)` }).from(users).get()!.n;

/** Deletes the account; what it owns goes by ON DELETE CASCADE. */
export const deleteUser = (db: Tx, userId: string) => db.delete(users).where(eq(users.id, userId)).run();

export const setDisplayName = (db: Tx, userId: string, displayName: string, at: number) =>
  db.update(users).set({ display_name: displayName, updated_at: at }).where(eq(users.id, userId)).run();

export const setEmailVerified = (db: Tx, userId: string, at: number) => db.update(users).set({ email_verified: true, updated_at: at }).where(eq(users.id, userId)).run();

export const setDiscordId = (db: Tx, userId: string, discordId: string, at: number) =>
  db.update(users).set({ discord_id: discordId, updated_at: at }).where(eq(users.id, userId)).run();

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => "\\" + c);

/** Up to 20 accounts whose display name holds `q` (LIKE, escaped) or whose e-mail is `q`, by name. */
export function searchUsers(db: Tx, q: string): { id: string; display_name: string }[] {
  const pattern = `%${escapeLike(q)}%`;
  return db
    .select({ id: users.id, display_name: users.display_name })
    .from(users)
    .where(or(sql`${users.display_name} LIKE ${pattern} ESCAPE '\\'`, eq(users.email, q.toLowerCase())))
    .orderBy(users.display_name)
    .limit(20)
    .all();
}

export const insertApiKey = (db: Tx, row: typeof apiKeys.$inferInsert) => db.insert(apiKeys).values(row).run();

/** The user's API keys, newest first. */
export const apiKeysOf = (db: Tx, userId: string): ApiKeyRow[] => db.select().from(apiKeys).where(eq(apiKeys.user_id, userId)).orderBy(desc(apiKeys.created_at)).all();

/** Deletes the user's key; false when the user has no such key. */
export const deleteApiKey = (db: Tx, userId: string, keyId: string) =>
  db.delete(apiKeys).where(and(eq(apiKeys.id, keyId), eq(apiKeys.user_id, userId))).returning({ id: apiKeys.id }).all().length > 0;

export const insertAuthToken = (db: Tx, row: typeof authTokens.$inferInsert) => db.insert(authTokens).values(row).run();

/** The unused token of this kind with this hash (expired or not). */
export const unusedAuthToken = (db: Tx, tokenHash: string, kind: AuthTokenRow["kind"]): AuthTokenRow | undefined =>
  db
    .select()
    .from(authTokens)
    .where(and(eq(authTokens.token_hash, tokenHash), eq(authTokens.kind, kind), isNull(authTokens.used_at)))
    .get();

export const markAuthTokenUsed = (db: Tx, id: string, at: number) => db.update(authTokens).set({ used_at: at }).where(eq(authTokens.id, id)).run();
