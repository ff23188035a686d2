// Response types of the API, inferred from the server's own zod schemas (types only).
import type { z } from "zod";
import type * as catalog from "../../features/catalog/model";
import type * as live from "../../features/live/model";

export type ModSummary = z.infer<typeof catalog.modSummary>;
export type ModList = z.infer<typeof catalog.modListResponse>;
export type Autocomplete = z.infer<typeof catalog.autocompleteEntry>;
export type ModDetail = z.infer<typeof catalog.modDetail>;
/** A mod's dependencies as GET /mods/:id/deps answers them (the flat list and the tree). */
export type ModDependencies = z.infer<typeof catalog.depsResponse>;
export type VersionEntry = z.infer<typeof catalog.versionEntry>;
export type Screenshot = z.infer<typeof catalog.screenshot>;
export type Items = z.infer<typeof catalog.itemsResponse>;
export type ItemVersion = z.infer<typeof catalog.itemVersionEntry>;
export type ItemDiff = z.infer<typeof catalog.diffResponse>;
export type Missions = z.infer<typeof catalog.missionsResponse>;
export type LiveStats = z.infer<typeof catalog.liveStats>;
export type GrowthPoint = z.infer<typeof catalog.growthPoint>;
/** One entry of GET /mods/:id/servers (answered by the live feature: the live server list's entry). */
export type ModServer = z.infer<typeof live.serverEntryBase>;
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
/**
 * The server's names (a type from its model) listed once for the page, in the order it shows
 * them: the compiler fails when one is missing or is no name of the server's (the bundle takes
 * no code of the server, so the list cannot be imported itself).
 */
export const namesOf =
  <T extends string>() =>
  <const V extends readonly T[]>(values: V & ([T] extends [V[number]] ? unknown : { missing: Exclude<T, V[number]> })) =>
    values;

/** GET /mods's sort names (catalog/model.ts MOD_SORTS), the default first. */
export type ModSort = (typeof catalog.MOD_SORTS)[number];
export const MOD_SORTS = namesOf<ModSort>()(["updated_desc", "name_asc", "name_desc", "size_desc"]);

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
