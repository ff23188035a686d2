// Webhooks (/settings/webhooks*) and the notification inbox (/notifications*, /settings/notifications).
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../deps";
import { authPlugin } from "../../shared/auth";
import { errorBody } from "../../shared/schemas";
import { sendTestEvent } from "./delivery";
import {
  createWebhookBody,
  createdWebhookView,
  deliveryView,
  idParams,
  inboxQuery,
  notificationView,
  preferencesBody,
  preferencesView,
  testResultView,
  updateWebhookBody,
  webhookView,
} from "./model";
import * as service from "./service";
import { unreadCount } from "./repository";

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

export const eventsRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1", tags: ["webhooks & notifications"] })
    .use(authPlugin(deps))
    // -- webhooks ------------------------------------------------------------------------------
    .get("/settings/webhooks", ({ user }) => service.listWebhooks(deps, user.id), {
      auth: true,
      response: { 200: z.array(webhookView), 401: errorBody },
      detail: { summary: "The caller's webhooks (secrets are never shown again)" },
    })
    .post("/settings/webhooks", ({ user, body }) => service.createWebhook(deps, user.id, body), {
      auth: true,
      body: createWebhookBody,
      response: { 200: createdWebhookView, ...errors },
      detail: {
        summary: "Create a webhook",
        description:
          "`chat` webhooks receive Discord execute-webhook JSON; `custom` webhooks receive " +
          "`{id, type, created_at, list, data}` signed per Standard Webhooks with the `secret` " +
          "returned here once. `events` defaults to every event kind; `scope` `global` covers " +
          "every list the caller owns or co-owns, `list` the list in `list_id`.",
      },
    })
    .put(
      "/settings/webhooks/:id",
      async ({ user, params, body, set }) => {
        await service.updateWebhook(deps, user.id, params.id, body);
        set.status = 204;
      },
      { auth: true, params: idParams, body: updateWebhookBody, detail: { summary: "Update a webhook (url, events, scope, list_id, name, enabled)" } },
    )
    .delete(
      "/settings/webhooks/:id",
      ({ user, params, set }) => {
        service.deleteWebhook(deps, user.id, params.id);
        set.status = 204;
      },
      { auth: true, params: idParams, detail: { summary: "Delete a webhook" } },
    )
    .post(
      "/settings/webhooks/:id/test",
      ({ user, params }) => sendTestEvent(deps, service.ownWebhook(deps, user.id, params.id), { id: user.id, display_name: user.display_name }),
      {
        auth: true,
        params: idParams,
        response: { 200: testResultView, ...errors },
        detail: { summary: "Send a `test` event now and report the receiver's answer" },
      },
    )
    .get("/settings/webhooks/:id/deliveries", ({ user, params }) => service.listDeliveries(deps, user.id, params.id), {
      auth: true,
      params: idParams,
      response: { 200: z.array(deliveryView), ...errors },
      detail: { summary: "The last 50 delivery attempts, newest first" },
    })
    // -- notifications -------------------------------------------------------------------------
    .get(
      "/notifications",
      ({ user, query }) => service.inbox(deps, user.id, { unreadOnly: query.unread ?? false, limit: query.limit }),
      {
        auth: true,
        query: inboxQuery,
        response: { 200: z.array(notificationView), 400: errorBody, 401: errorBody },
        detail: { summary: "Inbox, newest first (?unread=1, ?limit= 1..200, default 50)" },
      },
    )
    .get("/notifications/unread-count", ({ user }) => ({ count: unreadCount(deps.sqlite, user.id) }), {
      auth: true,
      response: { 200: z.object({ count: z.number().int() }), 401: errorBody },
      detail: { summary: "Unread notifications (not rate limited)" },
    })
    .patch(
      "/notifications/:id/read",
      ({ user, params, set }) => {
        service.markRead(deps, user.id, params.id);
        set.status = 204;
      },
      { auth: true, params: idParams, detail: { summary: "Mark one notification read" } },
    )
    .post(
      "/notifications/read-all",
      ({ user, set }) => {
        service.markAllRead(deps, user.id);
        set.status = 204;
      },
      { auth: true, detail: { summary: "Mark every notification read" } },
    )
    .get("/settings/notifications", ({ user }) => ({ events: service.preferences(deps, user.id) }), {
      auth: true,
      response: { 200: preferencesView, 401: errorBody },
      detail: { summary: "Notification preferences: every event kind with true or false (default true)" },
    })
    .put(
      "/settings/notifications",
      ({ user, body, set }) => {
        service.setPreferences(deps, user.id, body.events);
        set.status = 204;
      },
      { auth: true, body: preferencesBody, detail: { summary: "Update notification preferences (only the kinds named change)" } },
    );
