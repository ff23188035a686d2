// Core catalog tables. The catalog feature owns this file; lists, live and deploy read
// mods.name / version / size_bytes / image_url / state / game_version / updated_at,
// mod_versions and mod_dependencies.
import { sqliteTable, text, integer, real, primaryKey, index } from "drizzle-orm/sqlite-core";

/** One workshop mod. `state` keeps mods that vanished or became private/blocked. */
export const mods = sqliteTable(
  "mods",
  {
    workshop_id: text("workshop_id").primaryKey(),
    name: text("name").notNull(),
    summary: text("summary").notNull().default(""),
    description: text("description").notNull().default(""),
    author_id: text("author_id"),
    author_name: text("author_name").notNull().default(""),
    type: text("type").notNull().default("addon"),
    license: text("license"),
    /** Latest known version string; "" while the mod is only a placeholder. */
    version: text("version").notNull().default(""),
    size_bytes: integer("size_bytes").notNull().default(0),
    image_url: text("image_url"),
    game_version: text("game_version"),
    rating: real("rating"),
    rating_count: integer("rating_count").notNull().default(0),
    subscriber_count: integer("subscriber_count").notNull().default(0),
    downloads_total: integer("downloads_total").notNull().default(0),
    /** active | unlisted | private | blocked | removed | unknown (placeholder, not scraped yet) */
    state: text("state").notNull().default("unknown"),
    obsolete: integer("obsolete", { mode: "boolean" }).notNull().default(false),
    /** JSON array of tag names, denormalised for summaries (mod_tags is the index). */
    tags_json: text("tags_json").notNull().default("[]"),
    /** JSON array of {label, url}. */
    external_links_json: text("external_links_json").notNull().default("[]"),
    /** Workshop timestamps (epoch ms). */
    created_at: integer("created_at"),
    updated_at: integer("updated_at"),
    /** When we last scraped the listing row / the detail page (epoch ms). */
    listed_at: integer("listed_at"),
    detail_scraped_at: integer("detail_scraped_at"),
  },
  // The sorts read the partial indexes mods_vis_*_idx (src/db/custom): plain ones on name, size
  // and updated_at were read by no query (EXPLAIN QUERY PLAN of every catalog query) and cost
  // every scraped mod three index writes.
  (t) => [index("mods_state_idx").on(t.state)],
);

export const modVersions = sqliteTable(
  "mod_versions",
  {
    workshop_id: text("workshop_id").notNull(),
    version: text("version").notNull(),
    game_version: text("game_version"),
    size_bytes: integer("size_bytes").notNull().default(0),
    changelog: text("changelog"),
    approved: integer("approved", { mode: "boolean" }).notNull().default(true),
    published: integer("published", { mode: "boolean" }).notNull().default(true),
    scenarios_count: integer("scenarios_count").notNull().default(0),
    dependencies_count: integer("dependencies_count").notNull().default(0),
    created_at: integer("created_at"),
  },
  (t) => [
    primaryKey({ columns: [t.workshop_id, t.version] }),
    index("mod_versions_time_idx").on(t.workshop_id, t.created_at),
  ],
);

/** Dependencies of a mod's current version. `depends_on_name` keeps the name of a dependency not in the catalog. */
export const modDependencies = sqliteTable(
  "mod_dependencies",
  {
    workshop_id: text("workshop_id").notNull(),
    depends_on_id: text("depends_on_id").notNull(),
    depends_on_name: text("depends_on_name").notNull().default(""),
    version: text("version"),
    size_bytes: integer("size_bytes").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.workshop_id, t.depends_on_id] }),
    index("mod_dependencies_reverse_idx").on(t.depends_on_id),
  ],
);

export const modTags = sqliteTable(
  "mod_tags",
  {
    workshop_id: text("workshop_id").notNull(),
    tag: text("tag").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workshop_id, t.tag] }), index("mod_tags_tag_idx").on(t.tag, t.workshop_id)],
);

// ---- Added by the catalog feature ----
// Growth snapshots (WITHOUT ROWID) and the FTS5 index live in src/db/custom/30_catalog.sql.

/** The official screenshot gallery of a mod, in the workshop's order. */
export const modScreenshots = sqliteTable(
  "mod_screenshots",
  {
    workshop_id: text("workshop_id").notNull(),
    position: integer("position").notNull(),
    url: text("url").notNull(),
    width: integer("width"),
    height: integer("height"),
  },
  (t) => [primaryKey({ columns: [t.workshop_id, t.position] })],
);

/** Scenarios (missions) a mod version ships, as the workshop lists them. */
export const modScenarios = sqliteTable(
  "mod_scenarios",
  {
    workshop_id: text("workshop_id").notNull(),
    version: text("version").notNull(),
    game_id: text("game_id").notNull(),
    name: text("name").notNull(),
    game_mode: text("game_mode"),
    player_count: integer("player_count"),
    description: text("description"),
    image_url: text("image_url"),
    position: integer("position").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.workshop_id, t.version, t.game_id] })],
);

/** Items (vehicle, weapon, gear) extracted from a version's resource paths. */
export const modItems = sqliteTable(
  "mod_items",
  {
    workshop_id: text("workshop_id").notNull(),
    version: text("version").notNull(),
    /** Identity across versions: the resource GUID, else the lower-cased path. */
    item_key: text("item_key").notNull(),
    item_type: text("item_type").notNull(),
    name: text("name").notNull(),
    path: text("path").notNull(),
    guid: text("guid"),
  },
  (t) => [
    primaryKey({ columns: [t.workshop_id, t.version, t.item_key] }),
    index("mod_items_type_idx").on(t.workshop_id, t.version, t.item_type),
  ],
);

/** Versions whose resource path list was scanned (also when it held no items). */
export const modItemScans = sqliteTable(
  "mod_item_scans",
  {
    workshop_id: text("workshop_id").notNull(),
    version: text("version").notNull(),
    item_count: integer("item_count").notNull(),
    scanned_at: integer("scanned_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workshop_id, t.version] })],
);
