// HTTP surface of registered game servers, deployments and deploy approval.
// Paths, guards and schemas only; the rules live in service.ts, permissions in lists/access.ts.
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../deps";
import { authPlugin } from "../../shared/auth";
import { errorBody } from "../../shared/schemas";
import * as m from "./model";
import * as svc from "./service";
import { serverStatus } from "./status";

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

const deploymentsQuery = z.object({
  limit: z.coerce
    .number({ error: "must be an integer" })
    .int({ message: "must be an integer" })
    .min(1, { message: "must be 1 to 500" })
    .max(500, { message: "must be 1 to 500" })
    .default(50),
});

export const serversRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1", tags: ["servers"] })
    .use(authPlugin(deps))
    // ---- servers ---------------------------------------------------------------------------
    .get("/servers", ({ user }) => svc.listServers(deps, user), {
      auth: true,
      response: { 200: z.array(m.serverView), 401: errorBody },
      detail: { summary: "The caller's registered game servers" },
    })
    .post("/servers", ({ user, body }) => svc.createServer(deps, user, body), {
      auth: true,
      body: m.createServerBody,
      response: { 200: m.serverView, ...errors },
      detail: {
        summary:
          "Register a game server (linked_list_id must be a list the caller may deploy; restart none|now|when_empty needs restart_command on SFTP, query_address on a panel)",
      },
    })
    .get("/servers/:id", ({ user, params }) => svc.getServer(deps, user, params.id), {
      auth: true,
      params: m.idParams,
      response: { 200: m.serverView, 401: errorBody, 404: errorBody },
      detail: { summary: "One server with the status of its last connection test" },
    })
    .get("/servers/:id/status", ({ user, params }) => serverStatus(deps, user, params.id), {
      auth: true,
      params: m.idParams,
      response: { 200: m.serverStatusView, 401: errorBody, 404: errorBody },
      detail: {
        summary:
          "The server now (its owner and moderators): whether it answers A2S (1.5 s at most; an answer is reused for 5 s), players (RCON's roster while fresh, else A2S) and the slots, where players connect, the game version; and (owner) the last successful deploy (list, mods, when) and the server's entry in Live",
      },
    })
    .put("/servers/:id", ({ user, params, body }) => svc.updateServer(deps, user, params.id, body), {
      auth: true,
      params: m.idParams,
      body: m.updateServerBody,
      response: { 200: m.serverView, ...errors },
      detail: { summary: "Update name, file path, linked list, auto-deploy, query address, restart mode (restart, empty_wait_s, verify_timeout_s, restart_command)" },
    })
    .delete(
      "/servers/:id",
      ({ user, params, set }) => {
        svc.deleteServer(deps, user, params.id);
        set.status = 204;
      },
      { auth: true, params: m.idParams, detail: { summary: "Delete the server and its credentials" } },
    )
    .post(
      "/servers/:id/credentials",
      async ({ user, params, body }) => {
        await svc.storeCredentials(deps, user, params.id, body);
        return { ok: true as const, has_credentials: true as const };
      },
      {
        auth: true,
        params: m.idParams,
        body: m.credentialsBody,
        response: { 200: m.credentialsStoredView, ...errors },
        detail: {
          summary: "Store credentials (write-only): panel {panel_url, api_key, server_uuid} or sftp {host, port, username, password}",
        },
      },
    )
    .post("/servers/:id/test", ({ user, params }) => svc.testConnection(deps, user, params.id), {
      auth: true,
      params: m.idParams,
      response: { 200: m.deploymentIdView, ...errors },
      detail: { summary: "Queue a connection test (a deployment of kind test); poll /deployments for the result" },
    })
    .post("/servers/:id/deploy", ({ user, params, body }) => svc.deploy(deps, user, params.id, body.list_id, body.restart, body.force, body.rename_keys, body.restart_anyway), {
      auth: true,
      params: m.idParams,
      body: m.deployBody,
      response: { 200: m.deployResultView, ...errors, 409: z.union([m.deployBlockedView, errorBody]) },
      detail: {
        summary:
          "Deploy the linked list (or list_id); `restart` (none, now, when_empty) overrides the server's restart mode for this deploy; a collaborator on a list with require_deploy_approval gets a pending deploy request instead (approved requests run with the server's restart mode). The pre-flight for this server runs first: a server finding of severity error (scenario_missing, game_version_newer) answers 409 {error, findings} and changes nothing unless the body says force: true (recorded on the deployment as forced)",
      },
    })
    .post("/servers/:id/deploy-request", ({ user, params, body }) => svc.submitDeployRequest(deps, user, params.id, body.list_id), {
      auth: true,
      params: m.idParams,
      body: m.deployRequestBody,
      response: { 200: m.requestIdView, ...errors },
      detail: { summary: "Submit a deploy request (the list must have the approval gate)" },
    })
    .get("/servers/:id/deployments", ({ user, params, query }) => svc.listDeployments(deps, user, params.id, query.limit), {
      auth: true,
      params: m.idParams,
      query: deploymentsQuery,
      response: { 200: z.array(m.deploymentView), 400: errorBody, 401: errorBody, 404: errorBody },
      detail: { summary: "Deployment history, newest first (tests included, kind tells which)" },
    })
    .post("/servers/:id/deployments/:did/restart-now", ({ user, params }) => svc.restartNow(deps, user, params.id, params.did), {
      auth: true,
      params: m.deploymentParams,
      response: { 200: m.deploymentView, ...errors },
      detail: {
        summary:
          "Restart now instead of waiting for the server to empty (a deployment in phase waiting_for_empty); 409 when it is not waiting",
      },
    })
    .get("/servers/:id/deploy-requests", ({ user, params }) => svc.listServerDeployRequests(deps, user, params.id), {
      auth: true,
      params: m.idParams,
      response: { 200: z.array(m.deployRequestView), 401: errorBody, 404: errorBody },
      detail: { summary: "Deploy requests submitted for one of the caller's servers (the requester's view), pending first" },
    })
    // ---- deploy approval -------------------------------------------------------------------
    .put(
      "/lists/:id/require-deploy-approval",
      ({ user, params, body }) => svc.setRequireDeployApproval(deps, user, params.id, body.require_deploy_approval),
      {
        auth: true,
        params: m.idParams,
        body: m.requireApprovalBody,
        response: { 200: m.approvalView, ...errors },
        detail: { summary: "Enable or disable the deploy approval gate (Owner)" },
      },
    )
    .get("/lists/:id/deploy-requests", ({ user, params }) => svc.listDeployRequests(deps, user, params.id), {
      auth: true,
      params: m.idParams,
      response: { 200: z.array(m.deployRequestView), 401: errorBody, 403: errorBody, 404: errorBody },
      detail: { summary: "Pending and resolved deploy requests of the list (Owner)" },
    })
    .patch("/deploy-requests/:id", ({ user, params, body }) => svc.decideDeployRequest(deps, user, params.id, body), {
      auth: true,
      params: m.idParams,
      body: m.decideRequestBody,
      response: { 200: m.deployRequestView, ...errors },
      detail: { summary: "Approve (queues a deployment, its id in deployment_id) or reject a pending request (Owner)" },
    });
