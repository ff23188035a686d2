// Admin calls: accounts (list, approve, disable, enable, role, delete, the audit) and jobs.
// The API refuses what it must (yourself, the last admin) with a 409 whose {error} the page shows.
import { api, get, qs } from "../app/api";
import type { Job } from "../app/types";
import type { AdminSearch } from "./admin.search";

/** An account as GET /admin/users answers it. */
export interface Account {
  id: string;
  email: string | null;
  display_name: string;
  role: "user" | "admin";
  is_approved: boolean;
  email_verified: boolean;
  state: "pending" | "active" | "disabled";
  last_login_at: string | null;
  created_at: string;
}

/** One line of GET /admin/audit: what an admin did to an account. */
export interface AuditEntry {
  id: string;
  action: "approve" | "disable" | "enable" | "delete" | "make_admin" | "unmake_admin";
  target_id: string;
  target: string;
  actor_id: string | null;
  actor_name: string | null;
  created_at: string;
}

export type AccountAction = "approve" | "disable" | "enable" | "make_admin" | "unmake_admin" | "delete";

export const listAccounts = (signal?: AbortSignal) => get<{ users: Account[] }>("/admin/users?limit=1000", signal).then((r) => r.users);
export const adminAudit = (signal?: AbortSignal) => get<AuditEntry[]>("/admin/audit?limit=20", signal);

export function actOn(id: string, action: AccountAction): Promise<unknown> {
  switch (action) {
    case "approve":
    case "disable":
    case "enable":
      return api("POST", `/admin/users/${id}/${action}`);
    case "make_admin":
    case "unmake_admin":
      return api("PUT", `/admin/users/${id}/role`, { body: { role: action === "make_admin" ? "admin" : "user" } });
    case "delete":
      return api("DELETE", `/admin/users/${id}`);
  }
}

export const listJobs = (status: AdminSearch["status"], type: string | undefined, signal?: AbortSignal) =>
  get<{ jobs: Job[] }>(`/jobs${qs({ status, type, limit: 100 })}`, signal).then((r) => r.jobs);
export const retryJob = (id: string) => api<unknown>("POST", `/jobs/${id}/retry`);
export const cancelJob = (id: string) => api<unknown>("DELETE", `/jobs/${id}`);
/** The buttons that start work now: a full crawl, a live scan, the roll-ups. */
export const startJob = (path: "/jobs/scraper" | "/jobs/game-servers" | "/jobs/rollups") =>
  api<{ job_id: string }>("POST", path, { body: path === "/jobs/scraper" ? { mode: "full" } : undefined });
