// Templates: starter mod sets made from lists; lists subscribe by importing one.
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../deps";
import { authPlugin } from "../../shared/auth";
import { AppError } from "../../shared/errors";
import { errorBody, name, text2000, uuid } from "../../shared/schemas";
import { requireListMember, requireListRead, requireListRight, resolveListAccess } from "../lists";
import * as svc from "./service";

const templateMod = z.object({ workshop_id: z.string(), name: z.string(), version: z.string().nullable() });
export const templateOut = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  owner_id: z.string(),
  source_list_id: z.string().nullable(),
  mod_count: z.number(),
  mods: z.array(templateMod),
  created_at: z.string(),
  updated_at: z.string(),
});
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: errorBody };

export const templatesRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1", tags: ["templates"] })
    .use(authPlugin(deps))
    .get("/templates", () => svc.listTemplates(deps), { response: { 200: z.array(templateOut) }, detail: { summary: "All starter templates" } })
    .post(
      "/templates",
      ({ user, body }) => {
        requireListRead(resolveListAccess(deps, body.list_id, user));
        return svc.createTemplate(deps, user.id, body);
      },
      {
        auth: true,
        body: z.object({ list_id: uuid, name, description: text2000.optional() }),
        response: { 200: templateOut, ...errors },
        detail: { summary: "Create a template from a list the caller can read" },
      },
    )
    .delete(
      "/templates/:id",
      ({ params, set }) => {
        svc.deleteTemplate(deps, params.id);
        set.status = 204;
      },
      { admin: true, params: z.object({ id: z.string() }), detail: { summary: "Delete a template (admin)" } },
    )
    .post(
      "/templates/:id/push",
      ({ params, user }) => {
        const t = svc.getTemplate(deps, params.id);
        if (t.owner_id !== user.id) throw new AppError("template.forbidden", "no permission");
        return svc.pushTemplate(deps, params.id, user.id);
      },
      {
        auth: true,
        params: z.object({ id: z.string() }),
        response: {
          200: z.object({
            ok: z.boolean(),
            lists: z.number(),
            results: z.array(z.object({ list_id: z.string(), ok: z.boolean(), added: z.number(), removed: z.number(), version_changed: z.number(), error: z.string().optional() })),
          }),
          ...errors,
        },
        detail: { summary: "Refresh the template from its source list and apply it to every subscribed list (template owner)" },
      },
    )
    .post(
      "/lists/:id/import-template/:tid",
      ({ params, user }) => {
        requireListRight(resolveListAccess(deps, params.id, user), "add");
        return svc.importTemplate(deps, params.id, params.tid, user.id);
      },
      {
        auth: true,
        params: z.object({ id: z.string(), tid: z.string() }),
        response: { 200: z.object({ ok: z.boolean(), added: z.number(), removed: z.number(), version_changed: z.number() }), ...errors },
        detail: { summary: "Add all template mods to the list and subscribe it" },
      },
    )
    .get(
      "/lists/:id/template-links",
      ({ params, user }) => {
        requireListMember(resolveListAccess(deps, params.id, user));
        return svc.templateLinks(deps, params.id);
      },
      {
        auth: true,
        params: z.object({ id: z.string() }),
        response: { 200: z.array(z.object({ template_id: z.string(), name: z.string(), description: z.string(), mod_count: z.number(), created_at: z.string() })), ...errors },
        detail: { summary: "Templates the list is subscribed to" },
      },
    )
    .delete(
      "/lists/:id/template-links/:templateID",
      ({ params, user, set }) => {
        requireListMember(resolveListAccess(deps, params.id, user));
        svc.unlinkTemplate(deps, params.id, params.templateID);
        set.status = 204;
      },
      { auth: true, params: z.object({ id: z.string(), templateID: z.string() }), detail: { summary: "Remove a subscription" } },
    );
