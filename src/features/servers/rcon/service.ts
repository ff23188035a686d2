// RCON on a community's own servers (docs/rcon.md): its settings (owners; the password sealed and
// never returned), a connection test, who is on, who was on, and one player's history.
import type { Deps } from "../../../deps";
import { AppError } from "../../../shared/errors";
import { encryptSecret } from "../../../shared/crypto";
import { toIso, toIsoOrNull } from "../../../shared/time";
import { assertHostAllowed } from "../../../shared/url-safety";
import { RconClient, RconError } from "../../../protocols/rcon/client";
import { players as readPlayers, rconPasswordProblem, RCON_DEFAULT_PORT } from "../../../protocols/rcon/reforger";
import type { AccessUser } from "../../lists";
import { parseQueryAddress } from "../model";
import * as repo from "../repository";
import { ownServer } from "../access";
import { buildTarget, sftpHostOf } from "../deploy/jobs";
import { parseConfig } from "../deploy/config-file";
import { rconAad, rconManager, rconSettings, type RconState } from "./manager";
import * as rosterRepo from "./repository";

export interface RconBody {
  host?: string;
  port?: number;
  password?: string;
  from_config?: boolean;
}

/** Where RCON answers when no host is given: the SFTP host, else the host of query_address. */
function defaultHost(deps: Deps, server: repo.ServerRow): string | null {
  const sftp = server.connection_type === "sftp" ? sftpHostOf(deps, server) : null;
  if (sftp) return sftp;
  return server.query_address ? (parseQueryAddress(server.query_address)?.host ?? null) : null;
}

/** The `rcon` block of the server's config as it is now (read over its connection). */
async function rconOfConfig(deps: Deps, server: repo.ServerRow): Promise<{ port: number; password: string; address: string | null }> {
  if (!repo.getCredentials(deps.db, server.id)) throw new AppError("server.credentials_missing", "the server has no credentials to read its config with; store them first");
  let text: string;
  try {
    const target = await buildTarget(deps, server);
    text = await target.session((io) => io.read());
  } catch (err) {
    throw new AppError("server.config_unreadable", `the server's config could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  const rcon = parseConfig(text, server.file_path).rcon as Record<string, unknown> | undefined;
  if (!rcon || typeof rcon !== "object" || typeof rcon.password !== "string" || !rcon.password)
    throw new AppError("server.config_has_no_rcon", "the server's config has no rcon block with a password");
  const port = typeof rcon.port === "number" ? rcon.port : RCON_DEFAULT_PORT;
  const address = typeof rcon.address === "string" && rcon.address && rcon.address !== "0.0.0.0" && rcon.address !== "::" ? rcon.address : null;
  return { port, password: rcon.password, address };
}

/** PUT /servers/:id/rcon (owner): stores the settings (the password sealed) and (re)opens the connection. */
export async function setRcon(deps: Deps, user: AccessUser, id: string, body: RconBody): Promise<repo.ServerRow> {
  const server = ownServer(deps, user, id);
  let { host, port, password } = body;
  if (body.from_config) {
    const c = await rconOfConfig(deps, server);
    port ??= c.port;
    password ??= c.password;
    host ??= c.address ?? undefined;
  }
  if (password === undefined) throw new AppError("request.invalid", "password: required (or from_config: true to take the config's)");
  const problem = rconPasswordProblem(password);
  if (problem) throw new AppError("request.invalid", `password: ${problem}`);
  host ??= defaultHost(deps, server) ?? undefined;
  if (!host) throw new AppError("request.invalid", "host: required (the server has neither an SFTP host nor a query_address to take it from)");
  port ??= RCON_DEFAULT_PORT;
  // The same address rule as panel and SFTP targets.
  await assertHostAllowed(host, { allowPrivate: deps.config.LOADOUT_ALLOW_PRIVATE_URLS });
  const now = deps.clock.now();
  repo.updateServer(deps.db, id, {
    rcon_host: host,
    rcon_port: port,
    rcon_password: encryptSecret(password, deps.secrets.credentialKey, rconAad(id)),
    rcon_set_at: now,
    updated_at: now,
  });
  await rconManager(deps).refresh(id);
  return repo.getServer(deps.db, id)!;
}

/** DELETE /servers/:id/rcon (owner): forgets the settings, closes the connection and the open sessions. */
export async function deleteRcon(deps: Deps, user: AccessUser, id: string): Promise<void> {
  const server = ownServer(deps, user, id);
  if (!server.rcon_host) throw new AppError("server.rcon_not_found", "the server has no RCON settings");
  const now = deps.clock.now();
  repo.updateServer(deps.db, id, {
    rcon_host: null,
    rcon_port: null,
    rcon_password: null,
    rcon_set_at: null,
    ...(server.restart_via === "rcon" ? { restart_via: "connection" as const } : {}),
    updated_at: now,
  });
  rosterRepo.closeAllSessions(deps.sqlite, id, now);
  await rconManager(deps).refresh(id);
}

/** POST /servers/:id/rcon/test: a login and a roster read of its own, in words when it fails. */
export async function testRcon(deps: Deps, user: AccessUser, id: string): Promise<{ ok: true; players: number } | { ok: false; error: string }> {
  const server = ownServer(deps, user, id);
  if (!server.rcon_host || !server.rcon_port || !server.rcon_password) throw new AppError("server.rcon_not_set", "the server has no RCON settings; set them with PUT /servers/:id/rcon");
  const settings = rconSettings(deps, server)!;
  try {
    await assertHostAllowed(settings.host, { allowPrivate: deps.config.LOADOUT_ALLOW_PRIVATE_URLS });
  } catch {
    return { ok: false, error: "url not allowed" };
  }
  const client = new RconClient({ ...settings, now: () => deps.clock.now() });
  try {
    await client.connect();
    const list = await readPlayers(client);
    return { ok: true, players: list.length };
  } catch (err) {
    return { ok: false, error: err instanceof RconError || err instanceof Error ? err.message : String(err) };
  } finally {
    client.close("test done");
  }
}

/** The server view's RCON part: the connection's state, and the config's own rcon block when it has one. */
export function rconView(deps: Deps, server: repo.ServerRow) {
  const s: RconState | null = rconManager(deps).state(server);
  return {
    rcon: s
      ? { host: s.host, port: s.port, status: s.status, error: s.error, connected_at: toIsoOrNull(s.connected_at), last_seen_at: toIsoOrNull(s.last_seen_at) }
      : null,
    rcon_suggested: server.config_rcon_port !== null && server.config_rcon_port !== undefined ? { port: server.config_rcon_port } : null,
    restart_via: server.restart_via,
  };
}

// ---- who is on, who was on

/** The server when the caller may see its players (owner; moderators too, see moderation). */
export type PlayerAccess = (deps: Deps, user: AccessUser, id: string) => repo.ServerRow;

function requireRcon(server: repo.ServerRow) {
  if (!server.rcon_host) throw new AppError("server.rcon_not_set", "the server has no RCON settings; set them with PUT /servers/:id/rcon");
}

/** A roster read before this is stale: older than two polls (RCON down, or not yet read). */
const freshSince = (deps: Deps) => deps.clock.now() - 2 * deps.config.LOADOUT_RCON_POLL_S * 1000;

/** GET /servers/:id/players: the last roster, and whether it is stale (older than two polls). */
export function playersNow(deps: Deps, server: repo.ServerRow) {
  requireRcon(server);
  const list = rosterRepo.roster(deps.sqlite, server.id);
  const fetched = server.players_fetched_at ?? null;
  const stale = fetched === null || fetched < freshSince(deps);
  return {
    players: list.map((p) => ({ player_id: p.player_id, uid: p.uid, name: p.name, joined_at: toIso(p.joined_at) })),
    count: list.length,
    fetched_at: toIsoOrNull(fetched),
    stale,
  };
}

/** The platform's /metrics (`loadout_server_players`): players on each own server with RCON whose roster is fresh. */
export const rconPlayerCounts = (deps: Deps) => rosterRepo.freshRosterCounts(deps.sqlite, freshSince(deps));

const DAY = 86_400_000;

/** GET /servers/:id/sessions?from=&to=&uid=: newest first (default the last 24 hours). */
export function sessionsOf(deps: Deps, server: repo.ServerRow, q: { from?: string; to?: string; uid?: string; limit?: number }) {
  requireRcon(server);
  const now = deps.clock.now();
  const to = q.to ? Date.parse(q.to) : now;
  const from = q.from ? Date.parse(q.from) : to - DAY;
  if (Number.isNaN(from)) throw new AppError("request.invalid", "from: must be an ISO 8601 time");
  if (Number.isNaN(to)) throw new AppError("request.invalid", "to: must be an ISO 8601 time");
  if (from > to) throw new AppError("request.invalid", "from: must not be after to");
  return rosterRepo.sessions(deps.sqlite, server.id, { from, to, uid: q.uid, limit: q.limit ?? 500 }).map((s) => ({
    uid: s.uid,
    name: s.name,
    joined_at: toIso(s.joined_at),
    left_at: toIsoOrNull(s.left_at),
    seconds: Math.max(0, Math.round(((s.left_at ?? now) - s.joined_at) / 1000)),
  }));
}

/** GET /servers/:id/players/:uid: the names, sessions and time on the server of one player. */
export function playerOf(deps: Deps, server: repo.ServerRow, uid: string) {
  requireRcon(server);
  const names = rosterRepo.playerNames(deps.sqlite, server.id, uid);
  if (!names.length) throw new AppError("player.not_found", "player not found");
  const now = deps.clock.now();
  const sessions = rosterRepo.sessions(deps.sqlite, server.id, { from: 0, to: now, uid, limit: 200 }).map((s) => ({
    uid: s.uid,
    name: s.name,
    joined_at: toIso(s.joined_at),
    left_at: toIsoOrNull(s.left_at),
    seconds: Math.max(0, Math.round(((s.left_at ?? now) - s.joined_at) / 1000)),
  }));
  return {
    uid,
    names: names.map((n) => ({ name: n.name, first_seen: toIso(n.first_seen), last_seen: toIso(n.last_seen) })),
    sessions,
    total_seconds: rosterRepo.totalSeconds(deps.sqlite, server.id, uid, now),
  };
}
