// Accounts run from the pages (docs/operations.md "Accounts"): a user changes their password
// (other sessions signed out); an admin lists accounts with their role, state and last sign-in,
// approves, disables, re-enables, deletes and makes or unmakes admins (never the last admin),
// each recorded in admin_audit.
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { toIso, toIsoOrNull } from "../../shared/time";
import { deleteAccount, hashPassword, verifyPassword } from "./service";

export type AccountState = "pending" | "active" | "disabled";
export type AdminAction = "approve" | "disable" | "enable" | "delete" | "make_admin" | "unmake_admin";

interface Row {
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
const stateOf = (r: Row): AccountState => (r.disabled_at !== null ? "disabled" : r.is_approved ? "active" : "pending");

export function accountView(r: Row) {
  return {
    id: r.id,
    email: r.email,
    display_name: r.display_name,
    role: r.role,
    is_approved: !!r.is_approved,
    email_verified: !!r.email_verified,
    state: stateOf(r),
    last_login_at: toIsoOrNull(r.last_login_at),
    created_at: toIso(r.created_at),
  };
}

export function listAccounts(deps: Pick<Deps, "sqlite">, o: { pending?: boolean; limit: number }) {
  const rows = deps.sqlite
    .query(`SELECT ${COLS} FROM users WHERE (?1 = 0 OR (is_approved = 0 AND disabled_at IS NULL)) ORDER BY created_at DESC, id DESC LIMIT ?2`)
    .all(o.pending ? 1 : 0, o.limit) as Row[];
  return rows.map(accountView);
}

function account(deps: Pick<Deps, "sqlite">, id: string): Row {
  const r = deps.sqlite.query(`SELECT ${COLS} FROM users WHERE id = ?`).get(id) as Row | null;
  if (!r) throw new AppError("user.not_found", "user not found");
  return r;
}

/** Admins that can act (approved, not disabled). */
const activeAdmins = (deps: Pick<Deps, "sqlite">) =>
  (deps.sqlite.query("SELECT count(*) AS n FROM users WHERE role = 'admin' AND is_approved = 1 AND disabled_at IS NULL").get() as { n: number }).n;

function audit(deps: Pick<Deps, "sqlite" | "clock">, actor: string, action: AdminAction, target: Row) {
  deps.sqlite
    .query("INSERT INTO admin_audit (id, actor_id, action, target_id, target_label, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .run(newId(), actor, action, target.id, `${target.display_name}${target.email ? ` <${target.email}>` : ""}`, deps.clock.now());
}

/** One admin action on an account, in one transaction with its audit record. */
export function adminAct(deps: Deps, actorId: string, targetId: string, action: AdminAction) {
  return deps.sqlite.transaction(() => {
    const r = account(deps, targetId);
    const now = deps.clock.now();
    const lastAdmin = r.role === "admin" && r.disabled_at === null && !!r.is_approved && activeAdmins(deps) <= 1;
    const set = (sql: string, ...args: unknown[]) => deps.sqlite.query(`UPDATE users SET ${sql}, updated_at = ? WHERE id = ?`).run(...(args as any[]), now, r.id);
    switch (action) {
      case "approve":
        if (r.is_approved) return accountView(r);
        set("is_approved = 1");
        break;
      case "disable":
        if (r.id === actorId) throw new AppError("user.cannot_disable_self", "you cannot disable your own account");
        if (lastAdmin) throw new AppError("user.last_admin", "the last admin cannot be disabled: make another account admin first");
        if (r.disabled_at !== null) return accountView(r);
        set("disabled_at = ?", now);
        break;
      case "enable":
        if (r.disabled_at === null) return accountView(r);
        set("disabled_at = NULL");
        break;
      case "make_admin":
        if (r.role === "admin") return accountView(r);
        set("role = 'admin', is_approved = 1");
        break;
      case "unmake_admin":
        if (r.role !== "admin") return accountView(r);
        if (lastAdmin) throw new AppError("user.last_admin", "the last admin cannot stop being admin: make another account admin first");
        set("role = 'user'");
        break;
      case "delete":
        if (r.id === actorId) throw new AppError("user.cannot_delete_self", "delete your own account from your settings, not here");
        if (lastAdmin) throw new AppError("user.last_admin", "the last admin cannot be deleted: make another account admin first");
        audit(deps, actorId, action, r);
        deleteAccount(deps, r.id);
        return null;
    }
    audit(deps, actorId, action, r);
    return accountView(account(deps, r.id));
  })();
}

export function adminAuditLog(deps: Pick<Deps, "sqlite">, limit: number) {
  return (
    deps.sqlite
      .query(
        `SELECT a.id, a.action, a.target_id, a.target_label, a.created_at, a.actor_id, u.display_name AS actor_name
         FROM admin_audit a LEFT JOIN users u ON u.id = a.actor_id ORDER BY a.created_at DESC, a.id DESC LIMIT ?`,
      )
      .all(limit) as { id: string; action: AdminAction; target_id: string; target_label: string; created_at: number; actor_id: string | null; actor_name: string | null }[]
  ).map((e) => ({
    id: e.id,
    action: e.action,
    target_id: e.target_id,
    target: e.target_label,
    actor_id: e.actor_id,
    actor_name: e.actor_name,
    created_at: toIso(e.created_at),
  }));
}

/**
 * A user's new password, given with the current one: every token issued before now is refused
 * from now on (other sessions signed out); the caller gets a fresh token for this session.
 */
export async function changePassword(deps: Deps, userId: string, current: string, next: string): Promise<void> {
  const r = deps.sqlite.query("SELECT password_hash FROM users WHERE id = ?").get(userId) as { password_hash: string | null } | null;
  if (!r) throw new AppError("user.not_found", "user not found");
  if (!r.password_hash) throw new AppError("user.no_password", "this account signs in without a password (magic link or chat); it has none to change");
  if (!(await verifyPassword(current, r.password_hash))) throw new AppError("user.wrong_password", "current_password: not your current password");
  if (current === next) throw new AppError("request.invalid", "new_password: must differ from the current one");
  const hash = await hashPassword(next);
  const now = deps.clock.now();
  deps.sqlite.query("UPDATE users SET password_hash = ?, tokens_valid_from = ?, updated_at = ? WHERE id = ?").run(hash, Math.floor(now / 1000), now, userId);
}

/** Sign-in bookkeeping: refuses a disabled account; records the time. */
export function recordSignIn(deps: Pick<Deps, "sqlite" | "clock">, userId: string): void {
  const r = deps.sqlite.query("SELECT disabled_at FROM users WHERE id = ?").get(userId) as { disabled_at: number | null } | null;
  if (r?.disabled_at !== null && r?.disabled_at !== undefined) throw new AppError("user.disabled", "account disabled: ask an admin to enable it again");
  deps.sqlite.query("UPDATE users SET last_login_at = ? WHERE id = ?").run(deps.clock.now(), userId);
}
