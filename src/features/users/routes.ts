import { Elysia } from "elysia";
import { z } from "zod";
import { and, desc, eq, like, or, sql } from "drizzle-orm";
import type { Deps } from "../../deps";
import { authPlugin } from "../../shared/auth";
import { AppError } from "../../shared/errors";
import { name, errorBody, okBody, queryBool } from "../../shared/schemas";
import { toIso, toIsoOrNull } from "../../shared/time";
import { users, apiKeys } from "./tables";
import { createApiKey, deleteAccount } from "./service";

const apiKeyView = z.object({ id: z.string(), name: z.string(), prefix: z.string(), created_at: z.string(), last_used_at: z.string().nullable() });
const adminUserView = z.object({
  id: z.string(),
  email: z.string().nullable(),
  display_name: z.string(),
  role: z.enum(["user", "admin"]),
  is_approved: z.boolean(),
  email_verified: z.boolean(),
  created_at: z.string(),
});

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => "\\" + c);

export const usersRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1", tags: ["account"] })
    .use(authPlugin(deps))
    .get(
      "/users/search",
      ({ query }) => {
        const q = query.q.trim();
        const pattern = `%${escapeLike(q)}%`;
        const rows = deps.db
          .select({ id: users.id, display_name: users.display_name })
          .from(users)
          .where(or(sql`${users.display_name} LIKE ${pattern} ESCAPE '\\'`, eq(users.email, q.toLowerCase())))
          .orderBy(users.display_name)
          .limit(20)
          .all();
        return { users: rows };
      },
      {
        auth: true,
        query: z.object({ q: z.string({ error: "must be at least 2 characters" }).refine((v) => v.trim().length >= 2, { message: "must be at least 2 characters" }) }),
        response: { 200: z.object({ users: z.array(z.object({ id: z.string(), display_name: z.string() })) }), 400: errorBody, 401: errorBody },
        detail: { summary: "Find users by display name (or exact e-mail)" },
      },
    )
    .put(
      "/settings/display-name",
      ({ user, body, set }) => {
        deps.db.update(users).set({ display_name: body.display_name, updated_at: deps.clock.now() }).where(eq(users.id, user.id)).run();
        set.status = 204;
      },
      { auth: true, body: z.object({ display_name: name }), detail: { summary: "Change the display name" } },
    )
    .delete(
      "/settings/account",
      ({ user, set }) => {
        deleteAccount(deps, user.id);
        set.status = 204;
      },
      { authAny: true, detail: { summary: "Delete the account and everything it owns" } },
    )
    .get(
      "/api-keys",
      ({ user }) =>
        deps.db
          .select()
          .from(apiKeys)
          .where(eq(apiKeys.user_id, user.id))
          .orderBy(desc(apiKeys.created_at))
          .all()
          .map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, created_at: toIso(k.created_at), last_used_at: toIsoOrNull(k.last_used_at) })),
      { auth: true, response: { 200: z.array(apiKeyView) }, detail: { summary: "The caller's API keys (never the key itself)" } },
    )
    .post(
      "/api-keys",
      ({ user, body }) => {
        const k = createApiKey(deps, user.id, body.name);
        return { ...k, created_at: toIso(k.created_at) };
      },
      {
        auth: true,
        body: z.object({ name }),
        response: { 200: z.object({ id: z.string(), name: z.string(), key: z.string(), prefix: z.string(), created_at: z.string() }) },
        detail: { summary: "Create an API key; the key is shown only in this answer" },
      },
    )
    .delete(
      "/api-keys/:id",
      ({ user, params, set }) => {
        const r = deps.db.delete(apiKeys).where(and(eq(apiKeys.id, params.id), eq(apiKeys.user_id, user.id))).returning({ id: apiKeys.id }).all();
        if (r.length === 0) throw new AppError(404, "api key not found");
        set.status = 204;
      },
      { auth: true, params: z.object({ id: z.string() }), detail: { summary: "Revoke an API key" } },
    )
    .get(
      "/admin/users",
      ({ query }) => {
        const rows = deps.db
          .select()
          .from(users)
          .where(query.pending ? eq(users.is_approved, false) : undefined)
          .orderBy(desc(users.created_at))
          .limit(query.limit)
          .all();
        return {
          users: rows.map((u) => ({
            id: u.id,
            email: u.email,
            display_name: u.display_name,
            role: u.role,
            is_approved: u.is_approved,
            email_verified: u.email_verified,
            created_at: toIso(u.created_at),
          })),
        };
      },
      {
        admin: true,
        query: z.object({ pending: queryBool.optional(), limit: z.coerce.number().int().min(1).max(1000).default(200) }),
        response: { 200: z.object({ users: z.array(adminUserView) }) },
        detail: { summary: "Accounts (?pending=1: waiting for approval) (Admin)" },
      },
    )
    .post(
      "/admin/users/:id/approve",
      ({ params }) => {
        const r = deps.db.update(users).set({ is_approved: true, updated_at: deps.clock.now() }).where(eq(users.id, params.id)).returning({ id: users.id }).all();
        if (r.length === 0) throw new AppError(404, "user not found");
        return { ok: true };
      },
      { admin: true, params: z.object({ id: z.string() }), response: { 200: okBody, 404: errorBody }, detail: { summary: "Approve an account (Admin)" } },
    );
