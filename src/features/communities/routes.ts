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
import * as repo from "./repository";
import type { CommunityRow } from "./repository";
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

const communityView = (r: CommunityRow) => ({ ...r, community_id: r.id, created_at: toIso(r.created_at) });

export const communitiesRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1", tags: ["communities"] })
    .use(authPlugin(deps))
    .get(
      "/communities",
      ({ user }) => repo.communitiesOf(deps.sqlite, user.id).map(communityView),
      { auth: true, response: { 200: z.array(communityOut), 401: errorBody }, detail: { summary: "Communities the caller belongs to" } },
    )
    .get(
      "/communities/:id",
      ({ params }) => {
        const r = repo.publicCommunity(deps.sqlite, params.id);
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
            const taken = (s: string) => repo.slugTaken(deps.sqlite, s);
            const r: CommunityRow = { id: newId(), name: body.name, slug: uniqueSlug(body.name, taken), description: body.description ?? "", owner_id: user.id, role: "owner", created_at: now };
            repo.insertCommunity(deps.sqlite, r);
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
