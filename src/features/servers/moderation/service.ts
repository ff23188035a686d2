// Moderation on a community's own servers (docs/rcon.md "Moderation"): kick, ban (one server or
// every server of the owner with RCON), lift; moderators; a log of every act. Loadout's list of
// bans is the truth and it holds: after every RCON (re)connection the server's own ban list is
// read and every active ban missing from it is issued again, a ban whose time ran out is lifted,
// and a banned uid that shows up in a roster is kicked and banned again (each recorded as
// `reapplied` or `expired`).
import type { Deps } from "../../../deps";
import { AppError } from "../../../shared/errors";
import { newId } from "../../../shared/ids";
import { toIso, toIsoOrNull } from "../../../shared/time";
import { recordEvent, type EventKind } from "../../../outbox/outbox";
import { banCreate, banList, banReason, banRemove, isIdentityId, kick as kickCommand, MAX_BAN_REASON_BYTES, ReforgerBanNotFoundError, type RconCommander } from "../../../protocols/rcon/reforger";
import type { AccessUser } from "../../lists";
import { moderatedServer, ownServer, type ServerRole } from "../access";
import * as repo from "../repository";
import { withRcon } from "../rcon/control";
import { rconManager } from "../rcon/manager";
import { lastNameOf, roster } from "../rcon/repository";
import * as mod from "./repository";

/** A duration in words: "1 hour", "3 days", "permanently". */
export function durationWords(seconds: number): string {
  if (seconds === 0) return "permanently";
  const units: [number, string][] = [
    [604_800, "week"],
    [86_400, "day"],
    [3_600, "hour"],
    [60, "minute"],
    [1, "second"],
  ];
  for (const [n, w] of units) if (seconds % n === 0) return `for ${seconds / n} ${w}${seconds / n === 1 ? "" : "s"}`;
  return `for ${seconds} seconds`;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

function requireRcon(server: repo.ServerRow) {
  if (!server.rcon_host) throw new AppError("server.rcon_not_set", "the server has no RCON settings; its owner sets them with PUT /servers/:id/rcon");
}

/** The servers a ban covers now (scope all: every server of the owner with RCON). */
function coveredServers(deps: Deps, ban: mod.BanRow): repo.ServerRow[] {
  const ids = ban.scope === "all" ? mod.ownerRconServers(deps.sqlite, ban.owner_id).map((r) => r.id) : [ban.server_id];
  return ids.map((id) => repo.getServer(deps.db, id)).filter((s): s is repo.ServerRow => !!s);
}

function event(deps: Deps, server: repo.ServerRow, kind: EventKind, actor: string | null, data: Record<string, unknown>) {
  const notify = [server.owner_id, ...mod.moderatorIds(deps.sqlite, server.id)];
  deps.db.transaction(
    (tx) =>
      void recordEvent(tx, {
        kind,
        listId: null,
        actorId: actor,
        at: deps.clock.now(),
        data: { server_id: server.id, server_name: server.name, actor_name: mod.displayName(deps.sqlite, actor) ?? "Loadout", notify, ...data },
      }),
    { behavior: "immediate" },
  );
}

const logEntry = (deps: Deps, e: Omit<mod.LogRow, "id" | "created_at" | "actor_name">) => mod.log(deps.sqlite, { id: newId(), created_at: deps.clock.now(), ...e });

// ---- kick

export async function kickPlayer(deps: Deps, user: AccessUser, serverId: string, playerId: number, reason: string | undefined): Promise<{ ok: true }> {
  const { server } = moderatedServer(deps, user, serverId);
  requireRcon(server);
  const on = roster(deps.sqlite, server.id).find((p) => p.player_id === playerId);
  if (!on) throw new AppError("player.not_online", "player not found on the server's latest roster");
  let result = "ok";
  try {
    await withRcon(deps, server, (r) => kickCommand(r, playerId));
  } catch (err) {
    result = errorText(err);
  }
  logEntry(deps, { server_id: server.id, action: "kick", actor_id: user.id, ban_id: null, uid: on.uid, name: on.name, reason: reason ?? null, duration_s: null, result });
  if (result !== "ok") throw new AppError("server.command_failed", `the server did not kick ${on.name}: ${result}`);
  event(deps, server, "player.kicked", user.id, { uid: on.uid, player_name: on.name, reason: reason ?? null });
  return { ok: true };
}

// ---- ban

export interface BanBody {
  uid?: string;
  player_id?: number;
  duration_s: number;
  reason: string;
  scope: "server" | "all";
}

/** The bans being issued now, per service, as `ban id:server id` (a roster asked meanwhile may still list the player). */
const issuing = new WeakMap<Deps, Set<string>>();
const issuingOf = (deps: Deps) => issuing.get(deps) ?? (issuing.set(deps, new Set()), issuing.get(deps)!);

/** Issues a ban on one server: by the player's number while they are on (which removes them), else by uid. */
async function issueOn(deps: Deps, server: repo.ServerRow, ban: mod.BanRow, rcon?: RconCommander): Promise<string> {
  const now = deps.clock.now();
  const seconds = ban.expires_at === null ? 0 : Math.max(1, Math.ceil((ban.expires_at - now) / 1000));
  const on = roster(deps.sqlite, server.id).find((p) => p.uid === ban.uid);
  const key = `${ban.id}:${server.id}`;
  issuingOf(deps).add(key);
  try {
    const run = (r: RconCommander) => banCreate(r, on ? on.player_id : ban.uid, seconds, ban.reason);
    await (rcon ? run(rcon) : withRcon(deps, server, run));
    return "ok";
  } catch (err) {
    return errorText(err);
  } finally {
    issuingOf(deps).delete(key);
  }
}

/**
 * Whether a roster asked at `askedAt` can say a ban did not hold: not while the ban is being
 * issued on the server, nor when it was made or issued there after the roster was asked for.
 */
function rosterPredates(deps: Deps, server: repo.ServerRow, ban: mod.BanRow, askedAt: number): boolean {
  if (issuingOf(deps).has(`${ban.id}:${server.id}`) || ban.created_at >= askedAt) return true;
  const last = mod.lastIssuedAt(deps.sqlite, ban.id, server.id);
  return last !== null && last >= askedAt;
}

export async function createBan(deps: Deps, user: AccessUser, serverId: string, body: BanBody) {
  const { server } = moderatedServer(deps, user, serverId);
  requireRcon(server);
  const reason = banReason(body.reason);
  if (!reason) throw new AppError("request.invalid", "reason: say why (1 to 500 characters)");
  if (Buffer.byteLength(reason, "utf8") > MAX_BAN_REASON_BYTES) throw new AppError("request.invalid", `reason: at most ${MAX_BAN_REASON_BYTES} bytes (the game's limit)`);
  let uid = body.uid;
  let name: string | null = null;
  if (body.player_id !== undefined) {
    const on = roster(deps.sqlite, server.id).find((p) => p.player_id === body.player_id);
    if (!on) throw new AppError("player.not_online", "player not found on the server's latest roster");
    uid = on.uid;
    name = on.name;
  }
  if (!uid) throw new AppError("request.invalid", "uid or player_id: say who to ban");
  if (!isIdentityId(uid)) throw new AppError("request.invalid", "uid: must be a player's identity id (36 characters, as the roster shows it)");
  name ??= lastNameOf(deps.sqlite, server.id, uid) ?? uid;
  const now = deps.clock.now();
  const ban: mod.BanRow = {
    id: newId(),
    owner_id: server.owner_id,
    server_id: server.id,
    scope: body.scope,
    uid,
    name,
    reason,
    duration_s: body.duration_s,
    expires_at: body.duration_s === 0 ? null : now + body.duration_s * 1000,
    created_by: user.id,
    created_at: now,
    lifted_at: null,
    lifted_by: null,
    expired_at: null,
  };
  mod.insertBan(deps.sqlite, ban);
  for (const s of coveredServers(deps, ban)) {
    const result = await issueOn(deps, s, ban);
    logEntry(deps, { server_id: s.id, action: "ban", actor_id: user.id, ban_id: ban.id, uid, name, reason, duration_s: ban.duration_s, result });
  }
  event(deps, server, "player.banned", user.id, { uid, player_name: name, reason, duration_s: ban.duration_s, duration: durationWords(ban.duration_s), scope: ban.scope });
  return banView(deps, mod.getBan(deps.sqlite, ban.id)!);
}

/** DELETE /bans/:id: lifted on every server it covers (owner; a moderator their own bans). */
export async function liftBan(deps: Deps, user: AccessUser, banId: string): Promise<void> {
  const ban = mod.getBan(deps.sqlite, banId);
  if (!ban) throw new AppError("ban.not_found", "ban not found");
  let role: ServerRole;
  try {
    role = moderatedServer(deps, user, ban.server_id).role;
  } catch {
    throw new AppError("ban.not_found", "ban not found");
  }
  if (role === "moderator" && ban.created_by !== user.id) throw new AppError("ban.forbidden", "no permission: a moderator lifts only their own bans");
  if (!mod.liftBan(deps.sqlite, ban.id, user.id, deps.clock.now())) return; // lifted already
  for (const s of coveredServers(deps, ban)) {
    let result = "ok";
    try {
      await withRcon(deps, s, (r) => banRemove(r, ban.uid));
    } catch (err) {
      if (!(err instanceof ReforgerBanNotFoundError)) result = errorText(err);
    }
    logEntry(deps, { server_id: s.id, action: "unban", actor_id: user.id, ban_id: ban.id, uid: ban.uid, name: ban.name, reason: ban.reason, duration_s: ban.duration_s, result });
  }
  const server = repo.getServer(deps.db, ban.server_id);
  if (server) event(deps, server, "player.unbanned", user.id, { uid: ban.uid, player_name: ban.name, reason: ban.reason });
}

export function banView(deps: Deps, b: mod.BanRow) {
  return {
    id: b.id,
    uid: b.uid,
    name: b.name,
    reason: b.reason,
    duration_s: b.duration_s,
    expires_at: toIsoOrNull(b.expires_at),
    scope: b.scope,
    server_ids: coveredServers(deps, b).map((s) => s.id),
    created_by: b.created_by,
    created_by_name: mod.displayName(deps.sqlite, b.created_by),
    created_at: toIso(b.created_at),
    lifted_at: toIsoOrNull(b.lifted_at),
    active: mod.isActive(b, deps.clock.now()),
  };
}

export function serverBans(deps: Deps, user: AccessUser, serverId: string, active: boolean | undefined) {
  const { server } = moderatedServer(deps, user, serverId);
  return mod.bansCovering(deps.sqlite, server, { active, now: deps.clock.now() }).map((b) => banView(deps, b));
}

export const visibleBans = (deps: Deps, user: AccessUser) => mod.bansVisibleTo(deps.sqlite, user.id).map((b) => banView(deps, b));

export function moderationLog(deps: Deps, user: AccessUser, serverId: string, limit = 200) {
  const { server } = moderatedServer(deps, user, serverId);
  return mod.logOf(deps.sqlite, server.id, limit).map((l) => ({
    id: l.id,
    action: l.action,
    actor: l.actor_id ? { user_id: l.actor_id, display_name: l.actor_name ?? "" } : ("loadout" as const),
    uid: l.uid,
    name: l.name,
    reason: l.reason,
    duration_s: l.duration_s,
    result: l.result,
    created_at: toIso(l.created_at),
  }));
}

// ---- moderators (owner only)

/** GET /servers/moderated: the servers the caller moderates, so the pages reach their players and bans. */
export const moderatedServers = (deps: Deps, user: AccessUser) => mod.moderatedBy(deps.sqlite, user.id).map((s) => ({ id: s.id, name: s.name, role: "moderator" as const }));

export function listModerators(deps: Deps, user: AccessUser, serverId: string) {
  const server = ownServer(deps, user, serverId);
  return mod.moderators(deps.sqlite, server.id).map((m) => ({ user_id: m.user_id, display_name: m.display_name, added_at: toIso(m.added_at) }));
}

export function addModerator(deps: Deps, user: AccessUser, serverId: string, body: { user_id?: string; email?: string }) {
  const server = ownServer(deps, user, serverId);
  const id = body.user_id ?? (body.email ? mod.userByEmail(deps.sqlite, body.email)?.id : undefined);
  if (!body.user_id && !body.email) throw new AppError("request.invalid", "user_id or email: say who");
  if (!id || !mod.userExists(deps.sqlite, id)) throw new AppError("user.not_found", "user not found");
  if (id === server.owner_id) throw new AppError("moderator.is_owner", "the owner moderates their own server already");
  mod.addModerator(deps.sqlite, server.id, id, user.id, deps.clock.now());
  return listModerators(deps, user, serverId);
}

export function removeModerator(deps: Deps, user: AccessUser, serverId: string, userId: string) {
  const server = ownServer(deps, user, serverId);
  if (!mod.removeModerator(deps.sqlite, server.id, userId)) throw new AppError("moderator.not_found", "moderator not found");
}

// ---- bans that hold

/**
 * After a (re)connection: the server's ban list read, every active ban covering the server that it
 * lacks issued again, every lifted or run-out one it still holds removed.
 */
export async function reapplyBans(deps: Deps, serverId: string, rcon: RconCommander): Promise<void> {
  const server = repo.getServer(deps.db, serverId);
  if (!server) return;
  const now = deps.clock.now();
  let held: Set<string>;
  try {
    held = new Set((await banList(rcon)).map((b) => b.uid));
  } catch (err) {
    deps.log.warn("moderation: the server's ban list could not be read", { server_id: serverId, error: errorText(err) });
    return;
  }
  const covering = mod.bansCovering(deps.sqlite, server, { now });
  const activeUids = new Set(covering.filter((b) => mod.isActive(b, now)).map((b) => b.uid));
  for (const ban of covering) {
    if (mod.isActive(ban, now)) {
      if (held.has(ban.uid)) continue;
      const result = await issueOn(deps, server, ban, rcon);
      logEntry(deps, { server_id: server.id, action: "reapplied", actor_id: null, ban_id: ban.id, uid: ban.uid, name: ban.name, reason: ban.reason, duration_s: ban.duration_s, result });
      held.add(ban.uid);
    } else if (held.has(ban.uid) && !activeUids.has(ban.uid)) {
      await expire(deps, server, ban, rcon);
      held.delete(ban.uid);
    }
  }
}

/** A ban whose time ran out (or that was lifted) still held by the server: removed and recorded. */
async function expire(deps: Deps, server: repo.ServerRow, ban: mod.BanRow, rcon: RconCommander): Promise<void> {
  let result = "ok";
  try {
    await banRemove(rcon, ban.uid);
  } catch (err) {
    if (!(err instanceof ReforgerBanNotFoundError)) result = errorText(err);
  }
  const action = ban.lifted_at !== null ? "unban" : "expired";
  if (action === "expired") mod.markExpired(deps.sqlite, ban.id, deps.clock.now());
  logEntry(deps, { server_id: server.id, action, actor_id: null, ban_id: ban.id, uid: ban.uid, name: ban.name, reason: ban.reason, duration_s: ban.duration_s, result });
}

/**
 * After each roster read: a banned uid on the server is kicked and banned again (by their player
 * number), unless the roster was asked for before the ban was issued there; a ban whose time ran
 * out is marked expired and lifted where the game still holds it.
 */
export async function enforceBans(deps: Deps, serverId: string, rcon: RconCommander, askedAt: number): Promise<void> {
  const server = repo.getServer(deps.db, serverId);
  if (!server) return;
  const now = deps.clock.now();
  const covering = mod.bansCovering(deps.sqlite, server, { now });
  const active = new Map(covering.filter((b) => mod.isActive(b, now)).map((b) => [b.uid, b]));
  for (const p of roster(deps.sqlite, server.id)) {
    const ban = active.get(p.uid);
    if (!ban || rosterPredates(deps, server, ban, askedAt)) continue;
    const result = await issueOn(deps, server, ban, rcon);
    logEntry(deps, { server_id: server.id, action: "reapplied", actor_id: null, ban_id: ban.id, uid: ban.uid, name: p.name, reason: ban.reason, duration_s: ban.duration_s, result });
  }
  for (const ban of covering) {
    if (ban.lifted_at === null && ban.expires_at !== null && ban.expires_at <= now && ban.expired_at === null && !active.has(ban.uid)) await expire(deps, server, ban, rcon);
  }
}

/** Hooks moderation into the service's RCON connections. */
export function enforceWith(deps: Deps): void {
  const m = rconManager(deps);
  m.onConnected((id, rcon) => reapplyBans(deps, id, rcon));
  m.onRoster((id, rcon, { askedAt }) => enforceBans(deps, id, rcon, askedAt));
}
