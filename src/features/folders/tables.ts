// A user's folders of lists (the folders feature).
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";

export const folders = sqliteTable(
  "folders",
  {
    id: text("id").primaryKey(),
    owner_id: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    created_at: integer("created_at").notNull(),
  },
  (t) => [index("folders_owner_idx").on(t.owner_id)],
);
