import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Lower-cased. Null only for accounts created by chat OAuth without an e-mail. */
    email: text("email"),
    email_verified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
    display_name: text("display_name").notNull(),
    password_hash: text("password_hash"),
    role: text("role", { enum: ["user", "admin"] }).notNull().default("user"),
    is_approved: integer("is_approved", { mode: "boolean" }).notNull().default(false),
    discord_id: text("discord_id"),
    created_at: integer("created_at").notNull(),
    updated_at: integer("updated_at").notNull(),
    /** An admin disabled the account: it cannot sign in, and its tokens and keys are refused. */
    disabled_at: integer("disabled_at"),
    /** Tokens issued before this (epoch seconds) are refused: set by a password change (other sessions signed out). */
    tokens_valid_from: integer("tokens_valid_from"),
    last_login_at: integer("last_login_at"),
  },
  (t) => [
    uniqueIndex("users_email_idx").on(t.email),
    uniqueIndex("users_discord_idx").on(t.discord_id),
    index("users_display_name_idx").on(t.display_name),
    index("users_pending_idx").on(t.is_approved),
  ],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    key_hash: text("key_hash").notNull(),
    created_at: integer("created_at").notNull(),
    last_used_at: integer("last_used_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_idx").on(t.key_hash), index("api_keys_user_idx").on(t.user_id)],
);

/** Single-use tokens sent by e-mail (magic link, e-mail verification). Only the SHA-256 is kept. */
export const authTokens = sqliteTable(
  "auth_tokens",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["magic", "email_verify"] }).notNull(),
    token_hash: text("token_hash").notNull(),
    email: text("email").notNull(),
    user_id: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    expires_at: integer("expires_at").notNull(),
    used_at: integer("used_at"),
    created_at: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("auth_tokens_hash_idx").on(t.token_hash)],
);

/** What admins did to accounts (approve, disable, enable, delete, make or unmake admin): who, to whom, when. */
export const adminAudit = sqliteTable(
  "admin_audit",
  {
    id: text("id").primaryKey(),
    actor_id: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action", { enum: ["approve", "disable", "enable", "delete", "make_admin", "unmake_admin"] }).notNull(),
    /** The account acted on (kept as text: a deleted account's id stays in the record). */
    target_id: text("target_id").notNull(),
    /** The account's e-mail and name at the time (a deleted account is still named). */
    target_label: text("target_label").notNull(),
    created_at: integer("created_at").notNull(),
  },
  (t) => [index("admin_audit_created_idx").on(t.created_at)],
);
