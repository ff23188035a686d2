// Who besides the primary owner may do what on a list: co-owners, collaborators, groups,
// blocks; and suggestions with their votes and form fields.
import { sqliteTable, text, integer, primaryKey, index } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";
import { lists } from "../lists/tables";
import { communities } from "../communities/tables";

const userRef = () => users.id;
const listRef = () => lists.id;

export const listOwners = sqliteTable(
  "list_owners",
  {
    list_id: text("list_id").notNull().references(listRef, { onDelete: "cascade" }),
    user_id: text("user_id").notNull().references(userRef, { onDelete: "cascade" }),
    added_at: integer("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.list_id, t.user_id] }), index("list_owners_user_idx").on(t.user_id)],
);

export const listCollaborators = sqliteTable(
  "list_collaborators",
  {
    list_id: text("list_id").notNull().references(listRef, { onDelete: "cascade" }),
    user_id: text("user_id").notNull().references(userRef, { onDelete: "cascade" }),
    can_add: integer("can_add", { mode: "boolean" }).notNull().default(true),
    can_remove: integer("can_remove", { mode: "boolean" }).notNull().default(false),
    can_deploy: integer("can_deploy", { mode: "boolean" }).notNull().default(false),
    added_at: integer("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.list_id, t.user_id] }), index("list_collaborators_user_idx").on(t.user_id)],
);

export const permissionGroups = sqliteTable(
  "permission_groups",
  {
    id: text("id").primaryKey(),
    owner_id: text("owner_id").notNull().references(userRef, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    can_add: integer("can_add", { mode: "boolean" }).notNull().default(false),
    can_remove: integer("can_remove", { mode: "boolean" }).notNull().default(false),
    can_deploy: integer("can_deploy", { mode: "boolean" }).notNull().default(false),
    community_id: text("community_id").references(() => communities.id, { onDelete: "set null" }),
    created_at: integer("created_at").notNull(),
    updated_at: integer("updated_at").notNull(),
  },
  (t) => [index("permission_groups_owner_idx").on(t.owner_id)],
);

const groupRef = () => permissionGroups.id;

export const groupMembers = sqliteTable(
  "group_members",
  {
    group_id: text("group_id").notNull().references(groupRef, { onDelete: "cascade" }),
    user_id: text("user_id").notNull().references(userRef, { onDelete: "cascade" }),
    added_at: integer("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.group_id, t.user_id] }), index("group_members_user_idx").on(t.user_id)],
);

export const groupOwners = sqliteTable(
  "group_owners",
  {
    group_id: text("group_id").notNull().references(groupRef, { onDelete: "cascade" }),
    user_id: text("user_id").notNull().references(userRef, { onDelete: "cascade" }),
    added_at: integer("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.group_id, t.user_id] }), index("group_owners_user_idx").on(t.user_id)],
);

/** A group assigned to a list; a null flag inherits the group's default. */
export const listGroups = sqliteTable(
  "list_groups",
  {
    list_id: text("list_id").notNull().references(listRef, { onDelete: "cascade" }),
    group_id: text("group_id").notNull().references(groupRef, { onDelete: "cascade" }),
    can_add: integer("can_add", { mode: "boolean" }),
    can_remove: integer("can_remove", { mode: "boolean" }),
    can_deploy: integer("can_deploy", { mode: "boolean" }),
    added_at: integer("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.list_id, t.group_id] }), index("list_groups_group_idx").on(t.group_id)],
);

export const listBlocks = sqliteTable(
  "list_blocks",
  {
    list_id: text("list_id").notNull().references(listRef, { onDelete: "cascade" }),
    user_id: text("user_id").notNull().references(userRef, { onDelete: "cascade" }),
    blocked_by: text("blocked_by"),
    created_at: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.list_id, t.user_id] })],
);

export const formFields = sqliteTable(
  "form_fields",
  {
    id: text("id").primaryKey(),
    list_id: text("list_id").notNull().references(listRef, { onDelete: "cascade" }),
    label: text("label").notNull(),
    type: text("type", { enum: ["text", "checkbox", "select"] }).notNull(),
    required: integer("required", { mode: "boolean" }).notNull().default(false),
    options_json: text("options_json").notNull().default("[]"),
    position: integer("position").notNull().default(0),
    created_at: integer("created_at").notNull(),
  },
  (t) => [index("form_fields_list_idx").on(t.list_id, t.position)],
);

export const suggestions = sqliteTable(
  "suggestions",
  {
    id: text("id").primaryKey(),
    list_id: text("list_id").notNull().references(listRef, { onDelete: "cascade" }),
    user_id: text("user_id").notNull().references(userRef, { onDelete: "cascade" }),
    workshop_id: text("workshop_id").notNull(),
    reason: text("reason").notNull().default(""),
    form_answers_json: text("form_answers_json").notNull().default("{}"),
    status: text("status", { enum: ["pending", "accepted", "rejected"] }).notNull().default("pending"),
    note: text("note"),
    reviewed_by: text("reviewed_by"),
    reviewed_at: integer("reviewed_at"),
    created_at: integer("created_at").notNull(),
  },
  (t) => [index("suggestions_list_idx").on(t.list_id, t.status, t.created_at)],
);

export const suggestionVotes = sqliteTable(
  "suggestion_votes",
  {
    suggestion_id: text("suggestion_id")
      .notNull()
      .references(() => suggestions.id, { onDelete: "cascade" }),
    user_id: text("user_id").notNull().references(userRef, { onDelete: "cascade" }),
    created_at: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.suggestion_id, t.user_id] })],
);
