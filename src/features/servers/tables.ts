import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
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
    /** Where the game server answers Steam A2S queries ("host" or "host:port"; port 17777 by default). */
    query_address: text("query_address"),
    /** Scan the server's addons (data.pak) for items on the items schedule (SFTP servers). */
    items_scan: integer("items_scan", { mode: "boolean" }).notNull().default(false),
    /** The server's addons folder; null: `addons/` beside the config file. */
    addons_path: text("addons_path"),
    created_at: integer("created_at").notNull(),
    updated_at: integer("updated_at").notNull(),
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
