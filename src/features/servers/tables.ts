import { sqliteTable, text, integer, index, primaryKey } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";
import { lists } from "../lists/tables";

/** Registered game servers: each belongs to one user (the caller who registered it). */
export const servers = sqliteTable(
  "servers",
  {
    id: text("id").primaryKey(),
    owner_id: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    connection_type: text("connection_type", { enum: ["panel", "sftp"] }).notNull(),
    file_path: text("file_path").notNull(),
    linked_list_id: text("linked_list_id").references(() => lists.id, { onDelete: "set null" }),
    auto_deploy: integer("auto_deploy", { mode: "boolean" }).notNull().default(false),
    created_at: integer("created_at").notNull(),
    updated_at: integer("updated_at").notNull(),
    /** Where the game server answers Steam A2S queries ("host" or "host:port"; port 17777 by default). */
    query_address: text("query_address"),
    /** Scan the server's addons (data.pak) for items on the items schedule (SFTP servers). */
    items_scan: integer("items_scan", { mode: "boolean" }).notNull().default(false),
    /** The server's addons folder; null: `addons/` beside the config file. */
    addons_path: text("addons_path"),
    /** After a deploy: `none` (the server takes the mods at its next restart), `now`, or `when_empty`. */
    restart: text("restart", { enum: ["none", "now", "when_empty"] }).notNull().default("none"),
    /** when_empty: the longest wait for 0 players before restarting anyway, seconds. */
    empty_wait_s: integer("empty_wait_s").notNull().default(3600),
    /** How long a restarted server has to answer again before the deploy is rolled back, seconds. */
    verify_timeout_s: integer("verify_timeout_s").notNull().default(600),
    /** SFTP: the command run over SSH to restart the game server, exactly as stored. */
    restart_command: text("restart_command"),
    /**
     * What the last connection test or deploy read from the config file (for the pre-flight):
     * its game.scenarioId, its game.mods (JSON, after a deploy the mods written) and when.
     */
    config_scenario_id: text("config_scenario_id"),
    config_mods_json: text("config_mods_json"),
    config_read_at: integer("config_read_at"),
    /**
     * What the game would refuse or misread in that config (JSON array of the issues of
     * lists/game-config-check.ts: kind, path, fatal, message, line, column, fix): the
     * pre-flight's `config_invalid` findings. Null when not read yet (or read before it was kept).
     */
    config_issues_json: text("config_issues_json"),
    /**
     * How a deploy restarts the server: `connection` (the panel's power signal, or SFTP's
     * restart_command) or `rcon` (`#shutdown`: for a process a supervisor restarts).
     */
    restart_via: text("restart_via", { enum: ["connection", "rcon"] }).notNull().default("connection"),
    /** RCON (docs/rcon.md): where the server answers and its password, sealed (AAD `server-rcon:<id>`); null: no RCON. */
    rcon_host: text("rcon_host"),
    rcon_port: integer("rcon_port"),
    rcon_password: text("rcon_password"),
    /** When the RCON settings were stored (the password is never returned). */
    rcon_set_at: integer("rcon_set_at"),
    /** The `rcon` block the server's config carries (port; only when it has a password): offered as `rcon_suggested`. */
    config_rcon_port: integer("config_rcon_port"),
    /** When the roster (server_players) was last read over RCON. */
    players_fetched_at: integer("players_fetched_at"),
  },
  (t) => [index("servers_owner_idx").on(t.owner_id, t.created_at), index("servers_linked_list_idx").on(t.linked_list_id)],
);

/**
 * Write-only credentials, one row per server. `secret` is the AES-256-GCM sealed JSON of the
 * credentials object (src/shared/crypto.ts, AAD = server id); `key_id` names the key it was
 * sealed with, for rotation.
 */
export const serverCredentials = sqliteTable("server_credentials", {
  server_id: text("server_id")
    .primaryKey()
    .references(() => servers.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  key_id: text("key_id").notNull(),
  /**
   * SFTP only: the host key seen at the first successful connection ("SHA256:..." as OpenSSH
   * prints it). Later connections must present the same key. Storing credentials again clears it.
   */
  host_key_sha256: text("host_key_sha256"),
  created_at: integer("created_at").notNull(),
  updated_at: integer("updated_at").notNull(),
});

/** Deployments and connection tests (kind `test`): pending → running → success | failed. */
export const deployments = sqliteTable(
  "deployments",
  {
    id: text("id").primaryKey(),
    server_id: text("server_id")
      .notNull()
      .references(() => servers.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["deploy", "test"] }).notNull(),
    status: text("status", { enum: ["pending", "running", "success", "failed"] }).notNull().default("pending"),
    list_id: text("list_id").references(() => lists.id, { onDelete: "set null" }),
    requested_by: text("requested_by").references(() => users.id, { onDelete: "set null" }),
    /** The approved deploy request this deployment carries out, or null. */
    request_id: text("request_id"),
    /** `manual`, `auto` (auto_deploy) or `approval`. */
    trigger: text("trigger").notNull().default("manual"),
    item_count: integer("item_count"),
    /** JSON array of the `game.mods` entries written. */
    snapshot_json: text("snapshot_json"),
    error_message: text("error_message"),
    job_id: text("job_id"),
    created_at: integer("created_at").notNull(),
    started_at: integer("started_at"),
    finished_at: integer("finished_at"),
    // ---- the restart loop (docs/deploy.md "Restart, verify, roll back"); every step is
    // recorded here before it is taken, so a process killed mid-step resumes without repeating it.
    /** The restart mode this deployment runs with (the server's, or the deploy's override). */
    restart_mode: text("restart_mode", { enum: ["none", "now", "when_empty"] }).notNull().default("none"),
    empty_wait_s: integer("empty_wait_s"),
    verify_timeout_s: integer("verify_timeout_s"),
    /** writing, waiting_for_empty, restarting, verifying, rolling_back, done (null: not started; tests). */
    phase: text("phase", { enum: ["writing", "waiting_for_empty", "restarting", "verifying", "rolling_back", "done"] }),
    phase_started_at: integer("phase_started_at"),
    /** The config as read before this deploy wrote anything (stored before the write). */
    previous_config: text("previous_config"),
    /** The config this deploy writes (stored before the write). */
    new_config: text("new_config"),
    /** "Restart now instead" was asked while waiting for an empty server. */
    restart_now_requested_at: integer("restart_now_requested_at"),
    /** Write-ahead: set before the restart signal is sent; a resumed run never sends it again. */
    restart_requested_at: integer("restart_requested_at"),
    restarted_at: integer("restarted_at"),
    /** SFTP restart_command: exit status and the last lines of its output. */
    restart_exit_status: integer("restart_exit_status"),
    restart_output: text("restart_output"),
    /** Why waiting for an empty server ended ("empty", "restart_now", "timeout"). */
    wait_ended: text("wait_ended"),
    verified_at: integer("verified_at"),
    /** What verification last saw (shown while it waits, and in the rollback message). */
    verify_note: text("verify_note"),
    rolled_back: integer("rolled_back", { mode: "boolean" }).notNull().default(false),
    /** Why the deploy is being rolled back (the server did not come back in time). */
    rollback_reason: text("rollback_reason"),
    rollback_written_at: integer("rollback_written_at"),
    rollback_restart_requested_at: integer("rollback_restart_requested_at"),
    rollback_restarted_at: integer("rollback_restarted_at"),
    /** The server answered again after the rollback's restart. */
    rollback_verified_at: integer("rollback_verified_at"),
    /** Deployed with {"force": true} past the pre-flight's server errors. */
    forced: integer("forced", { mode: "boolean" }).notNull().default(false),
    /** Keys of the server's config this deploy renames in the same write (JSON `[{path, from, to}]`: the pre-flight's one-click fix of a misspelt or legacy key). */
    rename_keys: text("rename_keys"),
    /** The config it would write was the one the server had: nothing written, and no restart unless `restart_anyway`. */
    config_unchanged: integer("config_unchanged", { mode: "boolean" }).notNull().default(false),
    /** Restart even when the config did not change ({"restart_anyway": true}). */
    restart_anyway: integer("restart_anyway", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("deployments_server_idx").on(t.server_id, t.created_at), index("deployments_status_idx").on(t.status)],
);

/** Deploy requests of collaborators on lists with require_deploy_approval. */
export const deployRequests = sqliteTable(
  "deploy_requests",
  {
    id: text("id").primaryKey(),
    server_id: text("server_id")
      .notNull()
      .references(() => servers.id, { onDelete: "cascade" }),
    list_id: text("list_id")
      .notNull()
      .references(() => lists.id, { onDelete: "cascade" }),
    requested_by: text("requested_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["pending", "approved", "rejected"] }).notNull().default("pending"),
    note: text("note"),
    decided_by: text("decided_by").references(() => users.id, { onDelete: "set null" }),
    decided_at: integer("decided_at"),
    deployment_id: text("deployment_id"),
    created_at: integer("created_at").notNull(),
  },
  (t) => [index("deploy_requests_list_idx").on(t.list_id, t.status, t.created_at), index("deploy_requests_server_idx").on(t.server_id)],
);

/** Who is on a server now, as its last RCON roster said (docs/rcon.md "Who is on"). */
export const serverPlayers = sqliteTable(
  "server_players",
  {
    server_id: text("server_id")
      .notNull()
      .references(() => servers.id, { onDelete: "cascade" }),
    uid: text("uid").notNull(),
    /** The session's player number (what #kick and #ban take). */
    player_id: integer("player_id").notNull(),
    name: text("name").notNull(),
    joined_at: integer("joined_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.server_id, t.uid] })],
);

/** A player's stays on a server: opened when a roster first shows them, closed when one no longer does. */
export const playerSessions = sqliteTable(
  "player_sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    server_id: text("server_id")
      .notNull()
      .references(() => servers.id, { onDelete: "cascade" }),
    uid: text("uid").notNull(),
    name: text("name").notNull(),
    joined_at: integer("joined_at").notNull(),
    /** Null while the player is on. */
    left_at: integer("left_at"),
  },
  (t) => [index("player_sessions_server_idx").on(t.server_id, t.joined_at), index("player_sessions_uid_idx").on(t.server_id, t.uid, t.joined_at)],
);

/** The names a player went by on a server. */
export const playerNames = sqliteTable(
  "player_names",
  {
    server_id: text("server_id")
      .notNull()
      .references(() => servers.id, { onDelete: "cascade" }),
    uid: text("uid").notNull(),
    name: text("name").notNull(),
    first_seen: integer("first_seen").notNull(),
    last_seen: integer("last_seen").notNull(),
  },
  (t) => [primaryKey({ columns: [t.server_id, t.uid, t.name] })],
);

/** Users an owner lets see a server's players and bans and kick and ban there (docs/rcon.md "Moderation"). */
export const serverModerators = sqliteTable(
  "server_moderators",
  {
    server_id: text("server_id")
      .notNull()
      .references(() => servers.id, { onDelete: "cascade" }),
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    added_by: text("added_by").references(() => users.id, { onDelete: "set null" }),
    added_at: integer("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.server_id, t.user_id] }), index("server_moderators_user_idx").on(t.user_id)],
);

/**
 * A community's bans: Loadout's list is the truth (the game forgets bans at a restart). A ban
 * covers one server (`server_id`) or every server of its owner that has RCON (`scope` all).
 */
export const serverBans = sqliteTable(
  "server_bans",
  {
    id: text("id").primaryKey(),
    /** The servers' owner: a ban of scope `all` covers all of their servers. */
    owner_id: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The server it was given on (scope `server`: the one it covers). */
    server_id: text("server_id")
      .notNull()
      .references(() => servers.id, { onDelete: "cascade" }),
    scope: text("scope", { enum: ["server", "all"] }).notNull(),
    uid: text("uid").notNull(),
    name: text("name").notNull(),
    reason: text("reason").notNull(),
    /** 0: permanent. */
    duration_s: integer("duration_s").notNull(),
    /** Null: permanent. */
    expires_at: integer("expires_at"),
    created_by: text("created_by").references(() => users.id, { onDelete: "set null" }),
    created_at: integer("created_at").notNull(),
    lifted_at: integer("lifted_at"),
    lifted_by: text("lifted_by").references(() => users.id, { onDelete: "set null" }),
    /** When Loadout saw its time run out (and lifted it where the game still held it). */
    expired_at: integer("expired_at"),
  },
  (t) => [index("server_bans_owner_idx").on(t.owner_id, t.created_at), index("server_bans_uid_idx").on(t.owner_id, t.uid)],
);

/** Every moderation act on a server, Loadout's own included (actor null): who did what and why, and what the server answered. */
export const moderationLog = sqliteTable(
  "moderation_log",
  {
    id: text("id").primaryKey(),
    server_id: text("server_id")
      .notNull()
      .references(() => servers.id, { onDelete: "cascade" }),
    action: text("action", { enum: ["kick", "ban", "unban", "reapplied", "expired"] }).notNull(),
    /** Null: Loadout itself (re-applying, expiring). */
    actor_id: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    ban_id: text("ban_id"),
    uid: text("uid"),
    name: text("name"),
    reason: text("reason"),
    duration_s: integer("duration_s"),
    /** "ok", or what went wrong (the server's answer, not connected). */
    result: text("result").notNull(),
    created_at: integer("created_at").notNull(),
  },
  (t) => [index("moderation_log_server_idx").on(t.server_id, t.created_at)],
);
