// Tags and the lists they are on (the tags feature).
import { sqliteTable, text, integer, primaryKey, index } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";
import { lists } from "../lists/tables";

export const tags = sqliteTable(
  "tags",
  {
    id: text("id").primaryKey(),
    owner_id: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    color: text("color").notNull(),
    created_at: integer("created_at").notNull(),
  },
  (t) => [index("tags_owner_idx").on(t.owner_id)],
);

export const listTags = sqliteTable(
  "list_tags",
  {
    list_id: text("list_id")
      .notNull()
      .references(() => lists.id, { onDelete: "cascade" }),
    tag_id: text("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    created_at: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.list_id, t.tag_id] }), index("list_tags_tag_idx").on(t.tag_id)],
);
