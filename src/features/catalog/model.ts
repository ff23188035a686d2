// Request and response schemas of the catalog endpoints (GET /mods and its neighbours;
// docs/catalog.md "Endpoints").
import { z } from "zod";
import { workshopId } from "../../shared/schemas";

export const workshopIdParams = z.object({ workshopID: workshopId });

const intQuery = (min: number, max: number, def: number) =>
  z.coerce
    .number({ error: `must be an integer from ${min} to ${max}` })
    .int({ message: `must be an integer from ${min} to ${max}` })
    .min(min, { message: `must be an integer from ${min} to ${max}` })
    .max(max, { message: `must be an integer from ${min} to ${max}` })
    .default(def);

/** The sort names of GET /mods (`relevance`, the default when searching, is not chosen by name). */
export const MOD_SORTS = ["name_asc", "name_desc", "size_desc", "updated_desc"] as const;

export const listModsQuery = z.object({
  search: z.string().max(200, { message: "must be at most 200 characters" }).optional(),
  tag: z.string().max(64, { message: "must be at most 64 characters" }).optional(),
  sort: z.enum(MOD_SORTS, { message: `must be one of ${MOD_SORTS.join(", ")}` }).optional(),
  page: z.coerce
    .number({ error: "must be an integer of at least 1" })
    .int({ message: "must be an integer of at least 1" })
    .min(1, { message: "must be an integer of at least 1" })
    .default(1),
  limit: intQuery(1, 100, 20),
});

export const autocompleteQuery = z.object({ q: z.string().max(100, { message: "must be at most 100 characters" }).default("") });

export const ITEM_TYPES = ["vehicle", "weapon", "gear"] as const;
export const itemsQuery = z.object({
  type: z.enum(ITEM_TYPES, { message: "must be vehicle, weapon or gear" }).optional(),
  version: z.string().min(1).max(64).optional(),
});
export const versionQuery = z.object({ version: z.string().min(1).max(64).optional() });
export const diffQuery = z.object({
  from: z.string({ error: "is required" }).min(1, { message: "is required" }).max(64),
  to: z.string({ error: "is required" }).min(1, { message: "is required" }).max(64),
});
export const growthQuery = z.object({ days: intQuery(1, 180, 30) });

export const modSummary = z.object({
  workshop_id: z.string(),
  name: z.string(),
  version: z.string(),
  size_bytes: z.number().int(),
  image_url: z.string().nullable(),
  tags: z.array(z.string()),
  author: z.string(),
  /** Share of positive ratings, 0 to 1 (null: not rated). */
  rating: z.number().nullable(),
  subscriber_count: z.number().int(),
  /** When the workshop last updated the mod. */
  updated_at: z.string().nullable(),
});
export type ModSummary = z.infer<typeof modSummary>;

export const modListResponse = z.object({
  mods: z.array(modSummary),
  total: z.number().int(),
  pages: z.number().int(),
});

export const autocompleteEntry = z.object({ workshop_id: z.string(), name: z.string(), image_url: z.string().nullable() });

export const externalLink = z.object({ label: z.string(), url: z.string() });

export const dependencyRef = z.object({
  workshop_id: z.string(),
  name: z.string(),
  /** The version the mod requires. */
  version: z.string().nullable(),
  size_bytes: z.number().int(),
  /** Whether the dependency is a scraped catalog mod. */
  in_catalog: z.boolean(),
});

export const modDetail = modSummary.extend({
  summary: z.string(),
  description: z.string(),
  author: z.string(),
  author_id: z.string().nullable(),
  dependency_ids: z.array(z.string()),
  dependencies: z.array(dependencyRef),
  external_links: z.array(externalLink),
  type: z.string(),
  license: z.string().nullable(),
  game_version: z.string().nullable(),
  state: z.string(),
  obsolete: z.boolean(),
  rating: z.number().nullable(),
  rating_count: z.number().int(),
  subscriber_count: z.number().int(),
  downloads_total: z.number().int(),
  workshop_url: z.string(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  scraped_at: z.string().nullable(),
});

export const modMetadata = z.object({
  workshop_id: z.string(),
  name: z.string(),
  version: z.string(),
  size_bytes: z.number().int(),
  image_url: z.string().nullable(),
  author: z.string(),
  game_version: z.string().nullable(),
  state: z.string(),
  updated_at: z.string().nullable(),
});

export const item = z.object({
  type: z.enum(ITEM_TYPES),
  name: z.string(),
  path: z.string(),
  guid: z.string().nullable(),
});

export const itemsResponse = z.object({
  workshop_id: z.string(),
  /** The version the items belong to; null when no version has item data yet. */
  version: z.string().nullable(),
  items: z.array(item),
});

export const mission = z.object({
  game_id: z.string(),
  name: z.string(),
  game_mode: z.string().nullable(),
  player_count: z.number().int().nullable(),
  description: z.string().nullable(),
  image_url: z.string().nullable(),
});

export const missionsResponse = z.object({
  workshop_id: z.string(),
  version: z.string().nullable(),
  missions: z.array(mission),
});

export const depNode = z.object({
  workshop_id: z.string(),
  name: z.string(),
  version: z.string().nullable(),
  size_bytes: z.number().int(),
  /** Shortest distance from the root (direct dependencies are 1). */
  depth: z.number().int(),
  dependency_ids: z.array(z.string()),
  in_catalog: z.boolean(),
});

export const depsResponse = z.object({
  workshop_id: z.string(),
  name: z.string(),
  size_bytes: z.number().int(),
  /** Every transitive dependency once, nearest first. */
  dependencies: z.array(depNode),
  dependencies_size_bytes: z.number().int(),
  /** The mod plus every transitive dependency, each counted once. */
  total_size_bytes: z.number().int(),
  has_cycle: z.boolean(),
  /** Edges that close a cycle, as [from, to]. */
  cycle_edges: z.array(z.tuple([z.string(), z.string()])),
});

export const versionEntry = z.object({
  version: z.string(),
  game_version: z.string().nullable(),
  size_bytes: z.number().int(),
  changelog: z.string().nullable(),
  approved: z.boolean(),
  published: z.boolean(),
  scenarios_count: z.number().int(),
  dependencies_count: z.number().int(),
  created_at: z.string().nullable(),
});

export const screenshot = z.object({ url: z.string(), width: z.number().int().nullable(), height: z.number().int().nullable() });

export const itemVersionEntry = z.object({
  version: z.string(),
  item_count: z.number().int(),
  vehicles: z.number().int(),
  weapons: z.number().int(),
  gear: z.number().int(),
  created_at: z.string().nullable(),
  scanned_at: z.string(),
});

export const diffResponse = z.object({
  workshop_id: z.string(),
  from: z.string(),
  to: z.string(),
  added: z.array(item),
  removed: z.array(item),
  changed: z.array(z.object({ from: item, to: item })),
  /** Whether each side has item data; without it the diff is empty (both versions exist). */
  items_known: z.object({ from: z.boolean(), to: z.boolean() }),
});

export const liveStats = z.object({
  used_by_servers_count: z.number().int(),
  players_using_count: z.number().int(),
  dependencies_count: z.number().int(),
  dependents_count: z.number().int(),
});

export const growthPoint = liveStats.extend({ time: z.string() });
export const growthRange = z.object({ oldest: z.string().nullable() });
