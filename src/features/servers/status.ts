// GET /servers/:id/status: what the server page opens with. Whether the game server answers A2S
// now and who is on (RCON's roster when it is fresh, else the A2S count), where players connect,
// what Loadout deployed to it last and its entry in Live. The A2S question is cheap (one datagram,
// 1.5 s at most) and its answer is kept a few seconds per server, so a page polling it, or many
// tabs open, ask the game server at most once per TTL.
import type { Deps } from "../../deps";
import { queryInfo, type A2sInfo } from "../../protocols/a2s/a2s";
import { toIso, toIsoOrNull } from "../../shared/time";
import { assertHostAllowed } from "../../shared/url-safety";
import type { AccessUser } from "../lists";
import { moderatedServer } from "./access";
import { sftpHostOf } from "./deploy/jobs";
import { queryAddressOf } from "./deploy/restart-loop";
import type { z } from "zod";
import type { serverStatusView } from "./model";
import * as repo from "./repository";
import { roster } from "./rcon/repository";

export type ServerStatus = z.infer<typeof serverStatusView>;

/** How long an A2S answer (or its absence) is reused. */
export const STATUS_TTL_MS = 5_000;
/** How long the status waits for the game server's answer. */
export const STATUS_TIMEOUT_MS = 1_500;

interface Asked {
  /** The address asked (a changed query address asks anew). */
  key: string;
  at: number;
  answer: Promise<{ info: A2sInfo } | { error: string }>;
}

/** The last A2S answer per server, one map per running service (like its RCON manager). */
const asked = new WeakMap<Deps, Map<string, Asked>>();

const hostPort = (host: string, port: number) => (host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`);

async function ask(deps: Deps, host: string, port: number): Promise<{ info: A2sInfo } | { error: string }> {
  try {
    await assertHostAllowed(host, { allowPrivate: deps.config.LOADOUT_ALLOW_PRIVATE_URLS });
  } catch {
    return { error: `${host} is a private address (LOADOUT_ALLOW_PRIVATE_URLS is off), so Loadout does not ask it` };
  }
  try {
    return { info: await queryInfo(host, port, { timeoutMs: STATUS_TIMEOUT_MS }) };
  } catch {
    return { error: `no answer on ${hostPort(host, port)} within ${STATUS_TIMEOUT_MS / 1000} s` };
  }
}

/** The server's status for its owner or a moderator (a moderator does not see what was deployed). */
export async function serverStatus(deps: Deps, user: AccessUser, id: string): Promise<ServerStatus> {
  const { server, role } = moderatedServer(deps, user, id);
  const address = queryAddressOf(server, sftpHostOf(deps, server));
  let reachable: boolean | null = null;
  let note: string | null = null;
  let info: A2sInfo | null = null;
  let checkedAt = deps.clock.now();
  if (!address) {
    note =
      server.connection_type === "panel"
        ? "no query address is set, so Loadout cannot ask the game server (set one in the settings)"
        : "the SFTP credentials are not set, so Loadout does not know where to ask the game server";
  } else {
    let perServer = asked.get(deps);
    if (!perServer) asked.set(deps, (perServer = new Map()));
    const key = hostPort(address.host, address.port);
    let entry = perServer.get(server.id);
    if (!entry || entry.key !== key || deps.clock.now() - entry.at >= STATUS_TTL_MS) {
      entry = { key, at: deps.clock.now(), answer: ask(deps, address.host, address.port) };
      perServer.set(server.id, entry);
    }
    const answer = await entry.answer;
    checkedAt = entry.at;
    if ("info" in answer) {
      reachable = true;
      info = answer.info;
    } else {
      reachable = false;
      note = answer.error;
    }
  }
  // Who is on: RCON's roster while it is fresh (names, not just a count), else the A2S count. A
  // fresh roster also says the server is up, when A2S cannot tell.
  const fresh = !!server.rcon_host && server.players_fetched_at !== null && server.players_fetched_at >= deps.clock.now() - 2 * deps.config.LOADOUT_RCON_POLL_S * 1000;
  const players = fresh ? roster(deps.sqlite, server.id).length : (info?.players ?? null);
  if (fresh && reachable !== true) {
    reachable = true;
    note = note ? `RCON answers; A2S does not: ${note}` : null;
  }
  const last = role === "owner" ? repo.lastSuccessfulDeploy(deps.db, server.id) : undefined;
  return {
    reachable,
    note,
    address: info && address && info.game_port ? hostPort(address.host, info.game_port) : null,
    query_address: address ? hostPort(address.host, address.port) : null,
    name: info?.name || null,
    scenario: info?.map || null,
    players,
    max_players: info?.max_players ?? null,
    players_from: fresh ? "rcon" : info ? "a2s" : null,
    game_version: info?.version || null,
    checked_at: toIso(checkedAt),
    deployed: last
      ? {
          deployment_id: last.id,
          list_id: last.list_id,
          list_name: last.list_id ? repo.listName(deps.db, last.list_id) : null,
          mod_count: last.item_count,
          finished_at: toIsoOrNull(last.finished_at),
        }
      : null,
    live_server_id: repo.liveServerIds(deps.db, [server.id]).get(server.id) ?? null,
  };
}
