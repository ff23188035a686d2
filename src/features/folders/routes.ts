// Folders: a user's own grouping of lists. (Communities: features/communities/routes.ts.)
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../deps";
import { authPlugin } from "../../shared/auth";
import { AppError } from "../../shared/errors";
import { errorBody, name } from "../../shared/schemas";
import { newId } from "../../shared/ids";
import { toIso } from "../../shared/time";
import * as repo from "./repository";

const folderOut = z.object({ id: z.string(), name: z.string(), list_count: z.number(), created_at: z.string() });
export const foldersRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1", tags: ["folders"] })
    .use(authPlugin(deps))
    .get(
      "/folders",
      ({ user }) => repo.foldersOf(deps.sqlite, user.id).map((f) => ({ ...f, created_at: toIso(f.created_at) })),
      { auth: true, response: { 200: z.array(folderOut), 401: errorBody }, detail: { summary: "The caller's folders" } },
    )
    .post(
      "/folders",
      ({ user, body }) => {
        const row = { id: newId(), name: body.name, created_at: deps.clock.now() };
        repo.insertFolder(deps.sqlite, row.id, user.id, row.name, row.created_at);
        return { ...row, list_count: 0, created_at: toIso(row.created_at) };
      },
      { auth: true, body: z.object({ name }), response: { 200: folderOut, 400: errorBody, 401: errorBody }, detail: { summary: "Create a folder" } },
    )
    .delete(
      "/folders/:id",
      ({ user, params, set }) => {
        // Lists in the folder keep existing; their folder_id is cleared by the foreign key.
        if (!repo.deleteFolder(deps.sqlite, params.id, user.id)) throw new AppError("folder.not_found", "folder not found");
        set.status = 204;
      },
      { auth: true, params: z.object({ id: z.string() }), detail: { summary: "Delete one of the caller's folders (its lists stay)" } },
    );
