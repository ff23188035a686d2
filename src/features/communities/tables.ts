// Communities and their members (the communities feature). Lists and live servers refer to them.
import { sqliteTable, text, integer, primaryKey, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";

export const communities = sqliteTable(
  "communities",
  {
    id: text("id").primaryKey(),
    owner_id: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description").notNull().default(""),
    created_at: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("communities_slug_idx").on(t.slug), index("communities_owner_idx").on(t.owner_id)],
);

export const communityMembers = sqliteTable(
  "community_members",
  {
    community_id: text("community_id")
      .notNull()
      .references(() => communities.id, { onDelete: "cascade" }),
    user_id: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "member"] }).notNull().default("member"),
    added_at: integer("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.community_id, t.user_id] }), index("community_members_user_idx").on(t.user_id)],
);
