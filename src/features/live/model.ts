// Request and response schemas of "Live game servers" and "Global statistics".
import { z } from "zod";
import { WORKSHOP_ID_RE, pageQuery, queryBool } from "../../shared/schemas";

/** The sort names of GET /servers (`sort_by`). */
export const SERVER_SORTS = [
  "recent",
  "popularity",
  "players_desc",
  "players_asc",
  "mod_size_desc",
  "mod_size_asc",
  "name_asc",
  "name_desc",
] as const;

export const STAT_DAYS = [1, 7, 14, 30, 90, 180, 365] as const;

const int = (what = "must be an integer") => z.coerce.number({ error: what }).int({ message: what });

export const daysQuery = z.object({
  days: int()
    .refine((d) => (STAT_DAYS as readonly number[]).includes(d), { message: "must be one of 1, 7, 14, 30, 90, 180, 365" })
    .default(7),
});

// Comma-separated values; Elysia may already have split "a,b" (or repeated keys) into an array.
const csv = z
  .union([z.string(), z.array(z.string())], { error: "must be a comma-separated list" })
  .transform((v) =>
    (Array.isArray(v) ? v : [v])
      .flatMap((p) => p.split(","))
      .map((s) => s.trim())
      .filter((s) => s !== ""),
  );

export const listQuery = z.object({
  limit: int().min(1, { message: "must be 1 to 200" }).max(200, { message: "must be 1 to 200" }).default(100),
  offset: int().min(0, { message: "must be at least 0" }).default(0),
  // Elysia splits a value containing a comma (even %2C) into an array: join it back.
  search: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v.join(",") : v))
    .pipe(z.string().max(200, { message: "must be at most 200 characters" }))
    .optional(),
  sort_by: z.enum(SERVER_SORTS, { message: `must be one of ${SERVER_SORTS.join(", ")}` }).default("players_desc"),
  mod_ids: csv
    .transform((ids) => ids.map((s) => s.toUpperCase()))
    .refine((ids) => ids.every((s) => WORKSHOP_ID_RE.test(s)), { message: "invalid workshop ID" })
    .refine((ids) => ids.length <= 50, { message: "at most 50 mods" })
    .optional(),
  min_players: int().min(0, { message: "must be at least 0" }).optional(),
  max_mod_size: int().min(0, { message: "must be at least 0" }).optional(),
  official: queryBool.optional(),
  password_protected: queryBool.optional(),
  tags: csv.transform((t) => t.map((s) => s.toLowerCase())).optional(),
  /** Only the servers assigned to this community (its page lists them). */
  community_id: z.string().max(64, { message: "must be a community id" }).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

export const serverPageQuery = pageQuery(10, 500);

export const idParams = z.object({ id: z.string() });

/** The spec's live server list entry fields (plus `official`); GET /mods/:id/servers (mod-usage-routes.ts) uses it too. */
export const serverEntryBase = z.object({
  id: z.string(),
  name: z.string(),
  host_address: z.string(),
  player_count: z.number().int(),
  player_count_limit: z.number().int(),
  queue_players_count: z.number().int(),
  scenario_name: z.string(),
  game_version: z.string(),
  password_protected: z.boolean(),
  official: z.boolean(),
  last_updated: z.string(),
});

export type ServerEntryBase = z.infer<typeof serverEntryBase>;

export const serverEntry = serverEntryBase.extend({
  country: z.string().nullable(),
  tags: z.array(z.string()),
  mods_count: z.number().int(),
  mods_size_bytes: z.number().int(),
  avg_players_7d: z.number(),
  community_id: z.string().nullable(),
});
export type ServerEntry = z.infer<typeof serverEntry>;

export const serverDetailObject = serverEntry.extend({
  ip: z.string(),
  port: z.number().int(),
  wait_time_estimation: z.number().int(),
  online: z.boolean(),
  first_seen_at: z.string(),
});

export const serverMod = z.object({
  workshop_id: z.string(),
  name: z.string(),
  version: z.string().nullable(),
  position: z.number().int(),
  size_bytes: z.number().int(),
  image_url: z.string().nullable(),
  latest_version: z.string().nullable(),
  in_catalog: z.boolean(),
});
export type ServerMod = z.infer<typeof serverMod>;

export const modItem = z.object({
  workshop_id: z.string(),
  mod_name: z.string(),
  version: z.string(),
  type: z.string(),
  name: z.string(),
  path: z.string(),
  guid: z.string().nullable(),
});

export const serverDetail = z.object({
  server: serverDetailObject,
  mods: z.array(serverMod),
  mod_items: z.array(modItem),
});

export const serverModsPage = z.object({
  items: z.array(serverMod),
  total: z.number().int(),
  total_size_bytes: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
  limit: z.number().int(),
});

export const changelogEntry = z.object({
  timestamp: z.string(),
  action: z.enum(["added", "removed", "updated"]),
  workshop_id: z.string(),
  mod_name: z.string(),
  old_version: z.string().nullable(),
  new_version: z.string().nullable(),
  size_bytes: z.number().int().nullable(),
});

export const changelogPage = z.object({
  items: z.array(changelogEntry),
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
  limit: z.number().int(),
});

export const serverStatPoint = z.object({
  time: z.string(),
  player_count: z.number().int(),
  queue_players_count: z.number().int(),
  wait_time_estimation: z.number().int(),
  player_count_max: z.number().int(),
});

export const globalStatPoint = z.object({
  time: z.string(),
  total_players: z.number().int(),
  total_servers_online: z.number().int(),
  total_players_max: z.number().int(),
});

export const communityStatPoint = z.object({
  time: z.string(),
  total_players: z.number().int(),
  total_queue: z.number().int(),
  online_servers: z.number().int(),
  total_players_max: z.number().int(),
});

export const rangeBody = z.object({ oldest: z.string().nullable() });

export const topServer = z.object({ id: z.string(), name: z.string(), avg_players: z.number() });
export const topMod = z.object({ workshop_id: z.string(), name: z.string(), server_count: z.number().int() });

export const communityAssignBody = z.object({
  community_id: z.string({ error: "must be a UUID or an empty string" }).nullable(),
});

export const copyFromServerBody = z.object({
  list_id: z.string().optional(),
  list_name: z.string().optional(),
  is_public: z.boolean({ error: "must be a boolean" }).optional(),
});

export const jobAccepted = z.object({ job_id: z.string() });
