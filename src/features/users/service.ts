import { eq, sql } from "drizzle-orm";
import type { Deps } from "../../deps";
import { users, apiKeys } from "./tables";
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
  return !!deps.db.select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1).get();
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
        const first = !!u.firstAccountAdmin && !tx.select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1).get();
        tx.insert(users)
          .values({
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
          })
          .run();
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
  return deps.db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get() ?? null;
}

/** The first admin on an empty database, from LOADOUT_ADMIN_EMAIL / LOADOUT_ADMIN_PASSWORD. */
export async function ensureBootstrapAdmin(deps: Deps): Promise<string | null> {
  const { LOADOUT_ADMIN_EMAIL: email, LOADOUT_ADMIN_PASSWORD: password } = deps.config;
  if (!email || !password) return null;
  const count = deps.db.select({ n: sql<number>`count(*)` }).from(users).get()!.n;
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
  deps.db.insert(apiKeys).values(row).run();
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
      tx.delete(users).where(eq(users.id, userId)).run();
    },
    { behavior: "immediate" },
  );
}
