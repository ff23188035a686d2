import type { Deps } from "../../deps";
import * as repo from "./repository";
import { newId, randomToken, sha256Hex } from "../../shared/ids";
import { AppError } from "../../shared/errors";

export const hashPassword = (pw: string) => Bun.password.hash(pw, { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 });
export const verifyPassword = (pw: string, hash: string) => Bun.password.verify(pw, hash);

export interface NewUser {
  email: string | null;
  password?: string;
  display_name: string;
  role?: "user" | "admin";
  is_approved?: boolean;
  email_verified?: boolean;
  discord_id?: string | null;
  /** Self-made accounts (register, magic link, chat login): the first one on an instance with no
   *  admin becomes its admin, approved, so a fresh install needs no command line. */
  firstAccountAdmin?: boolean;
}

/** Whether the instance has an admin (the first self-made account becomes one while it has none). */
export function hasAdmin(deps: Deps): boolean {
  return !!repo.anyAdmin(deps.db);
}

/** Whether a new account is approved at once under LOADOUT_REGISTRATION. Throws 403 when closed. */
export function approvalForNewAccount(deps: Deps): boolean {
  const mode = deps.config.LOADOUT_REGISTRATION;
  if (mode === "closed") throw new AppError("user.registration_closed", "registration closed");
  return mode === "open";
}

export async function createUser(deps: Deps, u: NewUser): Promise<string> {
  const email = u.email?.trim().toLowerCase() ?? null;
  const password_hash = u.password ? await hashPassword(u.password) : null;
  const id = newId();
  const now = deps.clock.now();
  try {
    // One synchronous transaction: the "no admin yet" check and the insert cannot interleave with
    // another registration, so two first accounts at once make one admin.
    deps.db.transaction(
      (tx) => {
        const first = !!u.firstAccountAdmin && !repo.anyAdmin(tx);
        repo.insertUser(tx, {
          id,
          email,
          email_verified: u.email_verified ?? false,
          display_name: u.display_name.trim(),
          password_hash,
          role: first ? "admin" : (u.role ?? "user"),
          is_approved: first ? true : (u.is_approved ?? false),
          discord_id: u.discord_id ?? null,
          created_at: now,
          updated_at: now,
        });
        if (first) deps.log.info("the first account on this instance is its admin", { user_id: id });
      },
      { behavior: "immediate" },
    );
  } catch (e) {
    if (String(e).includes("UNIQUE")) throw new AppError("user.email_taken", "email already registered");
    throw e;
  }
  return id;
}

export function findUserByEmail(deps: Deps, email: string) {
  return repo.userByEmail(deps.db, email.trim().toLowerCase());
}

/** The account's row (every column), or null. */
export function findUserById(deps: Deps, id: string) {
  return repo.userRowById(deps.db, id);
}

/** The account signed in with this chat (Discord) id, or null. */
export function findUserByDiscordId(deps: Deps, discordId: string) {
  return repo.userByDiscordId(deps.db, discordId);
}

/** Links a chat (Discord) id to the account. */
export function linkDiscordId(deps: Deps, userId: string, discordId: string) {
  repo.setDiscordId(deps.db, userId, discordId, deps.clock.now());
}

/** Marks the account's e-mail address verified. */
export function markEmailVerified(deps: Deps, userId: string) {
  repo.setEmailVerified(deps.db, userId, deps.clock.now());
}

/** Stores a single-use token (hashed) and returns the clear token for the e-mail link. */
export function createEmailToken(deps: Deps, kind: "magic" | "email_verify", mail: string, userId: string | null, ttl: number) {
  const token = randomToken(32);
  const now = deps.clock.now();
  repo.insertAuthToken(deps.db, { id: newId(), kind, token_hash: sha256Hex(token), email: mail, user_id: userId, expires_at: now + ttl, created_at: now });
  return token;
}

/** Consumes a single-use token: unknown, used or expired → 401. */
export function consumeEmailToken(deps: Deps, kind: "magic" | "email_verify", token: string) {
  const now = deps.clock.now();
  return deps.db.transaction(
    (tx) => {
      const row = repo.unusedAuthToken(tx, sha256Hex(token), kind);
      if (!row || row.expires_at < now) throw new AppError("auth.token_invalid", "invalid or expired token");
      repo.markAuthTokenUsed(tx, row.id, now);
      return row;
    },
    { behavior: "immediate" },
  );
}

/** The first admin on an empty database, from LOADOUT_ADMIN_EMAIL / LOADOUT_ADMIN_PASSWORD. */
export async function ensureBootstrapAdmin(deps: Deps): Promise<string | null> {
  const { LOADOUT_ADMIN_EMAIL: email, LOADOUT_ADMIN_PASSWORD: password } = deps.config;
  if (!email || !password) return null;
  const count = repo.userCount(deps.db);
  if (count > 0) return null;
  const id = await createUser(deps, {
    email,
    password,
    display_name: email.split("@")[0]!,
    role: "admin",
    is_approved: true,
    email_verified: true,
  });
  deps.log.info("created the first admin from LOADOUT_ADMIN_EMAIL", { user_id: id });
  return id;
}

/** Creates an API key: `lo_` + 32 random bytes base64url, only the SHA-256 is stored. */
export function createApiKey(deps: Deps, userId: string, name: string) {
  const key = "lo_" + randomToken(32);
  const row = {
    id: newId(),
    user_id: userId,
    name,
    prefix: key.slice(0, 10),
    key_hash: sha256Hex(key),
    created_at: deps.clock.now(),
  };
  repo.insertApiKey(deps.db, row);
  return { id: row.id, name, key, prefix: row.prefix, created_at: row.created_at };
}

/**
 * Deletes an account and every row it owns, in one transaction. Owned rows (lists and what
 * hangs off them, keys, groups, webhooks, notifications, servers and credentials, ...) go by
 * ON DELETE CASCADE from users; foreign keys are on for every connection.
 */
export function deleteAccount(deps: Deps, userId: string) {
  deps.db.transaction(
    (tx) => {
      repo.deleteUser(tx, userId);
    },
    { behavior: "immediate" },
  );
}
