// Response types of the API, inferred from the server's own zod schemas (types only).
import type { z } from "zod";
import type * as catalog from "../../features/catalog/model";

export type ModSummary = z.infer<typeof catalog.modSummary>;
export type ModList = z.infer<typeof catalog.modListResponse>;
export type Autocomplete = z.infer<typeof catalog.autocompleteEntry>;
export type ModDetail = z.infer<typeof catalog.modDetail>;
export type Deps = z.infer<typeof catalog.depsResponse>;
export type VersionEntry = z.infer<typeof catalog.versionEntry>;
export type Screenshot = z.infer<typeof catalog.screenshot>;
export type Items = z.infer<typeof catalog.itemsResponse>;
export type ItemVersion = z.infer<typeof catalog.itemVersionEntry>;
export type ItemDiff = z.infer<typeof catalog.diffResponse>;
export type Missions = z.infer<typeof catalog.missionsResponse>;
export type LiveStats = z.infer<typeof catalog.liveStats>;
export type GrowthPoint = z.infer<typeof catalog.growthPoint>;
export type ModServer = z.infer<typeof catalog.liveServerEntry>;
export interface Job {
  id: string;
  type: string;
  payload: unknown;
  status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
  attempts: number;
  max_attempts: number;
  run_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  progress: unknown;
  result: unknown;
  created_by: string | null;
  created_at: string;
}
export const MOD_SORTS = ["updated_desc", "name_asc", "name_desc", "size_desc"] as const;
export type ModSort = (typeof MOD_SORTS)[number];

export interface Me {
  id: string;
  email: string | null;
  display_name: string;
  role: "user" | "admin";
  is_approved: boolean;
}
export interface AuthOptions {
  registration: "open" | "approval" | "closed";
  chat_login: boolean;
  magic_link: boolean;
  /** No admin yet: the next account made becomes it. */
  first_account_admin: boolean;
}
export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}
export interface AdminUser {
  id: string;
  email: string | null;
  display_name: string;
  role: string;
  is_approved: boolean;
  email_verified: boolean;
  created_at: string;
}

/** GET /health: the last outcome of each outside source, and the workshop crawl under way. */
export interface SourceStatus {
  last_ok_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
}
export interface CrawlProgress {
  mode: "full" | "incremental";
  status: "queued" | "running";
  pages_done: number | null;
  pages_total: number | null;
  started_at: string | null;
}
export interface Health {
  status: "ok" | "error";
  version: string;
  db: "ok" | "error";
  sources?: { workshop: SourceStatus & { crawl: CrawlProgress | null }; live: SourceStatus; a2s: SourceStatus };
}
