// The deploy loop of a deployment of kind `deploy` (docs/deploy.md "Restart, verify, roll back"):
//
//   writing → [waiting_for_empty] → restarting → verifying → done (success)
//                                                    └ not back in time → rolling_back → done (failed, rolled_back)
//
// The deployment row is the loop's durable state. Every step is written to SQLite before it is
// taken (the previous config before the write, "restart requested" before the restart signal),
// so a process killed at any point resumes from the row, never restarts the game server twice
// for one step and never loses the config it replaced. Waits (players still on, the server not
// back yet) are not held in the worker: the job is snoozed (SnoozeJob) and runs again after
// LOADOUT_DEPLOY_POLL_MS, continuing from the stored phase.
import type { Deps } from "../../../deps";
import { SnoozeJob } from "../../../jobs/queue";
import { recordEvent, type EventKind } from "../../../outbox/outbox";
import { queueItemsScan } from "../../scraper";
import { queryInfo } from "../../../protocols/a2s/a2s";
import * as repo from "../repository";
import type { DeploymentRow, ServerRow } from "../repository";
import { parseQueryAddress } from "../model";
import { DeployError, RateLimitedError, deployErrorMessage } from "./errors";
import { configSeen, recordConfigSeen } from "./config-seen";
import { prepareDeployGuard } from "./preflight";
import { listToServerJsonMods, parseConfig } from "./config-file";
import { listRequiredDefault, type ServerJsonMod } from "../../lists";
import { deployMods, fileNameOf, modsOfConfig, writeVerified, type ConfigFileIO, type ConfigTarget, type RenameKey } from "./target";
import { openConfig, openConfigOrNull, sealConfig } from "./config-seal";
import { CredentialCryptoError } from "../../../shared/crypto";
import type { ServerControl } from "../control";

type Phase = NonNullable<DeploymentRow["phase"]>;

export interface LoopContext {
  deps: Deps;
  server: ServerRow;
  deploymentId: string;
  /** Opens the target with its restart ability (panel power signal, SFTP restart_command). */
  target: () => Promise<ConfigTarget>;
  /** Where the game server answers A2S queries (query_address, else the SFTP host on 17777). */
  queryAddress: () => { host: string; port: number } | null;
  /** Talking to the game server itself (servers/control.ts): players, restart, power state. */
  control: () => Promise<ServerControl>;
  pollMs: number;
}

/** A panel that reports `running` with an uptime longer than the time since our restart (plus this) was not restarted. */
const UPTIME_SLACK_MS = 15_000;

const now = (ctx: LoopContext) => ctx.deps.clock.now();
const row = (ctx: LoopContext) => repo.getDeployment(ctx.deps.db, ctx.deploymentId)!;
const update = (ctx: LoopContext, patch: Partial<DeploymentRow>) => repo.updateDeployment(ctx.deps.db, ctx.deploymentId, patch);
const enter = (ctx: LoopContext, phase: Phase, patch: Partial<DeploymentRow> = {}) =>
  update(ctx, { phase, phase_started_at: now(ctx), verify_note: null, ...patch });

/** "02:14 UTC" */
function clockTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}

function addressText(a: { host: string; port: number } | null): string {
  if (!a) return "its query address";
  return a.host.includes(":") ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`;
}

/** +added −removed ~version-changed between the config's mods before and the mods written. */
export function modChanges(previousConfig: string | null, written: ServerJsonMod[], fileName: string) {
  let before: ServerJsonMod[] = [];
  try {
    const game = previousConfig ? parseConfig(previousConfig, fileName).game : null;
    if (game && typeof game === "object" && !Array.isArray(game)) before = modsOfConfig(game as Record<string, unknown>);
  } catch {
    before = [];
  }
  const old = new Map(before.map((m) => [m.modId.toUpperCase(), m]));
  const next = new Map(written.map((m) => [m.modId.toUpperCase(), m]));
  const added = written.filter((m) => !old.has(m.modId.toUpperCase())).map((m) => m.name || m.modId);
  const removed = before.filter((m) => !next.has(m.modId.toUpperCase())).map((m) => m.name || m.modId);
  const updated = written
    .filter((m) => {
      const o = old.get(m.modId.toUpperCase());
      return o !== undefined && (o.version ?? null) !== (m.version ?? null);
    })
    .map((m) => m.name || m.modId);
  return { added, removed, updated };
}

/** Runs the loop from the stored phase until it finishes or has to wait (throws SnoozeJob). */
export async function runDeployLoop(ctx: LoopContext): Promise<void> {
  for (;;) {
    const d = row(ctx);
    if (d.status !== "running") return;
    switch (d.phase) {
      case null:
      case "writing":
        await stepWrite(ctx, d);
        break;
      case "waiting_for_empty":
        await stepWait(ctx, d);
        break;
      case "restarting":
        await stepRestart(ctx);
        break;
      case "verifying":
        await stepVerify(ctx, d);
        break;
      case "rolling_back":
        await stepRollback(ctx, d);
        break;
      case "done":
        return;
    }
  }
}

// ---- finishing

export interface DeployOutcome {
  status: "success" | "failed";
  error: string | null;
  extra?: Partial<DeploymentRow>;
  events?: { kind: EventKind; data: Record<string, unknown> }[];
}

const finish = (ctx: LoopContext, outcome: DeployOutcome) => finishDeploy(ctx.deps, ctx.server, ctx.deploymentId, outcome);

/**
 * Ends a deploy (phase done) in one transaction with its events: the loop's own, then
 * deployment_succeeded / deployment_failed; a success on SFTP queues the items scan.
 */
export function finishDeploy(deps: Deps, server: ServerRow, deploymentId: string, outcome: DeployOutcome): void {
  const at = deps.clock.now();
  deps.db.transaction(
    (tx) => {
      const d = repo.getDeployment(tx, deploymentId)!;
      const finished = repo.finishDeployment(
        tx,
        deploymentId,
        { status: outcome.status, error_message: outcome.error, extra: { phase: "done", phase_started_at: at, ...outcome.extra } },
        at,
      );
      if (!finished) return;
      if (outcome.status === "success" && server.connection_type === "sftp") queueItemsScan(deps, { serverId: server.id, db: tx });
      const base = { deployment_id: d.id, server_id: server.id, server_name: server.name };
      for (const e of outcome.events ?? []) {
        recordEvent(tx, { kind: e.kind, listId: d.list_id, actorId: d.requested_by, at, data: { ...base, ...e.data } });
      }
      recordEvent(tx, {
        kind: outcome.status === "success" ? "deployment_succeeded" : "deployment_failed",
        listId: d.list_id,
        actorId: d.requested_by,
        at,
        data: {
          ...base,
          trigger: d.trigger,
          item_count: d.item_count,
          error_message: outcome.error,
          restart: d.restart_mode,
          rolled_back: !!outcome.extra?.rolled_back || d.rolled_back,
        },
      });
    },
    { behavior: "immediate" },
  );
  const log = deps.log.child({ deployment_id: deploymentId, server_id: server.id });
  if (outcome.status === "success") log.info("deployment succeeded");
  else log.warn("deployment failed", { error_message: outcome.error });
}

// ---- writing

async function stepWrite(ctx: LoopContext, d: DeploymentRow): Promise<void> {
  if (d.phase === null) enter(ctx, "writing");
  if (!d.list_id) throw new DeployError("the list of this deployment no longer exists");
  const mods = listToServerJsonMods(repo.listModsForDeploy(ctx.deps.db, d.list_id));
  // Pre-flight: the server findings against the config as read now, before the write;
  // a forced deploy and a resumed one (it may read its own write) go past it.
  const guard = d.forced || row(ctx).previous_config !== null ? null : await prepareDeployGuard(ctx.deps, ctx.server, d.list_id);
  const target = await ctx.target();
  const fileName = fileNameOf(target.filePath);
  let written = "";
  await deployMods(target, mods, {
    listRequiredDefault: listRequiredDefault(ctx.deps.sqlite, d.list_id),
    renameKeys: d.rename_keys ? (JSON.parse(d.rename_keys) as RenameKey[]) : [],
    // Write-ahead: the config as it was before this deploy (the first read only: a resumed run
    // may read its own write) and the one about to be written, stored (sealed) before the write.
    beforeWrite: (current, next) => {
      guard?.(current, next, fileName);
      written = next;
      const first = row(ctx).previous_config === null;
      update(ctx, {
        previous_config: row(ctx).previous_config ?? sealConfig(ctx.deps, d.id, "previous_config", current),
        new_config: sealConfig(ctx.deps, d.id, "new_config", next),
        // Read first (a resumed run reads its own write): the server had exactly this config.
        ...(first ? { config_unchanged: current === next } : {}),
      });
    },
    afterWrite: async (io) => {
      update(ctx, { item_count: mods.length, snapshot_json: JSON.stringify(mods) });
      recordConfigSeen(ctx.deps.db, ctx.server.id, configSeen(written, fileName, now(ctx)));
      if (d.restart_mode === "none") return;
      // Nothing changed on the server: restarting would throw the players out for nothing.
      if (row(ctx).config_unchanged && !d.restart_anyway) return;
      if (d.restart_mode === "when_empty") return enter(ctx, "waiting_for_empty");
      // `now`: restart over the same connection (SFTP: the same SSH session).
      enter(ctx, "restarting", { wait_ended: null });
      await restart(ctx, io, "first");
    },
  });
  const r = row(ctx);
  if (d.restart_mode === "none") finish(ctx, { status: "success", error: null });
  else if (r.config_unchanged && !d.restart_anyway && r.phase === "writing")
    finish(ctx, { status: "success", error: null, extra: { verify_note: "the server's config already had these mods: nothing written, not restarted" } });
}

// ---- waiting for an empty server

async function stepWait(ctx: LoopContext, d: DeploymentRow): Promise<void> {
  if (d.restart_now_requested_at !== null) return enter(ctx, "restarting", { wait_ended: "restart_now" });
  const address = ctx.queryAddress();
  const control = await ctx.control();
  const count = control.players ? await control.players() : null;
  const players = count?.count ?? null;
  const from = count?.source === "rcon" ? " (RCON)" : count?.source === "a2s" ? " (A2S)" : "";
  if (players === 0) return enter(ctx, "restarting", { wait_ended: "empty", verify_note: `0 players${from}` });
  const started = d.phase_started_at ?? now(ctx);
  const waitedS = Math.round((now(ctx) - started) / 1000);
  const seen = players === null ? `no answer on ${addressText(address)}` : `${players} player${players === 1 ? "" : "s"} on${from}`;
  if (now(ctx) - started >= (d.empty_wait_s ?? 3600) * 1000) {
    return enter(ctx, "restarting", { wait_ended: "timeout", verify_note: `waited ${waitedS} s for an empty server (${seen}); restarting anyway` });
  }
  // A "restart now" that arrived during the query is seen at once.
  if (row(ctx).restart_now_requested_at !== null) return enter(ctx, "restarting", { wait_ended: "restart_now" });
  update(ctx, { verify_note: seen });
  throw new SnoozeJob(ctx.pollMs, `waiting for an empty server (${seen})`);
}

function a2sTimeout(ctx: LoopContext): number {
  return Math.min(2000, Math.max(200, ctx.pollMs));
}

// ---- restarting

async function stepRestart(ctx: LoopContext): Promise<void> {
  const target = await ctx.target();
  await target.session((io) => restart(ctx, io, "first"));
}

/**
 * One restart of the game server, at most once: "restart requested" is committed before the
 * signal is sent; a resumed run that finds it set but no answer recorded does not send it again
 * (the restart may have happened: verification tells).
 */
async function restart(ctx: LoopContext, io: ConfigFileIO, which: "first" | "rollback"): Promise<void> {
  const requestedKey = which === "first" ? "restart_requested_at" : "rollback_restart_requested_at";
  const doneKey = which === "first" ? "restarted_at" : "rollback_restarted_at";
  const nextPhase: Partial<DeploymentRow> = which === "first" ? { phase: "verifying" } : {};
  const d = row(ctx);
  if (d[doneKey] !== null) return;
  if (d[requestedKey] !== null) {
    // Killed between the request and its answer: never sent twice.
    const at = d[requestedKey]!;
    ctx.deps.db.transaction((tx) => {
      repo.updateDeployment(tx, d.id, { [doneKey]: at, ...nextPhase, phase_started_at: at, verify_note: null });
      restartingEvent(ctx, tx, row(ctx), which, at);
    });
    return;
  }
  const control = await ctx.control();
  if (!control.restart) throw new DeployError("this server has no way to restart (an SFTP server needs restart_command)");
  update(ctx, { [requestedKey]: now(ctx) });
  let result;
  try {
    result = await control.restart(io);
  } catch (err) {
    if (err instanceof RateLimitedError) {
      // Not accepted: the signal was not sent, so it may be sent later.
      update(ctx, { [requestedKey]: null });
      throw new SnoozeJob(Math.max(ctx.pollMs, err.retryAfterMs ?? 0), err.message);
    }
    throw err;
  }
  const at = now(ctx);
  ctx.deps.db.transaction((tx) => {
    repo.updateDeployment(tx, d.id, {
      [doneKey]: at,
      ...nextPhase,
      phase_started_at: at,
      verify_note: null,
      restart_exit_status: result.exit_status,
      restart_output: result.output,
    });
    restartingEvent(ctx, tx, row(ctx), which, at);
  });
  if (result.exit_status !== null && result.exit_status !== 0) {
    const last = (result.output ?? "").split("\n").pop() ?? "";
    throw new DeployError(`the restart command exited with status ${result.exit_status}${last ? `: ${last}` : ""}`);
  }
}

function restartingEvent(ctx: LoopContext, tx: repo.TxLike, d: DeploymentRow, which: "first" | "rollback", at: number): void {
  const written: ServerJsonMod[] = d.snapshot_json ? JSON.parse(d.snapshot_json) : [];
  const changes =
    which === "first"
      ? modChanges(openConfigOrNull(ctx.deps, d, "previous_config"), written, fileNameOf(ctx.server.file_path))
      : { added: [] as string[], removed: [] as string[], updated: [] as string[] };
  recordEvent(tx, {
    kind: "deploy.restarting",
    listId: d.list_id,
    actorId: d.requested_by,
    at,
    data: {
      deployment_id: d.id,
      server_id: ctx.server.id,
      server_name: ctx.server.name,
      when: new Date(at).toISOString(),
      rollback: which === "rollback",
      reason: which === "rollback" ? "rollback" : (d.wait_ended ?? "now"),
      added: changes.added,
      removed: changes.removed,
      updated: changes.updated,
    },
  });
}

// ---- verifying

interface Check {
  ok: boolean;
  /** What was seen, for the page while waiting and for the message when time runs out. */
  note: string;
  /** The reason in words an operator acts on ("server did not answer on h:p"). */
  failure: string;
}

async function check(ctx: LoopContext, since: number): Promise<Check> {
  const address = ctx.queryAddress();
  const control = await ctx.control();
  if (control.state) {
    try {
      const state = await control.state();
      if (state.current_state !== "running") {
        return { ok: false, note: `the panel reports the server ${state.current_state}`, failure: `the panel did not report the server running (last: ${state.current_state})` };
      }
      if (state.uptime_ms !== null && state.uptime_ms > now(ctx) - since + UPTIME_SLACK_MS) {
        return {
          ok: false,
          note: `the panel reports the server running for ${Math.round(state.uptime_ms / 1000)} s, since before the restart`,
          failure: "the panel never reported the server restarted (it kept running since before the restart signal)",
        };
      }
    } catch (err) {
      const msg = deployErrorMessage(err);
      return { ok: false, note: `the panel did not answer: ${msg}`, failure: `the panel did not report the server running (${msg})` };
    }
  }
  if (!address) return { ok: false, note: "no query address to check", failure: "no query address is known to check the server" };
  try {
    await queryInfo(address.host, address.port, { timeoutMs: a2sTimeout(ctx) });
    return { ok: true, note: `answered on ${addressText(address)}`, failure: "" };
  } catch {
    return { ok: false, note: `no A2S answer on ${addressText(address)} yet`, failure: `server did not answer on ${addressText(address)}` };
  }
}

async function stepVerify(ctx: LoopContext, d: DeploymentRow): Promise<void> {
  const since = d.restarted_at ?? d.phase_started_at ?? now(ctx);
  const timeoutS = d.verify_timeout_s ?? 600;
  const c = await check(ctx, since);
  if (c.ok) {
    const at = now(ctx);
    return finish(ctx, {
      status: "success",
      error: null,
      extra: { verified_at: at, verify_note: c.note },
      events: [{ kind: "deploy.verified", data: { verified_at: new Date(at).toISOString(), restarted_at: new Date(since).toISOString(), item_count: d.item_count, address: addressText(ctx.queryAddress()) } }],
    });
  }
  if (now(ctx) - since >= timeoutS * 1000) {
    return enter(ctx, "rolling_back", { rollback_reason: `${c.failure} within ${timeoutS} s after the restart`, verify_note: c.note });
  }
  update(ctx, { verify_note: c.note });
  throw new SnoozeJob(ctx.pollMs, `verifying: ${c.note}`);
}

// ---- rolling back

async function stepRollback(ctx: LoopContext, d: DeploymentRow): Promise<void> {
  const reason = d.rollback_reason ?? "the server did not come back after the restart";
  const failRollback = (what: string) =>
    finish(ctx, {
      status: "failed",
      error: `${reason}; ${what}; the previous and the new config are kept on this deployment`,
      events: [{ kind: "deploy.rolled_back", data: { ok: false, reason, error_message: `${reason}; ${what}` } }],
    });
  if (d.previous_config === null) return failRollback("the previous config was never read, so there is nothing to restore");
  let previous: string;
  try {
    previous = openConfig(ctx.deps, d, "previous_config")!;
  } catch (err) {
    if (!(err instanceof CredentialCryptoError)) throw err;
    return failRollback(`the stored previous config cannot be opened (${err.message})`);
  }
  const target = await ctx.target();
  if (d.rollback_written_at === null) {
    try {
      await target.session(async (io) => {
        const current = await io.read();
        // Byte for byte what the deploy read before it wrote.
        await writeVerified(target, io, previous, current);
        update(ctx, { rollback_written_at: now(ctx), rolled_back: true });
        // What the server has again: the pre-flight and Live read the previous mods, not the ones rolled back.
        try {
          recordConfigSeen(ctx.deps.db, ctx.server.id, configSeen(previous, fileNameOf(target.filePath), now(ctx)));
        } catch {
          // a previous config the reader cannot parse: the record stays until the next test
        }
        await restartForRollback(ctx, io);
      });
    } catch (err) {
      if (err instanceof SnoozeJob) throw err;
      const r = row(ctx);
      if (r.rollback_written_at === null) {
        // A panel or SSH hiccup must not leave the broken config in place: try again, one poll
        // apart, for as long as a restart may take to verify; then say it failed.
        const since = d.phase_started_at ?? now(ctx);
        if (now(ctx) - since < (d.verify_timeout_s ?? 600) * 1000) {
          update(ctx, { verify_note: `restoring the previous config failed (${deployErrorMessage(err)}); trying again` });
          throw new SnoozeJob(ctx.pollMs, "rolling back: restoring the previous config failed; trying again");
        }
        return failRollback(`restoring the previous config failed too: ${deployErrorMessage(err)}`);
      }
      return failRollback(`the previous config was restored, but restarting the server failed: ${deployErrorMessage(err)}`);
    }
    return;
  }
  if (d.rollback_restarted_at === null) {
    try {
      await target.session((io) => restartForRollback(ctx, io));
    } catch (err) {
      if (err instanceof SnoozeJob) throw err;
      return failRollback(`the previous config was restored, but restarting the server failed: ${deployErrorMessage(err)}`);
    }
    return;
  }
  // Restored and restarted: wait for the server to answer again.
  const since = d.rollback_restarted_at;
  const timeoutS = d.verify_timeout_s ?? 600;
  const c = await check(ctx, since);
  if (c.ok) {
    const at = now(ctx);
    const message = `${reason}; the previous config was restored and the server answered again at ${clockTime(at)}`;
    return finish(ctx, {
      status: "failed",
      error: message,
      extra: { rollback_verified_at: at, verify_note: c.note },
      events: [{ kind: "deploy.rolled_back", data: { ok: true, reason, answered_again_at: new Date(at).toISOString(), error_message: message } }],
    });
  }
  if (now(ctx) - since >= timeoutS * 1000) {
    return failRollback(`the previous config was restored and the server restarted again, but it did not answer within ${timeoutS} s either (${c.note})`);
  }
  update(ctx, { verify_note: c.note });
  throw new SnoozeJob(ctx.pollMs, `rolling back: ${c.note}`);
}

async function restartForRollback(ctx: LoopContext, io: ConfigFileIO): Promise<void> {
  await restart(ctx, io, "rollback");
}

/** The A2S address of a server: query_address, else the SFTP host on port 17777. */
export function queryAddressOf(server: ServerRow, sftpHost: string | null): { host: string; port: number } | null {
  if (server.query_address) return parseQueryAddress(server.query_address);
  if (sftpHost) return { host: sftpHost, port: 17777 };
  return null;
}
