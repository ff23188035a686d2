// Accounts run from the pages (docs/operations.md "Accounts"): a user changes their password
// (other sessions signed out); an admin lists accounts with their role, state and last sign-in,
// approves, disables, re-enables, deletes and makes or unmakes admins (never the last admin),
// each recorded in admin_audit.
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { toIso, toIsoOrNull } from "../../shared/time";
import * as repo from "./repository";
import type { AccountRow, AdminAction } from "./repository";
import { deleteAccount, hashPassword, verifyPassword } from "./service";

export type AccountState = "pending" | "active" | "disabled";

const stateOf = (r: AccountRow): AccountState => (r.disabled_at !== null ? "disabled" : r.is_approved ? "active" : "pending");

export function accountView(r: AccountRow) {
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
  return repo.accountRows(deps.sqlite, !!o.pending, o.limit).map(accountView);
}

function account(deps: Pick<Deps, "sqlite">, id: string): AccountRow {
  const r = repo.accountRow(deps.sqlite, id);
  if (!r) throw new AppError("user.not_found", "user not found");
  return r;
}

function audit(deps: Pick<Deps, "sqlite" | "clock">, actor: string, action: AdminAction, target: AccountRow) {
  repo.insertAdminAudit(deps.sqlite, newId(), actor, action, target.id, `${target.display_name}${target.email ? ` <${target.email}>` : ""}`, deps.clock.now());
}

/** One admin action on an account, in one transaction with its audit record. */
export function adminAct(deps: Deps, actorId: string, targetId: string, action: AdminAction) {
  return deps.sqlite.transaction(() => {
    const r = account(deps, targetId);
    const now = deps.clock.now();
    const lastAdmin = r.role === "admin" && r.disabled_at === null && !!r.is_approved && repo.activeAdminCount(deps.sqlite) <= 1;
    switch (action) {
      case "approve":
        if (r.is_approved) return accountView(r);
        repo.approveAccount(deps.sqlite, r.id, now);
        break;
      case "disable":
        if (r.id === actorId) throw new AppError("user.cannot_disable_self", "you cannot disable your own account");
        if (lastAdmin) throw new AppError("user.last_admin", "the last admin cannot be disabled: make another account admin first");
        if (r.disabled_at !== null) return accountView(r);
        repo.disableAccount(deps.sqlite, r.id, now);
        break;
      case "enable":
        if (r.disabled_at === null) return accountView(r);
        repo.enableAccount(deps.sqlite, r.id, now);
        break;
      case "make_admin":
        if (r.role === "admin") return accountView(r);
        repo.makeAdmin(deps.sqlite, r.id, now);
        break;
      case "unmake_admin":
        if (r.role !== "admin") return accountView(r);
        if (lastAdmin) throw new AppError("user.last_admin", "the last admin cannot stop being admin: make another account admin first");
        repo.unmakeAdmin(deps.sqlite, r.id, now);
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
  return repo.adminAuditRows(deps.sqlite, limit).map((e) => ({
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
  const r = repo.passwordHashRow(deps.sqlite, userId);
  if (!r) throw new AppError("user.not_found", "user not found");
  if (!r.password_hash) throw new AppError("user.no_password", "this account signs in without a password (magic link or chat); it has none to change");
  if (!(await verifyPassword(current, r.password_hash))) throw new AppError("user.wrong_password", "current_password: not your current password");
  if (current === next) throw new AppError("request.invalid", "new_password: must differ from the current one");
  const hash = await hashPassword(next);
  const now = deps.clock.now();
  repo.setPassword(deps.sqlite, userId, hash, Math.floor(now / 1000), now);
}

/** Sign-in bookkeeping: refuses a disabled account; records the time. */
export function recordSignIn(deps: Pick<Deps, "sqlite" | "clock">, userId: string): void {
  const r = repo.disabledAtRow(deps.sqlite, userId);
  if (r?.disabled_at !== null && r?.disabled_at !== undefined) throw new AppError("user.disabled", "account disabled: ask an admin to enable it again");
  repo.setLastLogin(deps.sqlite, userId, deps.clock.now());
}
