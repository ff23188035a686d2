// Tags: everyone's tags (public), the caller's own, and their assignment to lists.
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../deps";
import { authPlugin } from "../../shared/auth";
import { AppError } from "../../shared/errors";
import { errorBody, name, uuid } from "../../shared/schemas";
import { newId } from "../../shared/ids";
import { toIso } from "../../shared/time";
import { requireListOwner, requireListRead, resolveListAccess } from "../lists";
import * as repo from "./repository";
import type { TagRow } from "./repository";

const color = z
  .string({ error: "must be a hex colour like #1a2b3c" })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, { message: "must be a hex colour like #1a2b3c" })
  .transform((v) => v.toLowerCase());

export const tagBody = z.object({ name, color });
export const tagOut = z.object({ id: z.string(), name: z.string(), color: z.string(), owner_id: z.string(), created_at: z.string() });
const listTagOut = z.object({ id: z.string(), name: z.string(), color: z.string() });

const out = (r: TagRow) => ({ id: r.id, name: r.name, color: r.color, owner_id: r.owner_id, created_at: toIso(r.created_at) });
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

export const tagsRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1", tags: ["tags"] })
    .use(authPlugin(deps))
    .get("/tags", () => repo.allTags(deps.sqlite).map(out), {
      response: { 200: z.array(tagOut) },
      detail: { summary: "All tags" },
    })
    .get("/tags/mine", ({ user }) => repo.tagsOf(deps.sqlite, user.id).map(out), {
      auth: true,
      response: { 200: z.array(tagOut), 401: errorBody },
      detail: { summary: "The caller's tags" },
    })
    .post(
      "/tags/mine",
      ({ user, body }) => {
        if (repo.ownerHasTagNamed(deps.sqlite, user.id, body.name)) throw new AppError("tag.already_exists", "tag already exists");
        const row: TagRow = { id: newId(), name: body.name, color: body.color, owner_id: user.id, created_at: deps.clock.now() };
        repo.insertTag(deps.sqlite, row);
        return out(row);
      },
      { auth: true, body: tagBody, response: { 200: tagOut, ...errors }, detail: { summary: "Create a tag (colour #rrggbb)" } },
    )
    .delete(
      "/tags/mine/:tagID",
      ({ user, params, set }) => {
        if (!repo.deleteTag(deps.sqlite, params.tagID, user.id)) throw new AppError("tag.not_found", "tag not found");
        set.status = 204;
      },
      { auth: true, params: z.object({ tagID: z.string() }), detail: { summary: "Delete one of the caller's tags (also from every list)" } },
    )
    .get(
      "/lists/:id/tags",
      ({ params, query, user }) => {
        requireListRead(resolveListAccess(deps, params.id, user, query.share));
        return repo.tagsOfList(deps.sqlite, params.id);
      },
      {
        optionalAuth: true,
        params: z.object({ id: z.string() }),
        query: z.object({ share: z.string().optional() }),
        response: { 200: z.array(listTagOut), 404: errorBody },
        detail: { summary: "Tags assigned to the list" },
      },
    )
    .post(
      "/lists/:id/tags",
      ({ params, body, user }) => {
        requireListOwner(resolveListAccess(deps, params.id, user));
        const tag = repo.tagOfId(deps.sqlite, body.tag_id);
        if (!tag) throw new AppError("tag.not_found", "tag not found");
        if (!repo.assignTag(deps.sqlite, params.id, tag.id, deps.clock.now())) throw new AppError("tag.already_assigned", "tag already assigned to the list");
        return tag;
      },
      { auth: true, params: z.object({ id: z.string() }), body: z.object({ tag_id: uuid }), response: { 200: listTagOut, ...errors }, detail: { summary: "Assign a tag to the list" } },
    )
    .delete(
      "/lists/:id/tags/:tagID",
      ({ params, user, set }) => {
        requireListOwner(resolveListAccess(deps, params.id, user));
        if (!repo.unassignTag(deps.sqlite, params.id, params.tagID)) throw new AppError("tag.not_assigned", "tag not assigned to the list");
        set.status = 204;
      },
      { auth: true, params: z.object({ id: z.string(), tagID: z.string() }), detail: { summary: "Remove a tag from the list" } },
    );
