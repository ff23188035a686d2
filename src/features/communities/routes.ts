// Communities: a group of people, lists, servers and permission groups, with a unique slug used
// in its metrics path (/community/:slug/metrics). Their tables live with the lists
// (lists/tables.ts), which reference them.
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../deps";
import { authPlugin } from "../../shared/auth";
import { AppError } from "../../shared/errors";
import { errorBody, name, text2000 } from "../../shared/schemas";
import { newId } from "../../shared/ids";
import { toIso } from "../../shared/time";
import { uniqueSlug } from "./slug";

const communityOut = z.object({
  id: z.string(),
  community_id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  owner_id: z.string(),
  role: z.string(),
  created_at: z.string(),
});

const communityPublicOut = z.object({
  id: z.string(),
  community_id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  member_count: z.number(),
  created_at: z.string(),
});

type CommunityRow = { id: string; name: string; slug: string; description: string; owner_id: string; role: string; created_at: number };
const communityView = (r: CommunityRow) => ({ ...r, community_id: r.id, created_at: toIso(r.created_at) });

export const communitiesRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1", tags: ["communities"] })
    .use(authPlugin(deps))
    .get(
      "/communities",
      ({ user }) =>
        (
          deps.sqlite
            .query(
              `SELECT c.id, c.name, c.slug, c.description, c.owner_id, c.created_at,
                      CASE WHEN c.owner_id = $u THEN 'owner' ELSE COALESCE(m.role, 'member') END AS role
               FROM communities c LEFT JOIN community_members m ON m.community_id = c.id AND m.user_id = $u
               WHERE c.owner_id = $u OR m.user_id IS NOT NULL ORDER BY c.name, c.id`,
            )
            .all({ u: user.id }) as CommunityRow[]
        ).map(communityView),
      { auth: true, response: { 200: z.array(communityOut), 401: errorBody }, detail: { summary: "Communities the caller belongs to" } },
    )
    .get(
      "/communities/:id",
      ({ params }) => {
        const r = deps.sqlite
          .query(
            `SELECT c.id, c.name, c.slug, c.description, c.created_at,
                    (SELECT count(*) FROM community_members m WHERE m.community_id = c.id) AS member_count
             FROM communities c WHERE c.id = ? OR c.slug = ?`,
          )
          .get(params.id, params.id) as { id: string; name: string; slug: string; description: string; created_at: number; member_count: number } | null;
        if (!r) throw new AppError("community.not_found", "community not found");
        return { id: r.id, community_id: r.id, name: r.name, slug: r.slug, description: r.description, member_count: r.member_count, created_at: toIso(r.created_at) };
      },
      {
        params: z.object({ id: z.string() }),
        response: { 200: communityPublicOut, 404: errorBody },
        detail: { summary: "A community's public page data (by id or slug): name, slug, description, member count; its servers are /game-servers?community_id=, its public lists /lists?public=1&community_id=" },
      },
    )
    .post(
      "/communities",
      ({ user, body }) => {
        const now = deps.clock.now();
        const row = deps.db.transaction(
          () => {
            const taken = (s: string) => deps.sqlite.query("SELECT 1 FROM communities WHERE slug = ?").get(s) !== null;
            const r: CommunityRow = { id: newId(), name: body.name, slug: uniqueSlug(body.name, taken), description: body.description ?? "", owner_id: user.id, role: "owner", created_at: now };
            deps.sqlite.query("INSERT INTO communities (id, owner_id, name, slug, description, created_at) VALUES (?, ?, ?, ?, ?, ?)").run(r.id, r.owner_id, r.name, r.slug, r.description, now);
            deps.sqlite.query("INSERT INTO community_members (community_id, user_id, role, added_at) VALUES (?, ?, 'owner', ?)").run(r.id, user.id, now);
            return r;
          },
          { behavior: "immediate" },
        );
        return communityView(row);
      },
      {
        auth: true,
        body: z.object({ name, description: text2000.optional() }),
        response: { 200: communityOut, 400: errorBody, 401: errorBody },
        detail: { summary: "Create a community (slug derived from the name, unique)" },
      },
    );
