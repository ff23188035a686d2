// HTTP surface of mod lists: CRUD, mods, import/export, snapshots, audit. (GET /lists/:id/check,
// which may check against a server, is answered by the servers feature: list-check-routes.ts.)
// Paths, guards and schemas only; the rules live in service.ts and the files beside it (mods,
// import, export, snapshots, audit, check), permissions in access.ts.
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../deps";
import { authPlugin } from "../../shared/auth";
import { AppError } from "../../shared/errors";
import { errorBody, okBody } from "../../shared/schemas";
import { requireListEdit, requireListMember, requireListOwner, requireListPrimary, requireListRead, requireListRight, requireSnapshotManage, type ListAccess } from "./access";
import * as m from "./model";
import * as audit from "./audit";
import { exportItems } from "./export";
import * as importer from "./import";
import * as mods from "./mods";
import * as svc from "./service";
import * as snapshots from "./snapshots";
import { exportFileName, exportFragment, type ExportType } from "./server-json-format";
import { setModRequired } from "./required";
import { configView, deleteConfig, gameConfigExport, listRequiredDefault, updateConfig } from "./remembered-config";

/** The response header of DELETE /lists/:id/mods/:workshopID naming the removal's audit entry. */
export const AUDIT_ENTRY_HEADER = "x-audit-entry-id";

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: errorBody };

function download(body: unknown, filename: string, extra: Record<string, string> = {}) {
  return downloadText(JSON.stringify(body, null, 2) + "\n", filename, extra);
}

function downloadText(text: string, filename: string, extra: Record<string, string> = {}) {
  return new Response(text, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      ...extra,
    },
  });
}

const SNAPSHOT_MANAGE =
  "Owners and co-owners; a collaborator only for a snapshot they took, and only while they may add or remove mods. Others who can read the list get 403.";

/** What an import route hands the importer: the body's text, its options, and whether the caller is an owner (remembered settings and secrets). */
function importRequest(a: ListAccess, body: unknown, query: { check_order?: boolean; resolve?: string; config?: "keep" | "replace" }): importer.ImportRequest {
  return { raw: rawBody(body), checkOrder: query.check_order ?? false, resolve: query.resolve, config: query.config, mayReplaceConfig: a.isOwner };
}

/** Import rights: the import may add and remove mods. */
function requireImport(a: ListAccess | null) {
  requireListRight(a, "add");
  return requireListRight(a, "remove");
}

export const listsRoutes = (deps: Deps) => {
  const get = (id: string, user: { id: string } | null | undefined, share?: string) => svc.access(deps, id, user, share);
  /** Renaming or deleting: an edit right first (403), then the snapshot (404), then owner or author (403). */
  const manageSnapshot = (access: ListAccess | null, versionId: string) => {
    const a = requireListEdit(access);
    return requireSnapshotManage(a, snapshots.getSnapshot(deps, a.list.id, versionId).created_by);
  };

  return new Elysia({ prefix: "/api/v1/lists", tags: ["lists"] })
    .use(authPlugin(deps))
    // ---- CRUD ------------------------------------------------------------------------------
    .get("", ({ query, user }) => svc.publicLists(deps, user?.id ?? null, query), {
      optionalAuth: true,
      query: m.publicListsQuery,
      response: { 200: z.array(m.listSummary), 400: errorBody },
      detail: { summary: "Public lists, most recently updated first" },
    })
    .get("/mine", ({ user }) => svc.myLists(deps, user.id), {
      auth: true,
      response: { 200: z.array(m.listSummary), 401: errorBody },
      detail: { summary: "Lists the caller owns, co-owns or collaborates on (role tells which)" },
    })
    .get("/pins", ({ user }) => svc.pinnedLists(deps, user.id), {
      auth: true,
      response: { 200: z.array(m.listSummary), 401: errorBody },
      detail: { summary: "The caller's pinned lists" },
    })
    .post("", ({ user, body }) => svc.createList(deps, user.id, body), {
      auth: true,
      body: m.createListBody,
      response: { 200: m.createdListResponse, ...errors },
      detail: { summary: "Create a list" },
    })
    .get("/:id", ({ params, query, user }) => svc.listDetail(deps, requireListRead(get(params.id, user, query.share))), {
      optionalAuth: true,
      params: m.listParams,
      query: m.shareQuery,
      response: { 200: m.listDetail, 404: errorBody },
      detail: { summary: "List detail: the list, items, tags, dependency tree, missing dependencies" },
    })
    .put(
      "/:id",
      ({ query, params, body, user, set }) => {
        requireListOwner(get(params.id, user, query.share));
        const is_public = body.is_public ?? (body.visibility ? body.visibility === "public" : undefined);
        svc.updateList(deps, params.id, { ...body, is_public });
        set.status = 204;
      },
      { auth: true, params: m.listParams, body: m.updateListBody, detail: { summary: "Update name, description, visibility, max_mod_age_days" } },
    )
    .delete(
      "/:id",
      ({ query, params, user, set }) => {
        requireListPrimary(get(params.id, user, query.share));
        svc.deleteList(deps, params.id);
        set.status = 204;
      },
      { auth: true, params: m.listParams, detail: { summary: "Delete the list with its items, snapshots and audit log (primary owner)" } },
    )
    .patch(
      "/:id/community",
      ({ query, params, body, user, set }) => {
        requireListOwner(get(params.id, user, query.share));
        svc.setCommunity(deps, params.id, user.id, body.community_id || null);
        set.status = 204;
      },
      { auth: true, params: m.listParams, body: m.communityBody, detail: { summary: "Assign (or with null unassign) a community" } },
    )
    .patch(
      "/:id/folder",
      ({ query, params, body, user, set }) => {
        requireListOwner(get(params.id, user, query.share));
        svc.setFolder(deps, params.id, user.id, body.folder_id || null);
        set.status = 204;
      },
      { auth: true, params: m.listParams, body: m.folderBody, detail: { summary: "Assign (or with null unassign) one of the caller's folders" } },
    )
    .post(
      "/:id/pin",
      ({ query, params, user }) => {
        requireListRead(get(params.id, user, query.share));
        return svc.togglePin(deps, params.id, user.id);
      },
      { auth: true, params: m.listParams, response: { 200: z.object({ pinned: z.boolean() }), ...errors }, detail: { summary: "Toggle the caller's pin" } },
    )
    .post(
      "/:id/share-token/reset",
      ({ query, params, user }) => {
        requireListOwner(get(params.id, user, query.share));
        return { share_token: svc.resetToken(deps, params.id, "share_token") };
      },
      { auth: true, params: m.listParams, response: { 200: z.object({ share_token: z.string() }), ...errors }, detail: { summary: "New share token; the old one stops working" } },
    )
    .post(
      "/:id/suggestion-token/reset",
      ({ query, params, user }) => {
        requireListOwner(get(params.id, user, query.share));
        return { suggestion_token: svc.resetToken(deps, params.id, "suggestion_token") };
      },
      { auth: true, params: m.listParams, response: { 200: z.object({ suggestion_token: z.string() }), ...errors }, detail: { summary: "New suggestion token" } },
    )
    // ---- mods ------------------------------------------------------------------------------
    .post(
      "/:id/mods",
      ({ query, params, body, user }) => {
        requireListRight(get(params.id, user, query.share), "add");
        const r = mods.addModsToList(deps, { listId: params.id, userId: user.id, workshopIds: [body.workshop_id], source: "manual", withDependencies: body.with_dependencies });
        return { ok: true, added: r.added };
      },
      {
        auth: true,
        params: m.listParams,
        body: m.addModBody,
        response: { 200: m.addModResponse, ...errors },
        detail: { summary: "Add a mod (with_dependencies also adds its missing dependencies); unknown mods are scraped" },
      },
    )
    .post(
      "/:id/mods/reorder",
      ({ query, params, body, user }) => {
        requireListRight(get(params.id, user, query.share), "add");
        mods.reorderMods(deps, params.id, user.id, body.order);
        return { ok: true };
      },
      { auth: true, params: m.listParams, body: m.reorderBody, response: { 200: okBody, ...errors }, detail: { summary: "Save the manual order (a permutation of the list's mods)" } },
    )
    .delete(
      "/:id/mods/:workshopID",
      ({ query, params, user, set }) => {
        requireListRight(get(params.id, user, query.share), "remove");
        set.headers[AUDIT_ENTRY_HEADER] = mods.removeMod(deps, params.id, user.id, params.workshopID);
        set.status = 204;
      },
      {
        auth: true,
        params: m.listModParams,
        detail: {
          summary: "Remove a mod",
          description: `204 with no body; the ${AUDIT_ENTRY_HEADER} response header holds the id of the removal's audit entry, so an undo posts it to /lists/:id/audit/:entryID/revert without reading the log.`,
          responses: {
            204: {
              description: "Removed",
              headers: { [AUDIT_ENTRY_HEADER]: { description: "Id of the remove_mod audit entry of this removal", schema: { type: "string" } } },
            },
          },
        },
      },
    )
    .put(
      "/:id/mods/:workshopID/version",
      ({ query, params, body, user, set }) => {
        requireListRight(get(params.id, user, query.share), "add");
        mods.setModVersion(deps, params.id, user.id, params.workshopID, body.version);
        set.status = 204;
      },
      { auth: true, params: m.listModParams, body: m.versionBody, detail: { summary: "Pin a version (null unpins)" } },
    )
    .put(
      "/:id/mods/:workshopID/required",
      ({ query, params, body, user, set }) => {
        requireListRight(get(params.id, user, query.share), "add");
        setModRequired(deps, params.id, user.id, params.workshopID, body.required);
        set.status = 204;
      },
      {
        auth: true,
        params: m.listModParams,
        body: m.requiredBody,
        detail: {
          summary: "Set a mod's server.json `required` (true or false), or with null follow the list's modsRequiredByDefault; audited as update_required",
        },
      },
    )
    .post(
      "/:id/rescrape",
      ({ query, params, user }) => {
        requireListMember(get(params.id, user, query.share));
        return mods.rescrapeList(deps, params.id, user.id);
      },
      {
        auth: true,
        params: m.listParams,
        response: { 200: z.object({ ok: z.boolean(), queued: z.number(), job_ids: z.array(z.string()) }), ...errors },
        detail: { summary: "Queue a detail scrape of every mod in the list" },
      },
    )
    // ---- import (raw text bodies: shape 3 is not JSON; the http plugin hands us the text) ----
    .post(
      "/:id/import-preview",
      ({ params, query, body, user }) => {
        const a = requireListMember(get(params.id, user, query.share));
        return importer.importPreview(deps, params.id, importRequest(a, body, query));
      },
      {
        auth: true,
        params: m.listParams,
        query: m.importQuery,
        response: { 200: m.importDiff, ...errors },
        detail: {
          summary: "Diff a server.json (any of the four shapes) against the list",
          description:
            "The body is the file's text: UTF-8 (a BOM is dropped) or UTF-16 with a BOM; `//` and `/* */` comments and trailing commas are accepted and reported in `notes`; " +
            "any other syntax error is 400 naming line and column. Every pin the catalog does not have is listed in `stale_pins` (all at once), resolved per mod with " +
            "`resolve=<workshop id>:unpinned|skip`; `required_changed` compares per-mod `required`. At most 1000 mod entries (a list's limit; more is 400 before any entry is read). " +
            "`config` says what the import does with a full config's settings: a file with only `game.mods` (the plain export) keeps the remembered settings; a full config is remembered " +
            "when the list has none, and replaces the remembered one only when an owner sends `config=replace` (`removed` names the remembered settings that would go). Secrets are compared " +
            "for owners only: anyone else sees only which secret keys the file sets. `config.problems` names what the game would refuse in the file (warnings; the import does not fail on them). " +
            "`config_changes` lists every changed, added and removed path.",
        },
      },
    )
    .post(
      "/:id/import-apply",
      ({ params, query, body, user }) => {
        const a = requireImport(get(params.id, user, query.share));
        return importer.importApplyText(deps, params.id, user.id, importRequest(a, body, query));
      },
      {
        auth: true,
        params: m.listParams,
        query: m.importQuery,
        response: { 200: m.importApplyResponse, ...errors },
        detail: {
          summary: "Apply a server.json atomically (one audit entry)",
          description:
            "Same body, `resolve` and `config` as the preview; 400 naming every stale pin left without a resolution. A full config's settings are remembered (the whole file, sealed) " +
            "as the preview's `config.action` says, audited in the one `import` entry by key (never by value), and written back by export/game.",
        },
      },
    )
    // ---- export ----------------------------------------------------------------------------
    .get(
      "/:id/export",
      ({ params, query, user }) => {
        const a = requireListRead(get(params.id, user, query.share));
        return download(
          exportFragment(exportItems(deps.sqlite, a.list.id), query.type as ExportType, listRequiredDefault(deps.sqlite, a.list.id)),
          exportFileName(a.list.name, "server"),
        );
      },
      {
        optionalAuth: true,
        params: m.listParams,
        query: m.exportQuery,
        detail: {
          summary: "Download the {game: {mods}} server.json fragment (type fixed or latest)",
          description:
            "`fixed` (default): pinned mods with their pin, unpinned mods without `version` (the server loads their newest at each start). " +
            "`latest`: every mod with the newest version the catalog knows now. `required` is written where it says something (a stated value, or false where the list's default is false).",
        },
      },
    )
    .get(
      "/:id/export/game",
      ({ params, query, user }) => {
        const a = requireListRead(get(params.id, user, query.share));
        const out = gameConfigExport(deps, a.list, exportItems(deps.sqlite, a.list.id), query.type as ExportType, a.isOwner);
        return downloadText(out.text, exportFileName(a.list.name, "config"), {
          "x-loadout-config": out.config,
          ...(out.secretsWithheld ? { "x-loadout-secrets": "withheld" } : {}),
        });
      },
      {
        optionalAuth: true,
        params: m.listParams,
        query: m.exportQuery,
        detail: {
          summary: "Download a complete dedicated-server config",
          description:
            "The file the list's settings were imported from, byte for byte (its spacing, number text, key order, line endings and BOM), with the list's mods edited into `game.mods` " +
            "(an entry of an unchanged mod keeps its text; comments and trailing commas are removed, because the game's parser refuses them); or the documented defaults when the list has none. " +
            "Its passwords are written for the list's owners only; anyone else gets them empty.",
          responses: {
            200: {
              description: "The config file",
              headers: {
                "X-Loadout-Config": {
                  description: "`imported`: the list's remembered config; `defaults`: the documented defaults (the list was not imported from a complete config)",
                  schema: { type: "string", enum: ["imported", "defaults"] },
                },
                "X-Loadout-Secrets": {
                  description: "`withheld` when the remembered config's passwords were written empty because the caller is not an owner",
                  schema: { type: "string", enum: ["withheld"] },
                },
              },
            },
          },
        },
      },
    )
    // ---- remembered server config ------------------------------------------------------------
    .get(
      "/:id/server-config",
      ({ params, query, user }) => {
        requireListOwner(get(params.id, user, query.share));
        return configView(deps, params.id);
      },
      {
        auth: true,
        params: m.listParams,
        query: m.shareQuery,
        response: { 200: m.serverConfigOut, ...errors },
        detail: { summary: "The list's remembered server config: settings without mods and without secrets, which secrets are set (owners)" },
      },
    )
    .put(
      "/:id/server-config",
      ({ params, query, body, user }) => {
        requireListOwner(get(params.id, user, query.share));
        return updateConfig(deps, params.id, user.id, body);
      },
      {
        auth: true,
        params: m.listParams,
        query: m.shareQuery,
        body: m.serverConfigBody,
        response: { 200: m.serverConfigOut, ...errors },
        detail: {
          summary: "Edit the remembered server config (owners): settings replace the stored ones (null at a secret keeps it); secrets are set or cleared by path, write-only",
        },
      },
    )
    .delete(
      "/:id/server-config",
      ({ params, query, user, set }) => {
        requireListOwner(get(params.id, user, query.share));
        if (!deleteConfig(deps, params.id, user.id)) throw new AppError("list.no_config", "the list has no server config");
        set.status = 204;
      },
      { auth: true, params: m.listParams, query: m.shareQuery, detail: { summary: "Forget the remembered server config: export/game writes the defaults again (owners)" } },
    )
    // ---- snapshots -------------------------------------------------------------------------
    .get("/:id/versions", ({ params, query, user }) => snapshots.listSnapshots(deps, requireListRead(get(params.id, user, query.share)).list.id), {
      optionalAuth: true,
      params: m.listParams,
      query: m.shareQuery,
      response: { 200: z.array(m.snapshotOut), 404: errorBody },
      detail: { summary: "Snapshots, newest first" },
    })
    .post(
      "/:id/versions",
      ({ query, params, body, user }) => {
        requireListEdit(get(params.id, user, query.share));
        return snapshots.createSnapshot(deps, params.id, user.id, body ?? {});
      },
      {
        auth: true,
        params: m.listParams,
        body: m.snapshotBody.optional(),
        response: { 200: m.snapshotOut, ...errors },
        detail: { summary: "Snapshot the list", description: "Owners, co-owners and collaborators who may add or remove mods (directly or through a group); anyone else who can read the list gets 403." },
      },
    )
    .get("/:id/versions/live", ({ params, query, user }) => snapshots.liveSnapshot(deps, requireListRead(get(params.id, user, query.share)).list), {
      optionalAuth: true,
      params: m.listParams,
      query: m.shareQuery,
      response: { 200: m.snapshotOut, 404: errorBody },
      detail: { summary: "The current list as a snapshot object" },
    })
    .get(
      "/:id/versions/:versionID",
      ({ params, query, user }) => snapshots.getSnapshot(deps, requireListRead(get(params.id, user, query.share)).list.id, params.versionID),
      { optionalAuth: true, params: m.snapshotParams, query: m.shareQuery, response: { 200: m.snapshotOut, 404: errorBody }, detail: { summary: "One snapshot" } },
    )
    .patch(
      "/:id/versions/:versionID",
      ({ query, params, body, user }) => {
        manageSnapshot(get(params.id, user, query.share), params.versionID);
        return snapshots.updateSnapshot(deps, params.id, params.versionID, body ?? {});
      },
      {
        auth: true,
        params: m.snapshotParams,
        body: m.snapshotBody.optional(),
        response: { 200: m.snapshotOut, ...errors },
        detail: { summary: "Update a snapshot's name, tag, notes, release flag", description: SNAPSHOT_MANAGE },
      },
    )
    .delete(
      "/:id/versions/:versionID",
      ({ query, params, user, set }) => {
        manageSnapshot(get(params.id, user, query.share), params.versionID);
        snapshots.deleteSnapshot(deps, params.id, params.versionID);
        set.status = 204;
      },
      { auth: true, params: m.snapshotParams, detail: { summary: "Delete a snapshot", description: SNAPSHOT_MANAGE } },
    )
    // ---- audit -----------------------------------------------------------------------------
    .get(
      "/:id/audit",
      ({ query, params, user }) => {
        requireListMember(get(params.id, user, query.share));
        return audit.auditLog(deps, params.id);
      },
      { auth: true, params: m.listParams, response: { 200: z.array(m.auditOut), ...errors }, detail: { summary: "The last 100 audit entries, newest first" } },
    )
    .post(
      "/:id/audit/:entryID/revert",
      ({ query, params, user }) => {
        const a = requireListMember(get(params.id, user, query.share));
        return audit.revertAudit(deps, a, params.entryID, user.id);
      },
      { auth: true, params: m.auditParams, response: { 200: okBody, ...errors }, detail: { summary: "Undo one entry (idempotent; the undo is audited)" } },
    );
};

function rawBody(body: unknown): string {
  if (typeof body === "string") return body;
  // A client that sent JSON with a JSON content type on a path the http plugin did not treat
  // as an import path: re-serialise what was parsed.
  if (body === undefined || body === null) return "";
  if (typeof body === "object") return JSON.stringify(body);
  throw new AppError("request.invalid_json", "invalid JSON");
}

