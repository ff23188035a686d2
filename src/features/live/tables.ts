// Live game servers: every table of the feature drizzle-kit can express, and its views (declared
// `.existing()`: src/db/schema-objects.sql defines them, with the triggers and the WITHOUT ROWID
// tables drizzle-kit cannot express: the servers' and communities' stat series, ~17 M rows a year,
// their day rows, live_mod_names).
//
// `live_mod_usage` is the top of each scan's mod usage count (GET /stats/top-mods); the growth
// job reads `game_servers` (sid, player_count, last_seen_at) and `game_server_mods_by_sid`.
import { sqliteTable, sqliteView, text, integer, real, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { communities } from "../communities/tables";

/** Current state of every server ever seen, upserted by host_address (ip:port). */
export const gameServers = sqliteTable(
  "game_servers",
  {
    id: text("id").primaryKey(),
    /** Compact integer key used by the stat series tables (~17 M rows a year). */
    sid: integer("sid").notNull(),
    source: text("source").notNull().default("battlemetrics"),
    source_id: text("source_id"),
    host_address: text("host_address").notNull(),
    name: text("name").notNull(),
    ip: text("ip").notNull(),
    port: integer("port").notNull(),
    country: text("country"),
    player_count: integer("player_count").notNull().default(0),
    player_count_limit: integer("player_count_limit").notNull().default(0),
    queue_players_count: integer("queue_players_count").notNull().default(0),
    wait_time_estimation: integer("wait_time_estimation").notNull().default(0),
    scenario_name: text("scenario_name").notNull().default(""),
    game_version: text("game_version").notNull().default(""),
    password_protected: integer("password_protected", { mode: "boolean" }).notNull().default(false),
    official: integer("official", { mode: "boolean" }).notNull().default(false),
    /** Derived tags wrapped in commas (",battleye,modded,pc,") so `LIKE '%,pc,%'` matches one tag. */
    tags: text("tags").notNull().default(","),
    /** lower(name + host_address + scenario_name): the search haystack. */
    search_text: text("search_text").notNull().default(""),
    mods_count: integer("mods_count").notNull().default(0),
    /** Sum of the catalog sizes of the current mods (refreshed by scans and roll-ups). */
    mods_size_bytes: integer("mods_size_bytes").notNull().default(0),
    /** Hash of the reported mod list (id, version, order): unchanged lists skip the diff. */
    mods_hash: text("mods_hash").notNull().default(""),
    /** In the latest complete scan. The list shows servers online and seen in the last hour. */
    online: integer("online", { mode: "boolean" }).notNull().default(false),
    /** 7-day player average (sum/samples), kept exact by roll-ups and advanced by scans. */
    players_sum_7d: integer("players_sum_7d").notNull().default(0),
    samples_7d: integer("samples_7d").notNull().default(0),
    avg_players_7d: real("avg_players_7d").notNull().default(0),
    community_id: text("community_id").references(() => communities.id, { onDelete: "set null" }),
    first_seen_at: integer("first_seen_at").notNull(),
    last_seen_at: integer("last_seen_at").notNull(),
    /** The registered server (servers.id) polled over A2S that this entry is, when one is. */
    registered_server_id: text("registered_server_id"),
  },
  (t) => [
    uniqueIndex("game_servers_address_idx").on(t.host_address),
    uniqueIndex("game_servers_sid_idx").on(t.sid),
    index("game_servers_seen_idx").on(t.last_seen_at),
    index("game_servers_popularity_idx").on(t.avg_players_7d),
    index("game_servers_community_idx").on(t.community_id),
  ],
);

/**
 * Each server's mod list, one row a server (~5,000 rows where one row a mod was ~200,000): `mods`
 * is a JSON array of [workshop_id, name, version, position] in the order reported (by position),
 * written whole when anything in it changed, deleted when it is emptied. Read as rows through the
 * views below. Its triggers (src/db/schema-objects.sql) move servers_gen and the server's mod-list
 * version on every write, and write a first sighting held by reference in full before the list
 * it refers to changes.
 */
export const gameServerModLists = sqliteTable("game_server_mod_lists", {
  server_sid: integer("server_sid")
    .primaryKey()
    .references(() => gameServers.sid, { onDelete: "cascade" }),
  mods: text("mods").notNull(),
});

/**
 * The version of each server's mod list: every write to the list, by any path, sets it to
 * servers_gen just after moving it (a value no earlier write had), so the live snapshot reads again
 * only the lists whose version moved. A server without a row never had a mod.
 */
export const gameServerModsVer = sqliteTable("game_server_mods_ver", {
  sid: integer("sid").primaryKey(),
  ver: integer("ver").notNull(),
});

/**
 * The mod changelog, one row a server and scan that changed its list: `changes` a JSON array of
 * [action, workshop_id, mod_name, old_version, new_version, size_bytes] in the order found, `n`
 * its length. A first sighting is held by reference: `changes` '[]' and `first_sizes` the
 * catalog's sizes in the list's order (the list itself is the changes). Kept 365 days; ids grow
 * with time, so retention deletes a rowid prefix. Its indexes are in src/db/schema-objects.sql.
 */
export const gameServerModEvents = sqliteTable("game_server_mod_events", {
  id: integer("id").primaryKey(),
  server_sid: integer("server_sid").notNull(),
  time: integer("time").notNull(),
  n: integer("n").notNull(),
  changes: text("changes").notNull(),
  first_sizes: text("first_sizes"),
});

/**
 * The stat series of the global total: raw 5-minute points (24 h), hourly (14 days) and 3-hour
 * buckets (365 days). The servers' and the communities' series are WITHOUT ROWID tables
 * (src/db/schema-objects.sql).
 */
export const liveGlobalStatsRaw = sqliteTable("live_global_stats_raw", {
  time: integer("time").primaryKey(),
  players: integer("players").notNull(),
  queue: integer("queue").notNull(),
  servers: integer("servers").notNull(),
});
const globalBuckets = {
  time: integer("time").primaryKey(),
  n: integer("n").notNull(),
  players_sum: integer("players_sum").notNull(),
  players_max: integer("players_max").notNull(),
  queue_sum: integer("queue_sum").notNull(),
  servers_sum: integer("servers_sum").notNull(),
  servers_max: integer("servers_max").notNull(),
};
export const liveGlobalStatsHourly = sqliteTable("live_global_stats_hourly", { ...globalBuckets });
export const liveGlobalStatsThreeHour = sqliteTable("live_global_stats_3h", { ...globalBuckets });

/**
 * While a row is here, the live feature's per-row generation triggers do nothing (their WHEN): a
 * bulk writer (the scan, the roll-up) holds it inside its own transaction and moves the counters
 * once when it lets go (repository/state.ts withBulkWrite), so no other connection ever sees it.
 */
export const liveBulkWrite = sqliteTable("live_bulk_write", {
  writer: text("writer").primaryKey(),
});

// ---- Views (src/db/schema-objects.sql defines them; drizzle-kit creates none of them) ----------

/** A server's mod list as rows, by sid: writable (its INSTEAD OF triggers rewrite the list). */
export const gameServerModsBySid = sqliteView("game_server_mods_by_sid", {
  server_sid: integer("server_sid").notNull(),
  workshop_id: text("workshop_id").notNull(),
  name: text("name").notNull(),
  version: text("version"),
  position: integer("position").notNull(),
}).existing();

/** The same rows by the server's UUID (raw SQL, the tests' truths, a server's detail): writable. */
export const gameServerMods = sqliteView("game_server_mods", {
  server_id: text("server_id").notNull(),
  workshop_id: text("workshop_id").notNull(),
  name: text("name").notNull(),
  version: text("version"),
  position: integer("position").notNull(),
}).existing();

/**
 * The changelog one row a change, first sightings by reference included (its `id` is the row's id
 * × 2^20 + the change's index, so `ORDER BY id` is the changelog's order); an INSERT becomes a row
 * of its own.
 */
export const gameServerModChanges = sqliteView("game_server_mod_changes", {
  id: integer("id").notNull(),
  server_sid: integer("server_sid").notNull(),
  time: integer("time").notNull(),
  /** added | removed | updated */
  action: text("action").notNull(),
  workshop_id: text("workshop_id").notNull(),
  mod_name: text("mod_name"),
  old_version: text("old_version"),
  new_version: text("new_version"),
  size_bytes: integer("size_bytes"),
}).existing();

/** A first sighting held by reference, in full: the changes its row would hold. */
export const gameServerModFirstChanges = sqliteView("game_server_mod_first_changes", {
  id: integer("id").notNull(),
  changes: text("changes").notNull(),
}).existing();

/** A server's buckets as the compact points of its day rows (series-days.ts). */
const pointsColumns = () => ({
  sid: integer("sid").notNull(),
  day: integer("day").notNull(),
  time: integer("time").notNull(),
  point: text("point").notNull(),
});
export const gameServerStatsThreeHourPoints = sqliteView("game_server_stats_3h_points", pointsColumns()).existing();
export const gameServerStatsHourlyPoints = sqliteView("game_server_stats_hourly_points", pointsColumns()).existing();

/**
 * The top 10 (TOP_MODS) of each usage count (a scan's, the roll-up's): the mods run by the most
 * servers seen in the hour before it, with their players and names (repository writeModUsage).
 * Every other mod's numbers are counted in the live snapshot; a row for every used mod (~11,000,
 * all rewritten every scan) was written for nothing: nothing read past the top.
 */
export const liveModUsage = sqliteTable(
  "live_mod_usage",
  {
    workshop_id: text("workshop_id").primaryKey(),
    name: text("name").notNull().default(""),
    server_count: integer("server_count").notNull(),
    player_count: integer("player_count").notNull(),
    updated_at: integer("updated_at").notNull(),
  },
  (t) => [index("live_mod_usage_count_idx").on(t.server_count)],
);

/** Small key/value state of the live jobs (roll-up watermarks, last scan). */
export const liveState = sqliteTable("live_state", {
  key: text("key").primaryKey(),
  value: integer("value").notNull(),
});
