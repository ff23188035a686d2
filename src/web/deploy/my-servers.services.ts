// Registered game servers, their deployments and deploy requests: the only place these pages
// reach the API.
import { api, get, qs } from "../app/api";
import type { z } from "zod";
import type * as M from "../../features/servers/model";

export type Server = z.infer<typeof M.serverView>;
export type Deployment = z.infer<typeof M.deploymentView>;
export type DeployRequest = z.infer<typeof M.deployRequestView>;
export type ServerStatus = z.infer<typeof M.serverStatusView>;
export interface NewServer {
  name: string;
  connection_type: "panel" | "sftp";
  file_path: string;
  linked_list_id: string | null;
  auto_deploy: boolean;
}
export type PanelCredentials = { panel_url: string; api_key: string; server_uuid: string };
export type SftpCredentials = { host: string; port: number; username: string; password: string };

export const servers = (signal?: AbortSignal) => get<Server[]>("/servers", signal);
export const server = (id: string, signal?: AbortSignal) => get<Server>(`/servers/${id}`, signal);
export const createServer = (body: NewServer) => api<Server>("POST", "/servers", { body });
export const updateServer = (id: string, body: ServerSettings) => api<Server>("PUT", `/servers/${id}`, { body });
export const deleteServer = (id: string) => api<void>("DELETE", `/servers/${id}`);
export const setCredentials = (id: string, body: PanelCredentials | SftpCredentials) => api<{ ok: true }>("POST", `/servers/${id}/credentials`, { body });
export const testServer = (id: string) => api<{ deployment_id: string }>("POST", `/servers/${id}/test`);
export type RestartMode = Server["restart"];
export type ServerSettings = Partial<Omit<NewServer, "connection_type">> &
  Partial<Pick<Server, "query_address" | "restart" | "empty_wait_s" | "verify_timeout_s" | "restart_command">>;
/**
 * `restart` overrides the server's restart mode for this deploy (omitted: the server's); `force`
 * deploys past the pre-flight's server errors (recorded on the deployment); `rename_keys` renames
 * misspelt keys of the server's config in the same write; `restart_anyway` restarts even when the
 * server's config already holds these mods (otherwise nothing is written and nothing restarted).
 */
export const deployNow = (
  id: string,
  list_id?: string,
  restart?: RestartMode,
  force = false,
  rename_keys: { path: string; from: string; to: string }[] = [],
  restart_anyway = false,
) =>
  api<{ deployment_id: string } | { request_id: string; status: "pending" }>("POST", `/servers/${id}/deploy`, {
    body: {
      ...(list_id ? { list_id } : {}),
      ...(restart ? { restart } : {}),
      ...(force ? { force } : {}),
      ...(rename_keys.length ? { rename_keys } : {}),
      ...(restart_anyway ? { restart_anyway } : {}),
    },
  });
/** The server now: whether it answers, players, where to connect, the last deploy, its live entry (answers are kept 5 s). */
export const serverStatus = (id: string, signal?: AbortSignal) => get<ServerStatus>(`/servers/${id}/status`, signal);
/** "Restart now instead" while a deployment waits for its server to empty. */
export const restartNow = (id: string, deploymentId: string) => api<Deployment>("POST", `/servers/${id}/deployments/${deploymentId}/restart-now`);
export const deployments = (id: string, signal?: AbortSignal) => get<Deployment[]>(`/servers/${id}/deployments${qs({ limit: 50 })}`, signal);
export const serverRequests = (id: string, signal?: AbortSignal) => get<DeployRequest[]>(`/servers/${id}/deploy-requests`, signal);
export const listRequests = (listId: string, signal?: AbortSignal) => get<DeployRequest[]>(`/lists/${listId}/deploy-requests`, signal);
export const decideRequest = (id: string, status: "approved" | "rejected", note: string) => api<DeployRequest>("PATCH", `/deploy-requests/${id}`, { body: { status, note } });
export const requireApproval = (listId: string, on: boolean) =>
  api<{ ok: true; require_deploy_approval: boolean }>("PUT", `/lists/${listId}/require-deploy-approval`, { body: { require_deploy_approval: on } });
