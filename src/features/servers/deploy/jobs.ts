// The deployment worker: job `deploy.run` carries out one deployment (or connection test) and
// `deploy.auto` turns a debounced list change into deployments of the auto_deploy servers.
//
// State machine (spec "Deployment status"): pending → running → success | failed. The job runs
// in lane `server:<id>`, and a deploy waits for an unfinished one of the same server, so one
// deployment at a time per server. A deploy with a restart goes through the phases of
// restart-loop.ts, each recorded before it is taken; a deployment left `running` by a crash
// continues from its stored phase when its job is requeued.
import type { Deps } from "../../../deps";
import { SnoozeJob, type JobHandler } from "../../../jobs/queue";
import { recordEvent } from "../../../outbox/outbox";
import { resolveListAccess } from "../../lists";
import { assertHostAllowed, checkUrl } from "../../../shared/url-safety";
import { decryptSecret } from "../../../shared/crypto";
import { newId } from "../../../shared/ids";
import * as repo from "../repository";
import type { ServerRow } from "../repository";
import { DeployError, deployErrorMessage } from "./errors";
import { queueItemsScan } from "../../scraper";
import { PanelTarget, type PanelCredentials } from "./panel";
import { listToServerJsonMods } from "./config-file";
import { finishDeploy, queryAddressOf, runDeployLoop, type LoopContext } from "./restart-loop";
import { a2sPlayers, combineControls, fileTargetControl, type ServerControl } from "../control";
import { rconControl } from "../rcon/control";
import { SftpTarget, type SftpCredentials } from "./sftp";
import { configSeen, recordConfigSeen } from "./config-seen";
import { queuedJobForList } from "./repository";
import { fileNameOf, testTarget, type ConfigTarget, type RenameKey } from "./target";

export const DEPLOY_JOB = "deploy.run";
export const AUTO_DEPLOY_JOB = "deploy.auto";
/** Queued by the list_items triggers (src/db/custom/60_servers_auto_deploy.sql) on every mod change. */
export const AUTO_DEPLOY_CHANGE_JOB = "deploy.auto-change";
/** Changes to a linked list within this window make one auto-deployment. */
export const AUTO_DEPLOY_DEBOUNCE_MS = 30_000;

export interface DeployRuntimeOptions {
  /** Connection and per-operation timeout for targets (default 10 s). */
  timeoutMs?: number;
  /** How often a waiting deployment looks again (default LOADOUT_DEPLOY_POLL_MS). */
  pollMs?: number;
}

const NOT_ALLOWED =
  "the target address is not allowed (loopback, private or link-local); set LOADOUT_ALLOW_PRIVATE_URLS=true to deploy to private addresses";

/** Decrypts a server's credentials (with its pinned SFTP host key); throws DeployError when there are none. */
function loadCredentialRow(deps: Deps, server: ServerRow) {
  const row = repo.getCredentials(deps.db, server.id);
  if (!row) throw new DeployError("the server has no credentials; store them with POST /servers/:id/credentials");
  const creds = JSON.parse(decryptSecret(row.secret, deps.secrets.credentialKey, server.id)) as PanelCredentials | SftpCredentials;
  return { creds, hostKey: row.host_key_sha256 };
}

/** The SFTP host of a server's credentials (where its game and RCON most likely answer), or null. */
export function sftpHostOf(deps: Deps, server: ServerRow): string | null {
  if (server.connection_type !== "sftp" || !repo.getCredentials(deps.db, server.id)) return null;
  try {
    return (loadCredentialRow(deps, server).creds as SftpCredentials).host;
  } catch {
    return null;
  }
}

/** Builds the deploy target for a server, re-checking the address rule right before connecting. */
export async function buildTarget(deps: Deps, server: ServerRow, opts: DeployRuntimeOptions = {}): Promise<ConfigTarget> {
  const { creds, hostKey } = loadCredentialRow(deps, server);
  const safety = { allowPrivate: deps.config.LOADOUT_ALLOW_PRIVATE_URLS };
  if (server.connection_type === "sftp") {
    const c = creds as SftpCredentials;
    try {
      await assertHostAllowed(c.host, safety);
    } catch {
      throw new DeployError(NOT_ALLOWED);
    }
    return new SftpTarget(c, server.file_path, {
      timeoutMs: opts.timeoutMs,
      restartCommand: server.restart_command,
      pinnedHostKey: hostKey,
      onFirstHostKey: (fingerprint) => repo.pinHostKey(deps.db, server.id, fingerprint),
    });
  }
  const c = creds as PanelCredentials;
  return new PanelTarget(c, server.file_path, {
    timeoutMs: opts.timeoutMs,
    fetch: deps.fetch,
    beforeRequest: async (url) => {
      try {
        await checkUrl(url.toString(), safety);
      } catch {
        throw new DeployError(NOT_ALLOWED);
      }
    },
  });
}

/** Creates a pending deployment and its job in the caller's transaction; returns the deployment id. */
export function queueDeployment(
  deps: Deps,
  tx: repo.TxLike,
  input: {
    server: ServerRow;
    kind: "deploy" | "test";
    listId: string | null;
    requestedBy: string | null;
    trigger: "manual" | "auto" | "approval";
    requestId?: string | null;
    /** Overrides the server's restart mode for this deploy. */
    restart?: "none" | "now" | "when_empty";
    /** Deployed past the pre-flight's server errors ({"force": true}). */
    forced?: boolean;
    /** Keys of the server's config renamed in the same write (the pre-flight's rename fixes). */
    renameKeys?: readonly RenameKey[];
    /** Restart even when the server's config does not change. */
    restartAnyway?: boolean;
  },
): string {
  const id = newId();
  const restartMode = input.kind === "deploy" ? (input.restart ?? input.server.restart) : "none";
  repo.insertDeployment(tx, {
    id,
    server_id: input.server.id,
    kind: input.kind,
    status: "pending",
    list_id: input.listId,
    requested_by: input.requestedBy,
    request_id: input.requestId ?? null,
    trigger: input.trigger,
    restart_mode: restartMode,
    forced: input.forced ?? false,
    rename_keys: input.renameKeys?.length ? JSON.stringify(input.renameKeys) : null,
    restart_anyway: input.restartAnyway ?? false,
    empty_wait_s: input.server.empty_wait_s,
    verify_timeout_s: input.server.verify_timeout_s,
    created_at: deps.clock.now(),
  });
  const jobId = deps.jobs.enqueue(
    DEPLOY_JOB,
    { deployment_id: id },
    { lane: `server:${input.server.id}`, createdBy: input.requestedBy, db: tx, maxAttempts: 3 },
  );
  repo.setDeploymentJob(tx, id, jobId);
  return id;
}

/** Runs one deployment to its final state. Never throws for a deploy failure (it is recorded). */
export async function runDeployment(deps: Deps, deploymentId: string, opts: DeployRuntimeOptions = {}): Promise<void> {
  const deployment = repo.getDeployment(deps.db, deploymentId);
  if (!deployment) return; // the server (and its deployments) was deleted meanwhile
  if (deployment.status === "success" || deployment.status === "failed") return; // already done
  const server = repo.getServer(deps.db, deployment.server_id);
  if (!server) return;
  const pollMs = opts.pollMs ?? deps.config.LOADOUT_DEPLOY_POLL_MS;
  if (deployment.kind === "deploy" && deployment.status === "pending") {
    // One deploy at a time per server: the lane serialises running jobs, but a deploy waiting
    // for its server (snoozed) is queued, not running. The next waits for it to finish.
    const before = repo.activeDeployBefore(deps.db, server.id, deploymentId);
    if (before) throw new SnoozeJob(pollMs, `waiting for deployment ${before.id} of this server to finish`);
  }
  if (!repo.markDeploymentRunning(deps.db, deploymentId, deps.clock.now())) return;
  const log = deps.log.child({ deployment_id: deploymentId, server_id: server.id, kind: deployment.kind });
  if (deployment.kind === "deploy") return runDeploy(deps, server, deploymentId, { ...opts, pollMs }, log);

  let outcome: { item_count: number; snapshot_json: string } | null = null;
  let errorMessage: string | null = null;
  try {
    // The test records what the config names now: the page shows it as "what was read".
    const found = await testTarget(await buildTarget(deps, server, opts), (text) =>
      recordConfigSeen(deps.db, server.id, configSeen(text, fileNameOf(server.file_path), deps.clock.now())),
    );
    outcome = { item_count: found.length, snapshot_json: JSON.stringify(found) };
  } catch (err) {
    errorMessage = deployErrorMessage(err);
    if (!(err instanceof DeployError)) log.error("connection test failed unexpectedly", { error: err });
  }
  repo.finishDeployment(
    deps.db,
    deploymentId,
    errorMessage === null
      ? { status: "success", item_count: outcome?.item_count ?? null, snapshot_json: outcome?.snapshot_json ?? null }
      : { status: "failed", error_message: errorMessage },
    deps.clock.now(),
  );
}

/** A deploy: the restart loop of restart-loop.ts, with its failures recorded on the deployment. */
async function runDeploy(
  deps: Deps,
  server: ServerRow,
  deploymentId: string,
  opts: DeployRuntimeOptions & { pollMs: number },
  log: ReturnType<Deps["log"]["child"]>,
): Promise<void> {
  let sftpHost: string | null | undefined;
  const queryAddress = () => {
    if (server.query_address) return queryAddressOf(server, null);
    if (sftpHost === undefined) {
      sftpHost = server.connection_type === "sftp" ? (loadCredentialRow(deps, server).creds as SftpCredentials).host : null;
    }
    return queryAddressOf(server, sftpHost);
  };
  let control: ServerControl | undefined;
  const ctx: LoopContext = {
    deps,
    server,
    deploymentId,
    pollMs: opts.pollMs,
    target: () => buildTarget(deps, server, opts),
    queryAddress,
    // Players from RCON when the server has it, else A2S; the restart by RCON's #shutdown when
    // restart_via is rcon, else by the file connection (panel power signal, SSH restart_command).
    control: async () =>
      (control ??= combineControls(
        rconControl(deps, server),
        fileTargetControl(await buildTarget(deps, server, opts), server.connection_type),
        { players: a2sPlayers(queryAddress, Math.min(2000, Math.max(200, opts.pollMs))) },
      )),
  };
  try {
    await runDeployLoop(ctx);
  } catch (err) {
    if (err instanceof SnoozeJob) throw err;
    if (!(err instanceof DeployError)) log.error("deployment failed unexpectedly", { error: err });
    const d = repo.getDeployment(deps.db, deploymentId);
    const message = deployErrorMessage(err);
    const restarted = d?.restart_requested_at != null;
    finishDeploy(deps, server, deploymentId, {
      status: "failed",
      error: restarted
        ? `the new config was written, but the restart failed: ${message}; the server was not verified (the previous and the new config are kept on this deployment)`
        : message,
    });
  }
}

/**
 * A debounced change of a list's mods: deploy it to every auto_deploy server linked to it whose
 * owner may still deploy the list (through a deploy request when the approval gate applies).
 */
export function runAutoDeploy(deps: Deps, listId: string): { deployments: string[]; requests: string[] } {
  const out = { deployments: [] as string[], requests: [] as string[] };
  const servers = repo.autoDeployServers(deps.db, listId);
  for (const server of servers) {
    const access = resolveListAccess(deps, listId, { id: server.owner_id });
    if (!access || !access.canDeploy) {
      deps.log.info("auto-deploy skipped: server owner may not deploy the list", { server_id: server.id, list_id: listId });
      continue;
    }
    if (!repo.getCredentials(deps.db, server.id)) {
      deps.log.info("auto-deploy skipped: server has no credentials", { server_id: server.id, list_id: listId });
      continue;
    }
    deps.db.transaction(
      (tx) => {
        if (access.list.require_deploy_approval && !access.isOwner) {
          if (repo.pendingRequestFor(tx, server.id, listId)) return;
          const requestId = newId();
          repo.insertRequest(tx, {
            id: requestId,
            server_id: server.id,
            list_id: listId,
            requested_by: server.owner_id,
            status: "pending",
            created_at: deps.clock.now(),
          });
          recordEvent(tx, {
            kind: "deploy_requested",
            listId,
            actorId: server.owner_id,
            at: deps.clock.now(),
            data: { request_id: requestId, server_id: server.id, server_name: server.name, trigger: "auto" },
          });
          out.requests.push(requestId);
          return;
        }
        out.deployments.push(
          queueDeployment(deps, tx, { server, kind: "deploy", listId, requestedBy: server.owner_id, trigger: "auto" }),
        );
      },
      { behavior: "immediate" },
    );
  }
  return out;
}

/**
 * A linked list changed: make sure one `deploy.auto` job is queued for it, 30 s after the first
 * change not yet covered. Later changes inside the window find it queued and add nothing; a
 * change while it runs queues the next one.
 */
export function scheduleAutoDeploy(deps: Deps, listId: string): string {
  const queued = queuedJobForList(deps.sqlite, AUTO_DEPLOY_JOB, listId);
  if (queued) return queued;
  return deps.jobs.enqueue(AUTO_DEPLOY_JOB, { list_id: listId }, { runAt: deps.clock.now() + AUTO_DEPLOY_DEBOUNCE_MS });
}

export function deployJobs(deps: Deps, opts: DeployRuntimeOptions = {}): Record<string, JobHandler> {
  return {
    [DEPLOY_JOB]: {
      maxAttempts: 3,
      concurrency: 4,
      run: async (job) => {
        await runDeployment(deps, String((job.payload as { deployment_id: string }).deployment_id), opts);
      },
    },
    [AUTO_DEPLOY_JOB]: {
      maxAttempts: 3,
      concurrency: 1,
      run: (job) => runAutoDeploy(deps, String((job.payload as { list_id: string }).list_id)),
    },
    [AUTO_DEPLOY_CHANGE_JOB]: {
      maxAttempts: 3,
      concurrency: 1,
      run: (job) => {
        scheduleAutoDeploy(deps, String((job.payload as { list_id: string }).list_id));
      },
    },
  };
}
