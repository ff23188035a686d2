// HTTP surface of collaboration: collaborators and co-owners of lists, permission groups and
// their assignment to lists, moderation (blocks), form fields, suggestions and votes.
// Paths, guards and schemas only; rules in service.ts; list permissions from lists/access.ts.
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../deps";
import { authPlugin } from "../../shared/auth";
import { errorBody } from "../../shared/schemas";
import { requireListMember, requireListOwner, requireListPrimary, requireListRead, requireListRight, resolveListAccess, type ListAccess } from "../lists";
import * as m from "./model";
import * as svc from "./service";

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

type Caller = { id: string } | null | undefined;

const SUGGESTION_TOKEN_DOC =
  "A user who cannot otherwise see a private list may act with the list's suggestion token, " +
  "sent as the query parameter `?token=<suggestion_token>` or as the body field `suggestion_token`.";

export const listCollaborationRoutes = (deps: Deps) => {
  const get = (id: string, user: Caller, share?: string) => resolveListAccess(deps, id, user, share);

  /** Read access, or the list's suggestion token for a caller who cannot read it otherwise. */
  const withSuggestionToken = (id: string, user: Caller, token?: string, share?: string): ListAccess => {
    const a = get(id, user, share);
    if (a && !a.canRead && token && token === a.list.suggestion_token) return { ...a, canRead: true };
    return requireListRead(a);
  };

  return (
    new Elysia({ prefix: "/api/v1/lists", tags: ["collaboration"] })
      .use(authPlugin(deps))
      // ---- collaborators ---------------------------------------------------------------------
      .get("/:id/collaborators", ({ params, user }) => svc.collaborators(deps, requireListMember(get(params.id, user)).list.id), {
        auth: true,
        params: m.listParams,
        response: { 200: z.object({ collaborators: z.array(m.collaboratorOut) }), ...errors },
        detail: { summary: "Collaborators with their permission flags (owners and collaborators)" },
      })
      .post("/:id/collaborators", ({ params, body, user }) => svc.addCollaborator(deps, requireListOwner(get(params.id, user)), body), {
        auth: true,
        params: m.listParams,
        body: m.addCollaboratorBody,
        response: { 200: m.collaboratorOut, ...errors },
        detail: {
          summary: "Add a collaborator by display name or e-mail (Owner)",
          description:
            "`search` is an e-mail address or an exact display name (any case). Unknown: 404 `user not found`; a display name several users share: 409 (use the e-mail). " +
            "Flags default to can_add true, can_remove false, can_deploy false.",
        },
      })
      .put(
        "/:id/collaborators/:userID/permissions",
        ({ params, body, user }) => {
          const a = requireListOwner(get(params.id, user));
          return svc.updateCollaborator(deps, a.list.id, params.userID, body);
        },
        {
          auth: true,
          params: m.listUserParams,
          body: m.collaboratorFlagsBody,
          response: { 200: m.collaboratorOut, ...errors },
          detail: { summary: "Update a collaborator's flags (absent flags stay as they are) (Owner)" },
        },
      )
      .delete(
        "/:id/collaborators/:userID",
        ({ params, user, set }) => {
          const a = requireListOwner(get(params.id, user));
          svc.removeCollaborator(deps, a.list.id, params.userID);
          set.status = 204;
        },
        { auth: true, params: m.listUserParams, detail: { summary: "Remove a collaborator (Owner)" } },
      )
      // ---- co-owners -------------------------------------------------------------------------
      .get("/:id/owners", ({ params, user }) => svc.listCoOwners(deps, requireListOwner(get(params.id, user)).list.id), {
        auth: true,
        params: m.listParams,
        response: { 200: z.object({ owners: z.array(m.personOut) }), ...errors },
        detail: { summary: "Co-owners of the list (Owner)" },
      })
      .post("/:id/owners", ({ params, body, user }) => svc.addListCoOwner(deps, requireListPrimary(get(params.id, user)), body.search), {
        auth: true,
        params: m.listParams,
        body: m.searchBody,
        response: { 200: m.personOut, ...errors },
        detail: { summary: "Add a co-owner by display name or e-mail (Primary)" },
      })
      .delete(
        "/:id/owners/:userID",
        ({ params, user, set }) => {
          const a = requireListPrimary(get(params.id, user));
          svc.removeListCoOwner(deps, a.list.id, params.userID);
          set.status = 204;
        },
        { auth: true, params: m.listUserParams, detail: { summary: "Remove a co-owner (Primary)" } },
      )
      // ---- permission groups on the list -----------------------------------------------------
      .get("/:id/groups", ({ params, user }) => svc.listGroups(deps, requireListOwner(get(params.id, user)).list.id), {
        auth: true,
        params: m.listParams,
        response: { 200: z.object({ groups: z.array(m.listGroupOut) }), ...errors },
        detail: { summary: "Assigned groups with effective flags (override, or the group default where the override is null) (Owner)" },
      })
      .post(
        "/:id/groups",
        ({ params, body, user }) => {
          const a = requireListOwner(get(params.id, user));
          return svc.assignGroupToList(deps, a.list.id, user.id, body);
        },
        {
          auth: true,
          params: m.listParams,
          body: m.listGroupBody,
          response: { 200: m.listGroupOut, ...errors },
          detail: { summary: "Assign a group the caller owns or co-owns; a null or absent flag inherits the group default (Owner)" },
        },
      )
      .patch(
        "/:id/groups/:groupID",
        ({ params, body, user }) => {
          const a = requireListOwner(get(params.id, user));
          return svc.updateListGroup(deps, a.list.id, params.groupID, body);
        },
        {
          auth: true,
          params: m.listGroupParams,
          body: m.listGroupPatchBody,
          response: { 200: m.listGroupOut, ...errors },
          detail: { summary: "Update per-list overrides: null resets a flag to the group default, an absent flag stays (Owner)" },
        },
      )
      .delete(
        "/:id/groups/:groupID",
        ({ params, user, set }) => {
          const a = requireListOwner(get(params.id, user));
          svc.removeListGroup(deps, a.list.id, params.groupID);
          set.status = 204;
        },
        { auth: true, params: m.listGroupParams, detail: { summary: "Remove the group from the list; its members lose the access it gave at once (Owner)" } },
      )
      // ---- moderation ------------------------------------------------------------------------
      .get("/:id/blocks", ({ params, user }) => svc.blocks(deps, requireListOwner(get(params.id, user)).list.id), {
        auth: true,
        params: m.listParams,
        response: { 200: z.object({ blocks: z.array(m.blockOut) }), ...errors },
        detail: { summary: "Users blocked from suggesting and voting on this list (Owner)" },
      })
      .post("/:id/blocks", ({ params, body, user }) => svc.blockUser(deps, requireListOwner(get(params.id, user)), user.id, body.user_id), {
        auth: true,
        params: m.listParams,
        body: m.blockBody,
        response: { 200: m.blockOut, ...errors },
        detail: { summary: "Block a user from suggesting and voting (Owner)" },
      })
      .delete(
        "/:id/blocks/:userID",
        ({ params, user, set }) => {
          const a = requireListOwner(get(params.id, user));
          svc.unblockUser(deps, a.list.id, params.userID);
          set.status = 204;
        },
        { auth: true, params: m.listUserParams, detail: { summary: "Unblock a user (Owner)" } },
      )
      // ---- form fields -----------------------------------------------------------------------
      .get(
        "/:id/form-fields",
        ({ params, query, user }) => svc.formFields(deps, withSuggestionToken(params.id, user, query.token, query.share).list.id),
        {
          optionalAuth: true,
          params: m.listParams,
          query: m.suggestionTokenQuery,
          response: { 200: z.object({ fields: z.array(m.formFieldOut) }), 401: errorBody, 404: errorBody },
          detail: { summary: "The list's suggestion form fields (public; a private list needs access, `?share=` or `?token=<suggestion_token>`)" },
        },
      )
      .post("/:id/form-fields", ({ params, body, user }) => svc.createFormField(deps, requireListOwner(get(params.id, user)).list.id, body), {
        auth: true,
        params: m.listParams,
        body: m.formFieldBody,
        response: { 200: m.formFieldOut, ...errors },
        detail: { summary: "Create a form field: text, checkbox or select (select needs at least one option) (Owner)" },
      })
      .put(
        "/:id/form-fields/:fieldID",
        ({ params, body, user }) => svc.updateFormField(deps, requireListOwner(get(params.id, user)).list.id, params.fieldID, body),
        {
          auth: true,
          params: m.listFieldParams,
          body: m.formFieldBody,
          response: { 200: m.formFieldOut, ...errors },
          detail: { summary: "Replace a form field (Owner)" },
        },
      )
      .delete(
        "/:id/form-fields/:fieldID",
        ({ params, user, set }) => {
          svc.deleteFormField(deps, requireListOwner(get(params.id, user)).list.id, params.fieldID);
          set.status = 204;
        },
        { auth: true, params: m.listFieldParams, detail: { summary: "Delete a form field (Owner)" } },
      )
      // ---- suggestions -----------------------------------------------------------------------
      .get(
        "/:id/suggestions",
        ({ params, query, user }) => svc.suggestions(deps, requireListMember(get(params.id, user)).list.id, user.id, query.status),
        {
          auth: true,
          params: m.listParams,
          query: m.suggestionListQuery,
          response: { 200: z.object({ suggestions: z.array(m.suggestionOut) }), ...errors },
          detail: {
            summary: "Pending and reviewed suggestions with vote counts (owners and collaborators)",
            description:
              "Pending suggestions first (most votes, then oldest), then reviewed ones (most recently reviewed first). `votes` counts up-votes; `voted` tells whether the caller voted. " +
              "`?status=pending|reviewed|accepted|rejected` filters.",
          },
        },
      )
      .post(
        "/:id/suggestions",
        ({ params, query, body, user }) => {
          const a = withSuggestionToken(params.id, user, query.token ?? body.suggestion_token, query.share);
          return svc.createSuggestion(deps, a, user.id, body);
        },
        {
          auth: true,
          params: m.listParams,
          query: m.suggestionTokenQuery,
          body: m.createSuggestionBody,
          response: { 200: m.suggestionOut, ...errors },
          detail: {
            summary: "Suggest a mod (any logged-in user who is not blocked)",
            description:
              SUGGESTION_TOKEN_DOC +
              " `form_answers` is required when the list has required form fields; it is either an object keyed by form-field id " +
              "(`{\"<field_id>\": \"text\" | true}`) or an array `[{field_id, value}]`. text wants a string, checkbox a boolean, select one of the field's options. " +
              "A blocked user gets 403; a mod already in the list or already pending as a suggestion gives 409.",
          },
        },
      )
      .post(
        "/:id/suggestions/:suggID/vote",
        ({ params, query, body, user }) => {
          const a = withSuggestionToken(params.id, user, query.token ?? body.suggestion_token, query.share);
          return svc.vote(deps, a.list.id, params.suggID, user.id, body.vote);
        },
        {
          auth: true,
          params: m.listSuggestionParams,
          query: m.suggestionTokenQuery,
          body: m.voteBody,
          response: { 200: m.voteOut, ...errors },
          detail: {
            summary: "Up-vote (1) or retract (0); one vote per user; pending suggestions only",
            description: SUGGESTION_TOKEN_DOC + " A blocked user gets 403.",
          },
        },
      )
      .patch(
        "/:id/suggestions/:suggID",
        ({ params, body, user }) => svc.review(deps, requireListRight(get(params.id, user), "add"), params.suggID, user.id, body),
        {
          auth: true,
          params: m.listSuggestionParams,
          body: m.reviewBody,
          response: { 200: m.suggestionOut, ...errors, 422: errorBody },
          detail: {
            summary: "Accept or reject a pending suggestion (owners and collaborators with can_add)",
            description:
              "Only a pending suggestion moves, else 409 `suggestion already reviewed`. Accepting adds the mod at once (audited; 409 at 1000 mods or when already in the list; 422 by the age rule); " +
              "when the add fails the suggestion stays pending.",
          },
        },
      )
      .delete(
        "/:id/suggestions/:suggID",
        ({ params, user, set }) => {
          const a = requireListRight(get(params.id, user), "add");
          svc.deleteSuggestion(deps, a.list.id, params.suggID);
          set.status = 204;
        },
        { auth: true, params: m.listSuggestionParams, detail: { summary: "Delete a suggestion (owners and collaborators with can_add)" } },
      )
  );
};

export const groupRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1/groups", tags: ["groups"] })
    .use(authPlugin(deps))
    .get("", ({ user }) => svc.myGroups(deps, user.id), {
      auth: true,
      response: { 200: z.object({ groups: z.array(m.groupOut) }), 401: errorBody },
      detail: { summary: "Groups the caller owns or co-owns, each with is_primary_owner" },
    })
    .post("", ({ user, body }) => svc.createGroup(deps, user.id, body), {
      auth: true,
      body: m.createGroupBody,
      response: { 200: m.groupOut, ...errors },
      detail: { summary: "Create a group with default permissions (all false unless given)" },
    })
    .get("/:groupID", ({ params, user }) => svc.groupOut(svc.requireGroup(deps, params.groupID, user.id, "owner"), user.id), {
      auth: true,
      params: m.groupParams,
      response: { 200: m.groupOut, ...errors },
      detail: { summary: "One group (owners and co-owners)" },
    })
    .put(
      "/:groupID",
      ({ params, body, user, set }) => {
        svc.updateGroup(deps, svc.requireGroup(deps, params.groupID, user.id, "primary"), body);
        set.status = 204;
      },
      { auth: true, params: m.groupParams, body: m.updateGroupBody, detail: { summary: "Rename, describe, change default permissions (Primary)" } },
    )
    .delete(
      "/:groupID",
      ({ params, user, set }) => {
        svc.deleteGroup(deps, svc.requireGroup(deps, params.groupID, user.id, "primary").id);
        set.status = 204;
      },
      { auth: true, params: m.groupParams, detail: { summary: "Delete the group; its members lose the access it gave on every list at once (Primary)" } },
    )
    .post(
      "/:groupID/assign_community",
      ({ params, body, user }) => svc.assignGroupCommunity(deps, svc.requireGroup(deps, params.groupID, user.id, "primary"), user.id, body.community_id || null),
      {
        auth: true,
        params: m.groupParams,
        body: m.assignCommunityBody,
        response: { 200: z.object({ ok: z.boolean(), community_id: z.string().nullable() }), ...errors },
        detail: { summary: "Assign the group to a community the caller belongs to; an empty string or null unassigns (Primary)" },
      },
    )
    .get("/:groupID/members", ({ params, user }) => svc.groupMembers(deps, svc.requireGroup(deps, params.groupID, user.id, "owner").id), {
      auth: true,
      params: m.groupParams,
      response: { 200: z.object({ members: z.array(m.personOut) }), ...errors },
      detail: { summary: "Members (Owner)" },
    })
    .post("/:groupID/members", ({ params, body, user }) => svc.addGroupMember(deps, svc.requireGroup(deps, params.groupID, user.id, "owner").id, body.search), {
      auth: true,
      params: m.groupParams,
      body: m.searchBody,
      response: { 200: m.personOut, ...errors },
      detail: { summary: "Add a member by display name or e-mail (Owner)" },
    })
    .delete(
      "/:groupID/members/:userID",
      ({ params, user, set }) => {
        svc.removeGroupMember(deps, svc.requireGroup(deps, params.groupID, user.id, "owner").id, params.userID);
        set.status = 204;
      },
      { auth: true, params: m.groupUserParams, detail: { summary: "Remove a member (Owner)" } },
    )
    .get("/:groupID/owners", ({ params, user }) => svc.groupCoOwners(deps, svc.requireGroup(deps, params.groupID, user.id, "owner").id), {
      auth: true,
      params: m.groupParams,
      response: { 200: z.object({ owners: z.array(m.personOut) }), ...errors },
      detail: { summary: "Co-owners (Owner)" },
    })
    .post("/:groupID/owners", ({ params, body, user }) => svc.addGroupCoOwner(deps, svc.requireGroup(deps, params.groupID, user.id, "primary"), body.search), {
      auth: true,
      params: m.groupParams,
      body: m.searchBody,
      response: { 200: m.personOut, ...errors },
      detail: { summary: "Add a co-owner by display name or e-mail (Primary)" },
    })
    .delete(
      "/:groupID/owners/:userID",
      ({ params, user, set }) => {
        svc.removeGroupCoOwner(deps, svc.requireGroup(deps, params.groupID, user.id, "primary").id, params.userID);
        set.status = 204;
      },
      { auth: true, params: m.groupUserParams, detail: { summary: "Remove a co-owner (Primary)" } },
    );

/** The feature's routes: list-scoped collaboration and the groups resource. */
export const collaborationRoutes = (deps: Deps) => new Elysia().use(listCollaborationRoutes(deps)).use(groupRoutes(deps));
