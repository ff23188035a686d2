// Live game servers discovered from BattleMetrics. Current state lives here (drizzle);
// the stat series (raw 5-minute points, hourly and 3-hour buckets for servers, the global total
// and communities) are WITHOUT ROWID tables in src/db/custom/40_live_stats.sql, because
// drizzle-kit cannot express WITHOUT ROWID and those tables hold ~17 M rows a year.
//
// `live_mod_usage` is the top of each scan's mod usage count (GET /stats/top-mods); the growth
// job reads `game_servers` (sid, player_count, last_seen_at) and `game_server_mods_by_sid`.
import { sqliteTable, text, integer, real, primaryKey, index, uniqueIndex } from "drizzle-orm/sqlite-core";
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
    /** The registered server (servers.id) polled over A2S that this entry is, when one is. */
    registered_server_id: text("registered_server_id"),
    first_seen_at: integer("first_seen_at").notNull(),
    last_seen_at: integer("last_seen_at").notNull(),
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
 * The current mod list of each server (about 200 k rows for 5,000 online servers), as the first
 * migration made it. Since src/db/custom/a6_server_mod_lists.sql a server's list is one row of
 * `game_server_mod_lists` (server_sid, mods: a JSON array of [workshop_id, name, version,
 * position], by position), which drizzle-kit does not know; `game_server_mods_by_sid`
 * (server_sid, workshop_id, name, version, position; a1_server_mods_by_sid.sql made it a table)
 * is a view over it, and `game_server_mods` a view with these columns, both writable through
 * INSTEAD OF triggers. This declaration stays so drizzle-kit's
 * snapshot does not drop the name; no code queries it through drizzle.
 */
export const gameServerMods = sqliteTable(
  "game_server_mods",
  {
    server_id: text("server_id")
      .notNull()
      .references(() => gameServers.id, { onDelete: "cascade" }),
    workshop_id: text("workshop_id").notNull(),
    /** As reported; "" when the source gave a bare id (the catalog's name is used then). */
    name: text("name").notNull().default(""),
    version: text("version"),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.server_id, t.workshop_id] }),
    index("game_server_mods_mod_idx").on(t.workshop_id, t.server_id),
  ],
);

/**
 * One row per mod added, removed or changed in version on a server; kept 365 days, as the first
 * migration made it. Since src/db/custom/a3_changelog_events.sql the changes are stored one row
 * per server and scan in `game_server_mod_events` (server_sid, time, n, changes: a JSON array of
 * [action, workshop_id, mod_name, old_version, new_version, size_bytes]; a first sighting refers
 * to the server's list instead, a7_first_sight_changelog.sql) and this name is a view
 * with these columns (insertable). This declaration stays so drizzle-kit's snapshot does not drop
 * the name; no code queries it through drizzle.
 */
export const gameServerModChanges = sqliteTable(
  "game_server_mod_changes",
  {
    id: integer("id").primaryKey(),
    server_sid: integer("server_sid").notNull(),
    time: integer("time").notNull(),
    /** added | removed | updated */
    action: text("action").notNull(),
    workshop_id: text("workshop_id").notNull(),
    mod_name: text("mod_name").notNull().default(""),
    old_version: text("old_version"),
    new_version: text("new_version"),
    size_bytes: integer("size_bytes"),
  },
  // No time index: ids grow with time, so retention deletes a prefix of the rowid order.
  (t) => [index("game_server_mod_changes_server_idx").on(t.server_sid, t.id)],
);

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
