// Templates, their mods and the lists subscribed to them (the templates feature).
import { sqliteTable, text, integer, primaryKey, index } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";
import { lists } from "../lists/tables";

export const templates = sqliteTable(
  "templates",
  {
    id: text("id").primaryKey(),
    owner_id: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    source_list_id: text("source_list_id").references(() => lists.id, { onDelete: "set null" }),
    created_at: integer("created_at").notNull(),
    updated_at: integer("updated_at").notNull(),
  },
  (t) => [index("templates_owner_idx").on(t.owner_id)],
);

export const templateMods = sqliteTable(
  "template_mods",
  {
    template_id: text("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    workshop_id: text("workshop_id").notNull(),
    name: text("name").notNull().default(""),
    version: text("version"),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.template_id, t.workshop_id] })],
);

export const templateLinks = sqliteTable(
  "template_links",
  {
    list_id: text("list_id")
      .notNull()
      .references(() => lists.id, { onDelete: "cascade" }),
    template_id: text("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    created_at: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.list_id, t.template_id] }), index("template_links_template_idx").on(t.template_id)],
);
