// Lists and what hangs off them (items, the remembered server config, the audit log, snapshots,
// pins). A list's folder and community are the folders' and communities' own tables.
import { sqliteTable, text, integer, primaryKey, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";
import { communities } from "../communities/tables";
import { folders } from "../folders/tables";

export const lists = sqliteTable(
  "lists",
  {
    id: text("id").primaryKey(),
    owner_id: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    is_public: integer("is_public", { mode: "boolean" }).notNull().default(false),
    share_token: text("share_token").notNull(),
    suggestion_token: text("suggestion_token").notNull(),
    require_deploy_approval: integer("require_deploy_approval", { mode: "boolean" }).notNull().default(false),
    community_id: text("community_id").references(() => communities.id, { onDelete: "set null" }),
    folder_id: text("folder_id").references(() => folders.id, { onDelete: "set null" }),
    max_mod_age_days: integer("max_mod_age_days"),
    created_at: integer("created_at").notNull(),
    updated_at: integer("updated_at").notNull(),
  },
  (t) => [
    index("lists_owner_idx").on(t.owner_id),
    index("lists_public_idx").on(t.is_public, t.updated_at),
    uniqueIndex("lists_share_token_idx").on(t.share_token),
    uniqueIndex("lists_suggestion_token_idx").on(t.suggestion_token),
    index("lists_community_idx").on(t.community_id),
  ],
);

/** A mod in a list. No foreign key to mods: a list may hold a mod the catalog does not know yet. */
export const listItems = sqliteTable(
  "list_items",
  {
    list_id: text("list_id")
      .notNull()
      .references(() => lists.id, { onDelete: "cascade" }),
    workshop_id: text("workshop_id").notNull(),
    /** Name as given when added (import entry or catalog); the catalog's name wins when known. */
    name: text("name").notNull().default(""),
    position: integer("position").notNull(),
    pinned_version: text("pinned_version"),
    added_by: text("added_by"),
    added_at: integer("added_at").notNull(),
    /**
     * The mod's `required` flag in server.json: 1 or 0 when stated (in an imported
     * file or set by hand), null when not stated: then it follows the list's
     * modsRequiredByDefault (its remembered config's, else the game's default, true).
     */
    required: integer("required", { mode: "boolean" }),
  },
  (t) => [
    primaryKey({ columns: [t.list_id, t.workshop_id] }),
    index("list_items_position_idx").on(t.list_id, t.position),
    index("list_items_mod_idx").on(t.workshop_id),
  ],
);

/**
 * The rest of a full server config a list was imported from (docs/lists.md): every key but
 * `game.mods`, in the file's order, with password-like values taken out (`settings_json`, the
 * secret's place kept with null) and sealed with the credential key (`secrets`: AES-256-GCM of
 * `[[path, value], ...]`, additional data `list-config:<list id>`; null when there are none).
 * export/game writes it back with the list's mods.
 */
export const listServerConfigs = sqliteTable("list_server_configs", {
  list_id: text("list_id")
    .primaryKey()
    .references(() => lists.id, { onDelete: "cascade" }),
  settings_json: text("settings_json").notNull(),
  secrets: text("secrets"),
  /** Whether the file had a `game.mods` key (a config without one exports without it while the list is empty). */
  has_mods_key: integer("has_mods_key", { mode: "boolean" }).notNull().default(true),
  updated_by: text("updated_by"),
  updated_at: integer("updated_at").notNull(),
  /**
   * The file's whole text (its passwords included), sealed with the credential key (AAD
   * `list-config-document:<list id>`): what export/game edits and writes back. Null only in rows
   * written before it was kept; `settings_json` (secrets and mods null) is then their source and
   * `secrets` their sealed secrets. For rows with a document, `settings_json` is derived from it
   * (for SQL reads) and `secrets` is null.
   */
  document: text("document"),
});

/**
 * The remembered config as it was before an audited change of it (an import, the settings page,
 * forgetting it, an undo), sealed (AAD `list-config-revision:<audit id>`); null when the list had
 * none. Reverting the audit entry puts it back.
 */
export const listServerConfigRevisions = sqliteTable("list_server_config_revisions", {
  audit_id: text("audit_id")
    .primaryKey()
    .references(() => listAudit.id, { onDelete: "cascade" }),
  list_id: text("list_id")
    .notNull()
    .references(() => lists.id, { onDelete: "cascade" }),
  document: text("document"),
  created_at: integer("created_at").notNull(),
});

export const listAudit = sqliteTable(
  "list_audit",
  {
    id: text("id").primaryKey(),
    list_id: text("list_id")
      .notNull()
      .references(() => lists.id, { onDelete: "cascade" }),
    action: text("action").notNull(),
    workshop_id: text("workshop_id"),
    mod_name: text("mod_name"),
    old_value: text("old_value"),
    new_value: text("new_value"),
    user_id: text("user_id"),
    reverted: integer("reverted", { mode: "boolean" }).notNull().default(false),
    created_at: integer("created_at").notNull(),
  },
  (t) => [index("list_audit_list_idx").on(t.list_id, t.created_at)],
);

export const listSnapshots = sqliteTable(
  "list_snapshots",
  {
    id: text("id").primaryKey(),
    list_id: text("list_id")
      .notNull()
      .references(() => lists.id, { onDelete: "cascade" }),
    version_name: text("version_name"),
    tag: text("tag"),
    notes: text("notes"),
    is_release: integer("is_release", { mode: "boolean" }).notNull().default(false),
    snapshot_json: text("snapshot_json").notNull(),
    created_by: text("created_by"),
    created_at: integer("created_at").notNull(),
  },
  (t) => [index("list_snapshots_list_idx").on(t.list_id, t.created_at)],
);

export const listPins = sqliteTable(
  "list_pins",
  {
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    list_id: text("list_id")
      .notNull()
      .references(() => lists.id, { onDelete: "cascade" }),
    created_at: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.list_id] })],
);

