// Registered game servers: CRUD scoped to the caller, write-only credentials, deployments,
// connection tests and the deploy approval flow. Knows nothing of HTTP.
// Over 500 lines on purpose: CRUD, credentials, deployments and the approval flow all start from
// the same caller-scoped server row and its sealed secrets; split by section, they would share it.
import type { z } from "zod";
import { requireListOwner, requireListRight, resolveListAccess, type AccessUser, type ListAccess } from "../lists";
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { CredentialCryptoError, decryptSecret, encryptSecret, keyId, parseKey } from "../../shared/crypto";
import { resealColumns, type ResealReport } from "../../db/sealed";
import { newId } from "../../shared/ids";
import { toIso, toIsoOrNull } from "../../shared/time";
import { assertHostAllowed, checkUrl } from "../../shared/url-safety";
import { recordEvent } from "../../outbox/outbox";
import { queueDeployment } from "./deploy/jobs";
import { openConfigOrNull } from "./deploy/config-seal";
import { blockedMessage, blockingFindings, preflightForServer, type ServerReport } from "./deploy/preflight";
import type { RenameKey } from "./deploy/target";
import {
  panelCredentials,
  sftpCredentials,
  type CreateServerBody,
  type DeploymentView,
  type DeployRequestView,
  type ServerView,
  type RestartMode,
  type UpdateServerBody,
} from "./model";
import * as repo from "./repository";
import { ownServer, SERVER_NOT_FOUND } from "./access";
import { rconView } from "./rcon/service";


function toServerView(
  deps: Deps,
  server: repo.ServerRow,
  creds: { host_key_sha256: string | null; updated_at: number } | undefined,
  lastTest: repo.DeploymentRow | undefined,
  liveServerId: string | null,
): ServerView {
  return {
    id: server.id,
    name: server.name,
    connection_type: server.connection_type,
    file_path: server.file_path,
    linked_list_id: server.linked_list_id,
    auto_deploy: server.auto_deploy,
    query_address: server.query_address ?? null,
    items_scan: server.items_scan,
    addons_path: server.addons_path ?? null,
    restart: server.restart,
    empty_wait_s: server.empty_wait_s,
    verify_timeout_s: server.verify_timeout_s,
    restart_command: server.restart_command ?? null,
    has_credentials: !!creds,
    credentials_set_at: creds ? toIso(creds.updated_at) : null,
    host_key_fingerprint: creds?.host_key_sha256 ?? null,
    last_test_status: lastTest?.status ?? null,
    last_test: lastTest
      ? {
          deployment_id: lastTest.id,
          status: lastTest.status,
          error_message: lastTest.error_message,
          created_at: toIso(lastTest.created_at),
          finished_at: toIsoOrNull(lastTest.finished_at),
        }
      : null,
    ...rconView(deps, server),
    live_server_id: liveServerId,
    created_at: toIso(server.created_at),
    updated_at: toIso(server.updated_at),
  };
}

export function toDeploymentView(deps: Pick<Deps, "secrets">, d: repo.DeploymentRow): DeploymentView {
  return {
    id: d.id,
    deployment_id: d.id,
    server_id: d.server_id,
    kind: d.kind,
    status: d.status,
    trigger: d.trigger,
    list_id: d.list_id,
    request_id: d.request_id,
    requested_by: d.requested_by,
    item_count: d.item_count,
    snapshot_json: d.snapshot_json ? JSON.parse(d.snapshot_json) : null,
    error_message: d.error_message,
    forced: d.forced,
    config_unchanged: d.config_unchanged,
    restart_anyway: d.restart_anyway,
    created_at: toIso(d.created_at),
    started_at: toIsoOrNull(d.started_at),
    finished_at: toIsoOrNull(d.finished_at),
    restart: d.restart_mode,
    phase: d.phase,
    phase_started_at: toIsoOrNull(d.phase_started_at),
    wait_until:
      d.phase === "waiting_for_empty" && d.phase_started_at !== null && d.empty_wait_s !== null
        ? toIso(d.phase_started_at + d.empty_wait_s * 1000)
        : null,
    empty_wait_s: d.restart_mode === "when_empty" ? d.empty_wait_s : null,
    verify_timeout_s: d.restart_mode === "none" ? null : d.verify_timeout_s,
    wait_ended: (d.wait_ended as DeploymentView["wait_ended"]) ?? null,
    restarted_at: toIsoOrNull(d.restarted_at),
    restart_exit_status: d.restart_exit_status,
    restart_output: d.restart_output,
    verified_at: toIsoOrNull(d.verified_at),
    verify_note: d.verify_note,
    rolled_back: d.rolled_back,
    rollback_reason: d.rollback_reason,
    rolled_back_at: toIsoOrNull(d.rollback_verified_at),
    failed_phase: failedPhase(d),
    // Configs can hold passwords: shown only when the operator must restore one by hand (stored
    // sealed: opened here; null when they no longer open).
    previous_config: rollbackFailed(d) ? openConfigOrNull(deps, d, "previous_config") : null,
    new_config: rollbackFailed(d) ? openConfigOrNull(deps, d, "new_config") : null,
  };
}

/**
 * The phase a failed deploy failed in, read from what it recorded: rolled back (the new config
 * did not come back: verifying), the rollback failed too (rolling_back), the restart command
 * failed or the signal was refused (restarting), the write (writing), or the wait.
 */
function failedPhase(d: repo.DeploymentRow): DeploymentView["failed_phase"] {
  if (d.status !== "failed" || d.kind !== "deploy") return null;
  if (d.rollback_reason !== null) return d.rollback_verified_at !== null ? "verifying" : "rolling_back";
  if (d.restarted_at !== null) return d.restart_exit_status !== null && d.restart_exit_status !== 0 ? "restarting" : "verifying";
  if (d.restart_requested_at !== null) return "restarting";
  if (d.item_count !== null && d.restart_mode !== "none") return d.restart_mode === "when_empty" && d.wait_ended === null ? "waiting_for_empty" : "restarting";
  return "writing";
}

/** A deployment whose restart failed and whose rollback did not bring the server back. */
function rollbackFailed(d: repo.DeploymentRow): boolean {
  return d.status === "failed" && d.restart_requested_at !== null && d.verified_at === null && d.rollback_verified_at === null;
}

function toRequestView(r: repo.DeployRequestDetail): DeployRequestView {
  return {
    id: r.id,
    request_id: r.id,
    server_id: r.server_id,
    server_name: r.server_name,
    list_id: r.list_id,
    requested_by: r.requested_by,
    requested_by_name: r.requested_by_name,
    status: r.status,
    note: r.note,
    decided_by: r.decided_by,
    decided_at: toIsoOrNull(r.decided_at),
    deployment_id: r.deployment_id,
    created_at: toIso(r.created_at),
  };
}

/** The caller's own server, else 404 (other people's servers are not revealed). */

/** `linked_list_id` must be a list the caller may deploy. */
function requireDeployableList(deps: Deps, user: AccessUser, listId: string): ListAccess {
  return requireListRight(resolveListAccess(deps, listId, user), "deploy");
}

function view(deps: Deps, server: repo.ServerRow): ServerView {
  const creds = repo.credentialStates(deps.db, [server.id]);
  const tests = repo.lastTests(deps.db, [server.id]);
  return toServerView(deps, server, creds.get(server.id), tests.get(server.id), repo.liveServerIds(deps.db, [server.id]).get(server.id) ?? null);
}

// ---- restart settings

type RestartSettings = Pick<repo.ServerRow, "connection_type" | "restart" | "restart_command" | "query_address"> &
  Partial<Pick<repo.ServerRow, "restart_via" | "rcon_host">>;

/**
 * A restart must be possible and verifiable: an SFTP server needs its restart_command, a panel
 * server a query_address (the panel does not say where the game answers A2S queries).
 */
function checkRestartSettings(s: RestartSettings, mode: RestartMode = s.restart): void {
  if (s.connection_type === "panel" && s.restart_command) {
    throw new AppError("request.invalid", "restart_command: only SFTP servers run a restart command; panel servers restart through the panel's power signal");
  }
  if (s.restart_via === "rcon" && !s.rcon_host) {
    throw new AppError("request.invalid", "restart_via: rcon restarts through RCON's #shutdown; set the server's RCON first (PUT /servers/:id/rcon)");
  }
  if (mode === "none") return;
  if (s.restart_via === "rcon") {
    // #shutdown stops the process; a supervisor (docker restart: always, systemd Restart=) starts it again, verified over A2S.
    if (!s.query_address && s.connection_type === "panel")
      throw new AppError("request.invalid", `restart: a restarted server is verified by its A2S answer; set query_address (host or host:port) or use restart "none"`);
    return;
  }
  if (s.connection_type === "sftp" && !s.restart_command) {
    throw new AppError(
      "request.invalid",
      `restart: an SFTP server restarts by running its restart_command over SSH; set restart_command (e.g. "systemctl restart reforger") or use restart "none"`
    );
  }
  if (s.connection_type === "panel" && !s.query_address) {
    throw new AppError(
      "request.invalid",
      `restart: a panel server is verified by its A2S answer after the restart; set query_address (host or host:port) or use restart "none"`
    );
  }
}

// ---- CRUD

export function listServers(deps: Deps, user: AccessUser): ServerView[] {
  const rows = repo.listServers(deps.db, user.id);
  const ids = rows.map((r) => r.id);
  const creds = repo.credentialStates(deps.db, ids);
  const tests = repo.lastTests(deps.db, ids);
  const live = repo.liveServerIds(deps.db, ids);
  return rows.map((r) => toServerView(deps, r, creds.get(r.id), tests.get(r.id), live.get(r.id) ?? null));
}

export function getServer(deps: Deps, user: AccessUser, id: string): ServerView {
  return view(deps, ownServer(deps, user, id));
}

export function createServer(deps: Deps, user: AccessUser, body: CreateServerBody): ServerView {
  if (body.linked_list_id) requireDeployableList(deps, user, body.linked_list_id);
  const restart = {
    restart: body.restart ?? "none",
    empty_wait_s: body.empty_wait_s ?? 3600,
    verify_timeout_s: body.verify_timeout_s ?? 600,
    restart_command: body.restart_command ?? null,
  };
  // A new server has no RCON yet: restart_via rcon comes after PUT /servers/:id/rcon.
  checkRestartSettings({ connection_type: body.connection_type, query_address: body.query_address ?? null, restart_via: body.restart_via, rcon_host: null, ...restart });
  const now = deps.clock.now();
  const id = newId();
  repo.insertServer(deps.db, {
    id,
    owner_id: user.id,
    name: body.name,
    connection_type: body.connection_type,
    file_path: body.file_path,
    linked_list_id: body.linked_list_id ?? null,
    auto_deploy: body.auto_deploy ?? false,
    query_address: body.query_address ?? null,
    items_scan: body.items_scan ?? false,
    addons_path: body.addons_path ?? null,
    ...restart,
    created_at: now,
    updated_at: now,
  });
  return view(deps, repo.getServer(deps.db, id)!);
}

export function updateServer(deps: Deps, user: AccessUser, id: string, body: UpdateServerBody): ServerView {
  const server = ownServer(deps, user, id);
  if (body.linked_list_id && body.linked_list_id !== server.linked_list_id) {
    requireDeployableList(deps, user, body.linked_list_id);
  }
  const patch: Partial<typeof server> = { updated_at: deps.clock.now() };
  if (body.name !== undefined) patch.name = body.name;
  if (body.file_path !== undefined) patch.file_path = body.file_path;
  if (body.linked_list_id !== undefined) patch.linked_list_id = body.linked_list_id;
  if (body.auto_deploy !== undefined) patch.auto_deploy = body.auto_deploy;
  if (body.query_address !== undefined) patch.query_address = body.query_address;
  if (body.items_scan !== undefined) patch.items_scan = body.items_scan;
  if (body.addons_path !== undefined) patch.addons_path = body.addons_path;
  if (body.restart !== undefined) patch.restart = body.restart;
  if (body.empty_wait_s !== undefined) patch.empty_wait_s = body.empty_wait_s;
  if (body.verify_timeout_s !== undefined) patch.verify_timeout_s = body.verify_timeout_s;
  if (body.restart_command !== undefined) patch.restart_command = body.restart_command;
  if (body.restart_via !== undefined) patch.restart_via = body.restart_via;
  checkRestartSettings({ ...server, ...patch });
  repo.updateServer(deps.db, id, patch);
  return view(deps, repo.getServer(deps.db, id)!);
}

export function deleteServer(deps: Deps, user: AccessUser, id: string): void {
  ownServer(deps, user, id);
  deps.db.transaction((tx) => repo.deleteServer(tx, id), { behavior: "immediate" });
}

// ---- credentials

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = issue.path.map(String).join(".");
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** Validates the credentials object for the server's connection_type, checks the target address, stores it sealed. */
export async function storeCredentials(deps: Deps, user: AccessUser, id: string, body: unknown): Promise<void> {
  const server = ownServer(deps, user, id);
  const safety = { allowPrivate: deps.config.LOADOUT_ALLOW_PRIVATE_URLS };
  let plain: Record<string, unknown>;
  if (server.connection_type === "panel") {
    const parsed = panelCredentials.safeParse(body);
    if (!parsed.success) throw new AppError("request.invalid", firstIssue(parsed.error));
    await checkUrl(parsed.data.panel_url, safety); // 400 url not allowed
    plain = parsed.data;
  } else {
    const parsed = sftpCredentials.safeParse(body);
    if (!parsed.success) throw new AppError("request.invalid", firstIssue(parsed.error));
    await assertHostAllowed(parsed.data.host, safety); // 400 url not allowed
    plain = parsed.data;
  }
  const key = deps.secrets.credentialKey;
  const sealed = encryptSecret(JSON.stringify(plain), key, server.id);
  // The server may have been deleted during the address check: the FK makes that a 404.
  if (!repo.getServer(deps.db, server.id)) throw new AppError("server.not_found", SERVER_NOT_FOUND);
  repo.upsertCredentials(deps.db, server.id, sealed, keyId(key), deps.clock.now());
}

/**
 * Re-seals every sealed value (every feature's declared columns, `deps.sealed`: server
 * credentials, webhook secrets, lists' config secrets, deployment configs) under `newKey`
 * (base64 text or 32 raw bytes), in one transaction. The caller then makes `newKey` the
 * configured key (LOADOUT_SECRET_KEY or the key file). Values already under `newKey` are left
 * alone, so a rerun after an interrupted rotation is safe. A value the current key cannot open
 * (damaged, or sealed with a key that is gone) is left as it is and reported (its owner enters it
 * again); when there are sealed values and not one of them opens, the configured key is probably
 * wrong and nothing is changed (throws).
 */
export function rotateCredentialKey(
  deps: Pick<Deps, "sqlite" | "secrets" | "sealed">,
  newKey: string | Uint8Array,
): {
  rotated: number;
  total: number;
  unreadable: string[];
  webhooks_rotated: number;
  webhooks_unreadable: string[];
  list_configs_rotated: number;
  list_configs_unreadable: string[];
  deployment_configs_rotated: number;
  deployment_configs_unreadable: string[];
  /** Every sealed column, one entry each. */
  sealed: ResealReport[];
} {
  const next = typeof newKey === "string" ? parseKey(newKey) : Buffer.from(newKey);
  if (next.length !== 32) throw new Error("the new secret key must be 32 bytes");
  const current = deps.secrets.credentialKey;
  return deps.sqlite
    .transaction(() => {
      const reports = resealColumns(deps.sqlite, deps.sealed, current, next);
      const unreadable = reports.reduce((n, r) => n + r.unreadable.length, 0);
      if (unreadable > 0 && reports.every((r) => r.rotated === 0 && r.unchanged === 0)) {
        throw new CredentialCryptoError(`none of the ${unreadable} sealed values can be decrypted with the configured secret key; nothing was changed`);
      }
      const of = (table: string, column?: string) => reports.filter((r) => r.table === table && (!column || r.column === column));
      const sum = (rs: ResealReport[]) => ({
        rotated: rs.reduce((n, r) => n + r.rotated, 0),
        total: rs.reduce((n, r) => n + r.total, 0),
        unreadable: [...new Set(rs.flatMap((r) => r.unreadable))],
      });
      const credentials = sum(of("server_credentials", "secret"));
      const hooks = sum(of("webhooks", "secret"));
      const listConfigs = sum(of("list_server_configs", "secrets"));
      const deploymentConfigs = sum(of("deployments"));
      return {
        rotated: credentials.rotated,
        total: credentials.total,
        unreadable: credentials.unreadable,
        webhooks_rotated: hooks.rotated,
        webhooks_unreadable: hooks.unreadable,
        list_configs_rotated: listConfigs.rotated,
        list_configs_unreadable: listConfigs.unreadable,
        deployment_configs_rotated: deploymentConfigs.rotated,
        deployment_configs_unreadable: deploymentConfigs.unreadable,
        sealed: reports,
      };
    })
    .immediate();
}

/** For tests and diagnostics: the decrypted credentials of a server (never sent to a client). */
export function readCredentialsForServer(deps: Deps, serverId: string): unknown {
  const row = repo.getCredentials(deps.db, serverId);
  return row ? JSON.parse(decryptSecret(row.secret, deps.secrets.credentialKey, serverId)) : null;
}

/**
 * The mods each registered server runs as far as Loadout knows: what its last deploy wrote, or
 * what its last connection test read (servers.config_mods_json), by server id; servers whose
 * config was never read are absent. Ids in their normal form (upper case), a repeated one once.
 */
export function knownServerMods(deps: Pick<Deps, "db">): Map<string, { workshop_id: string; name: string | null; version: string | null }[]> {
  const out = new Map<string, { workshop_id: string; name: string | null; version: string | null }[]>();
  for (const r of repo.configModsOf(deps.db)) {
    let mods: unknown;
    try {
      mods = JSON.parse(r.config_mods_json ?? "[]");
    } catch {
      continue;
    }
    if (!Array.isArray(mods)) continue;
    const seen = new Set<string>();
    const list: { workshop_id: string; name: string | null; version: string | null }[] = [];
    for (const m of mods as { modId?: unknown; name?: unknown; version?: unknown }[]) {
      const id = typeof m?.modId === "string" ? m.modId.trim().toUpperCase() : "";
      if (!/^[0-9A-F]{16}$/.test(id) || seen.has(id)) continue;
      seen.add(id);
      list.push({ workshop_id: id, name: typeof m.name === "string" && m.name ? m.name : null, version: typeof m.version === "string" && m.version ? m.version : null });
    }
    out.set(r.id, list);
  }
  return out;
}

// ---- deployments

function requireCredentials(deps: Deps, server: repo.ServerRow): void {
  if (repo.credentialStates(deps.db, [server.id]).size === 0) {
    throw new AppError("server.credentials_missing", "server has no credentials; store them with POST /api/v1/servers/:id/credentials first");
  }
}

export function testConnection(deps: Deps, user: AccessUser, id: string): { deployment_id: string } {
  const server = ownServer(deps, user, id);
  requireCredentials(deps, server);
  const deploymentId = deps.db.transaction(
    (tx) => queueDeployment(deps, tx, { server, kind: "test", listId: null, requestedBy: user.id, trigger: "manual" }),
    { behavior: "immediate" },
  );
  return { deployment_id: deploymentId };
}

function createRequest(deps: Deps, tx: repo.TxLike, server: repo.ServerRow, access: ListAccess, user: AccessUser): string {
  const existing = repo.pendingRequestFor(tx, server.id, access.list.id);
  if (existing) return existing.id;
  const requestId = newId();
  const now = deps.clock.now();
  repo.insertRequest(tx, { id: requestId, server_id: server.id, list_id: access.list.id, requested_by: user.id, status: "pending", created_at: now });
  recordEvent(tx, {
    kind: "deploy_requested",
    listId: access.list.id,
    actorId: user.id,
    at: now,
    data: { request_id: requestId, server_id: server.id, server_name: server.name, trigger: "manual" },
  });
  return requestId;
}

/**
 * GET /lists/:id/check?server_id=: the server findings of deploying the list to one of the
 * caller's servers (the caller must be allowed to deploy the list: 404/403 as for deploys).
 */
export async function checkAgainstServer(deps: Deps, user: AccessUser, serverId: string, listId: string): Promise<ServerReport> {
  const server = ownServer(deps, user, serverId);
  requireDeployableList(deps, user, listId);
  return preflightForServer(deps, server, listId);
}

export function serverCheckOut(report: ServerReport) {
  const { findings: _findings, config_read_at, ...rest } = report;
  return { ...rest, config_read_at: toIsoOrNull(config_read_at) };
}

/**
 * Deploys the linked list (or `listId`). Owners deploy directly; collaborators with can_deploy
 * go through a deploy request when the list has require_deploy_approval. The pre-flight runs
 * first: a server finding of severity error answers 409 {error, findings} and changes nothing,
 * unless `force` (recorded on the deployment).
 */
export async function deploy(
  deps: Deps,
  user: AccessUser,
  id: string,
  listId: string | undefined,
  restart?: RestartMode,
  force = false,
  renameKeys: readonly RenameKey[] = [],
  restartAnyway = false,
): Promise<{ deployment_id: string } | { request_id: string; status: "pending" }> {
  const server = ownServer(deps, user, id);
  if (restart !== undefined) checkRestartSettings(server, restart);
  const target = listId ?? server.linked_list_id;
  if (!target) throw new AppError("request.invalid", "list_id: the server has no linked list; pass list_id");
  const access = requireDeployableList(deps, user, target);
  requireCredentials(deps, server);
  if (!force) {
    const errors = blockingFindings((await preflightForServer(deps, server, target, renameKeys)).findings);
    if (errors.length) throw new AppError("deploy.blocked", blockedMessage(errors), { body: { findings: errors.map((f) => ({ ...f, blocks_deploy: true })) } });
  }
  return deps.db.transaction(
    (tx) => {
      if (access.list.require_deploy_approval && !access.isOwner) {
        return { request_id: createRequest(deps, tx, server, access, user), status: "pending" as const };
      }
      return {
        deployment_id: queueDeployment(deps, tx, { server, kind: "deploy", listId: target, requestedBy: user.id, trigger: "manual", restart, forced: force, renameKeys, restartAnyway }),
      };
    },
    { behavior: "immediate" },
  );
}

/** POST /servers/:id/deploy-request: explicit request, only while the list has the approval gate. */
export function submitDeployRequest(deps: Deps, user: AccessUser, id: string, listId: string | undefined): { request_id: string; status: "pending" } {
  const server = ownServer(deps, user, id);
  const target = listId ?? server.linked_list_id;
  if (!target) throw new AppError("request.invalid", "list_id: the server has no linked list; pass list_id");
  const access = requireDeployableList(deps, user, target);
  if (!access.list.require_deploy_approval) {
    throw new AppError("deploy.approval_not_required", "this list does not require deploy approval; deploy directly");
  }
  const requestId = deps.db.transaction((tx) => createRequest(deps, tx, server, access, user), { behavior: "immediate" });
  return { request_id: requestId, status: "pending" };
}

/**
 * "Restart now instead": a deployment waiting for its server to empty restarts at its next
 * look (recorded, then the job is woken). 409 when it is not waiting (any more).
 */
export function restartNow(deps: Deps, user: AccessUser, id: string, deploymentId: string): DeploymentView {
  ownServer(deps, user, id);
  const d = repo.getDeployment(deps.db, deploymentId);
  if (!d || d.server_id !== id) throw new AppError("deployment.not_found", "deployment not found");
  if (d.status === "success" || d.status === "failed") throw new AppError("deployment.finished", "the deployment has finished");
  if (d.restart_mode !== "when_empty" || (d.phase !== null && d.phase !== "writing" && d.phase !== "waiting_for_empty")) {
    throw new AppError("deployment.not_waiting", "the deployment is not waiting for an empty server");
  }
  repo.requestRestartNow(deps.db, d.id, deps.clock.now());
  if (d.job_id) deps.jobs.wakeUp(d.job_id);
  return toDeploymentView(deps, repo.getDeployment(deps.db, d.id)!);
}

export function listDeployments(deps: Deps, user: AccessUser, id: string, limit: number): DeploymentView[] {
  ownServer(deps, user, id);
  return repo.listDeployments(deps.db, id, limit).map((d) => toDeploymentView(deps, d));
}

// ---- deploy approval

export function setRequireDeployApproval(deps: Deps, user: AccessUser, listId: string, value: boolean): { ok: true; require_deploy_approval: boolean } {
  requireListOwner(resolveListAccess(deps, listId, user));
  repo.setRequireDeployApproval(deps.db, listId, value, deps.clock.now());
  return { ok: true, require_deploy_approval: value };
}

/** The requester's view: the deploy requests submitted for one of the caller's servers. */
export function listServerDeployRequests(deps: Deps, user: AccessUser, id: string): DeployRequestView[] {
  ownServer(deps, user, id);
  return repo.listServerRequests(deps.db, id).map(toRequestView);
}

export function listDeployRequests(deps: Deps, user: AccessUser, listId: string): DeployRequestView[] {
  requireListOwner(resolveListAccess(deps, listId, user));
  return repo.listRequests(deps.db, listId).map(toRequestView);
}

export function decideDeployRequest(
  deps: Deps,
  user: AccessUser,
  requestId: string,
  decision: { status: "approved" | "rejected"; note?: string },
): DeployRequestView {
  const request = repo.getRequest(deps.db, requestId);
  const notFound = new AppError("deploy_request.not_found", "deploy request not found");
  if (!request) throw notFound;
  const access = resolveListAccess(deps, request.list_id, user);
  if (!access || !access.canRead) throw notFound;
  requireListOwner(access);
  if (request.status !== "pending") throw new AppError("deploy_request.already_reviewed", "deploy request already reviewed");
  const server = repo.getServer(deps.db, request.server_id);
  if (!server) throw notFound;
  if (decision.status === "approved") {
    // Rights are judged now, not when the request was filed: a requester who has since lost
    // the right to deploy this list (or the server) is not deployed for.
    if (!resolveListAccess(deps, request.list_id, { id: request.requested_by })?.canDeploy) {
      throw new AppError("deploy_request.requester_lost_access", "the requester can no longer deploy this list; reject the request instead");
    }
    if (server.owner_id !== request.requested_by) {
      throw new AppError("deploy_request.server_changed_owner", "the server no longer belongs to the requester; reject the request instead");
    }
  }
  deps.db.transaction(
    (tx) => {
      const now = deps.clock.now();
      const deploymentId =
        decision.status === "approved"
          ? queueDeployment(deps, tx, {
              server,
              kind: "deploy",
              listId: request.list_id,
              requestedBy: request.requested_by,
              trigger: "approval",
              requestId: request.id,
            })
          : null;
      const moved = repo.decideRequest(
        tx,
        request.id,
        { status: decision.status, note: decision.note ?? null, decided_by: user.id, deployment_id: deploymentId },
        now,
      );
      if (!moved) throw new AppError("deploy_request.already_reviewed", "deploy request already reviewed"); // rolls the deployment back
      recordEvent(tx, {
        kind: "deploy_request_decided",
        listId: request.list_id,
        actorId: user.id,
        at: now,
        data: {
          request_id: request.id,
          status: decision.status,
          note: decision.note ?? null,
          requested_by: request.requested_by,
          server_id: server.id,
          server_name: server.name,
          deployment_id: deploymentId,
        },
      });
    },
    { behavior: "immediate" },
  );
  return toRequestView(repo.getRequest(deps.db, request.id)!);
}
