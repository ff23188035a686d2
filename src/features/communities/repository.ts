// The communities feature's SQL statements (communities, community_members). Each is
// `sqlite.query`, compiled once per connection and kept by bun:sqlite under its text.
import type { Database } from "bun:sqlite";

/** A community as one of its members sees it, with their role. */
export type CommunityRow = { id: string; name: string; slug: string; description: string; owner_id: string; role: string; created_at: number };
/** A community as anyone sees it. */
export type PublicCommunityRow = { id: string; name: string; slug: string; description: string; created_at: number; member_count: number };

/** The communities the user owns or belongs to, by name. */
export const communitiesOf = (sqlite: Database, userId: string) =>
  sqlite
    .query(
      `SELECT c.id, c.name, c.slug, c.description, c.owner_id, c.created_at,
              CASE WHEN c.owner_id = $u THEN 'owner' ELSE COALESCE(m.role, 'member') END AS role
       FROM communities c LEFT JOIN community_members m ON m.community_id = c.id AND m.user_id = $u
       WHERE c.owner_id = $u OR m.user_id IS NOT NULL ORDER BY c.name, c.id`,
    )
    .all({ u: userId }) as CommunityRow[];

/** A community by id or slug, with its member count. */
export const publicCommunity = (sqlite: Database, idOrSlug: string) =>
  sqlite
    .query(
      `SELECT c.id, c.name, c.slug, c.description, c.created_at,
              (SELECT count(*) FROM community_members m WHERE m.community_id = c.id) AS member_count
       FROM communities c WHERE c.id = ? OR c.slug = ?`,
    )
    .get(idOrSlug, idOrSlug) as PublicCommunityRow | null;

export const slugTaken = (sqlite: Database, slug: string) => sqlite.query("SELECT 1 FROM communities WHERE slug = ?").get(slug) !== null;

/** A new community and its owner as its first member (the caller holds the transaction). */
export function insertCommunity(sqlite: Database, r: Omit<CommunityRow, "role">) {
  sqlite.query("INSERT INTO communities (id, owner_id, name, slug, description, created_at) VALUES (?, ?, ?, ?, ?, ?)").run(r.id, r.owner_id, r.name, r.slug, r.description, r.created_at);
  sqlite.query("INSERT INTO community_members (community_id, user_id, role, added_at) VALUES (?, ?, 'owner', ?)").run(r.id, r.owner_id, r.created_at);
}
