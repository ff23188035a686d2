import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../deps";
import { authPlugin, issueToken, userById } from "../../shared/auth";
import { AppError } from "../../shared/errors";
import { name, errorBody, okBody, password, queryBool } from "../../shared/schemas";
import { toIso, toIsoOrNull } from "../../shared/time";
import * as repo from "./repository";
import { createApiKey, deleteAccount } from "./service";
import { adminAct, adminAuditLog, changePassword, listAccounts } from "./accounts";

const apiKeyView = z.object({ id: z.string(), name: z.string(), prefix: z.string(), created_at: z.string(), last_used_at: z.string().nullable() });
const adminUserView = z.object({
  id: z.string(),
  email: z.string().nullable(),
  display_name: z.string(),
  role: z.enum(["user", "admin"]),
  is_approved: z.boolean(),
  email_verified: z.boolean(),
  /** pending (waiting for approval), active, disabled */
  state: z.enum(["pending", "active", "disabled"]),
  last_login_at: z.string().nullable(),
  created_at: z.string(),
});

export const usersRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1", tags: ["account"] })
    .use(authPlugin(deps))
    .get(
      "/users/search",
      ({ query }) => {
        return { users: repo.searchUsers(deps.db, query.q.trim()) };
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
        repo.setDisplayName(deps.db, user.id, body.display_name, deps.clock.now());
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
        repo
          .apiKeysOf(deps.db, user.id)
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
        if (!repo.deleteApiKey(deps.db, user.id, params.id)) throw new AppError("api_key.not_found", "api key not found");
        set.status = 204;
      },
      { auth: true, params: z.object({ id: z.string() }), detail: { summary: "Revoke an API key" } },
    )
    .get("/admin/users", ({ query }) => ({ users: listAccounts(deps, { pending: query.pending, limit: query.limit }) }), {
      admin: true,
      query: z.object({ pending: queryBool.optional(), limit: z.coerce.number().int().min(1).max(1000).default(200) }),
      response: { 200: z.object({ users: z.array(adminUserView) }) },
      detail: { summary: "Accounts with role, state (pending, active, disabled) and last sign-in, newest first (?pending=1: waiting for approval) (Admin)" },
    })
    .post("/admin/users/:id/approve", ({ user, params }) => (adminAct(deps, user.id, params.id, "approve"), { ok: true }), {
      admin: true,
      params: z.object({ id: z.string() }),
      response: { 200: okBody, 404: errorBody },
      detail: { summary: "Approve an account (Admin; audited)" },
    })
    .post("/admin/users/:id/disable", ({ user, params }) => adminAct(deps, user.id, params.id, "disable")!, {
      admin: true,
      params: z.object({ id: z.string() }),
      response: { 200: adminUserView, 404: errorBody, 409: errorBody },
      detail: { summary: "Disable an account: it cannot sign in, its tokens and keys are refused (Admin; audited; never yourself or the last admin)" },
    })
    .post("/admin/users/:id/enable", ({ user, params }) => adminAct(deps, user.id, params.id, "enable")!, {
      admin: true,
      params: z.object({ id: z.string() }),
      response: { 200: adminUserView, 404: errorBody },
      detail: { summary: "Enable a disabled account again (Admin; audited)" },
    })
    .put("/admin/users/:id/role", ({ user, params, body }) => adminAct(deps, user.id, params.id, body.role === "admin" ? "make_admin" : "unmake_admin")!, {
      admin: true,
      params: z.object({ id: z.string() }),
      body: z.object({ role: z.enum(["user", "admin"], { error: "must be user or admin" }) }),
      response: { 200: adminUserView, 400: errorBody, 404: errorBody, 409: errorBody },
      detail: { summary: "Make an account admin or take it back (Admin; audited; never the last admin)" },
    })
    .delete(
      "/admin/users/:id",
      ({ user, params, set }) => {
        adminAct(deps, user.id, params.id, "delete");
        set.status = 204;
      },
      { admin: true, params: z.object({ id: z.string() }), detail: { summary: "Delete an account and everything it owns (Admin; audited; never yourself or the last admin)" } },
    )
    .get("/admin/audit", ({ query }) => adminAuditLog(deps, query.limit), {
      admin: true,
      query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(200) }),
      response: {
        200: z.array(
          z.object({
            id: z.string(),
            action: z.enum(["approve", "disable", "enable", "delete", "make_admin", "unmake_admin"]),
            target_id: z.string(),
            target: z.string(),
            actor_id: z.string().nullable(),
            actor_name: z.string().nullable(),
            created_at: z.string(),
          }),
        ),
      },
      detail: { summary: "What admins did to accounts, newest first (Admin)" },
    })
    .post(
      "/settings/password",
      async ({ user, body }) => {
        await changePassword(deps, user.id, body.current_password, body.new_password);
        // This session goes on with a fresh token; every other one is signed out.
        return { token: await issueToken(deps, userById(deps, user.id)!) };
      },
      {
        authAny: true,
        body: z.object({ current_password: z.string({ error: "current_password: required" }).min(1, { message: "required" }), new_password: password }),
        response: { 200: z.object({ token: z.string() }), 400: errorBody, 401: errorBody, 403: errorBody, 409: errorBody },
        detail: { summary: "Change the password (with the current one); every other session is signed out, this one gets a fresh token" },
      },
    );
