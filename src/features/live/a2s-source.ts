// The second live source: the community's own registered servers, asked directly with A2S_INFO
// every scan, so player history, roll-ups, stats and metrics work without any paid source.
// Address: the server's `query_address`, else its SFTP host on port 17777; panel servers
// without a query address are not polled (the panel's host is not the game's). A server that
// does not answer within the timeout is reported as failed (the scan marks it offline); the
// queries run side by side, so one silent server blocks nothing else. A2S names no mods: a server
// Loadout deployed to (or read in a connection test) is given the mods it knows it runs
// (knownServerMods of the servers feature); any other keeps the mods it had.
import type { Deps } from "../../deps";
import { assertHostAllowed } from "../../shared/url-safety";
import { AppError } from "../../shared/errors";
import { knownServerMods, parseQueryAddress, readCredentialsForServer } from "../servers";
import { A2S_DEFAULT_PORT, queryInfo, type A2sInfo } from "../../protocols/a2s/a2s";
import type { LiveMod, LiveServer } from "./battlemetrics";
import { serversRepo } from "./repository/servers";

export interface A2sTarget {
  server_id: string;
  name: string;
  host: string;
  port: number;
}

export interface A2sPoll {
  answered: { target: A2sTarget; server: LiveServer }[];
  failed: { target: A2sTarget; error: string }[];
}

/** Registered servers with an address to query. */
export function a2sTargets(deps: Deps): A2sTarget[] {
  const rows = serversRepo.registeredServers(deps.sqlite);
  const out: A2sTarget[] = [];
  for (const r of rows) {
    if (r.query_address) {
      const a = parseQueryAddress(r.query_address);
      if (a) out.push({ server_id: r.id, name: r.name, host: a.host, port: a.port });
      continue;
    }
    if (r.connection_type !== "sftp") continue;
    try {
      const c = readCredentialsForServer(deps, r.id) as { host?: string } | null;
      if (c?.host) out.push({ server_id: r.id, name: r.name, host: c.host, port: A2S_DEFAULT_PORT });
    } catch {
      // unreadable credentials show up in deployments; this poll just skips the server
    }
  }
  return out;
}

/**
 * What a scan records for a server that answered: counts and names, and `mods` when Loadout knows
 * what the server runs (its last deploy or connection test); without them its mods stay as they are.
 */
export function liveServerFromA2s(target: A2sTarget, info: A2sInfo, mods?: LiveMod[]): LiveServer {
  const port = info.game_port ?? target.port;
  return {
    source_id: `a2s:${target.server_id}`,
    name: info.name || target.name,
    host_address: `${info.address}:${port}`,
    ip: info.address,
    port,
    player_count: info.players,
    player_count_limit: info.max_players,
    queue_players_count: 0,
    wait_time_estimation: 0,
    scenario_name: info.map,
    game_version: info.version,
    password_protected: info.password,
    official: false,
    country: null,
    tags: [],
    mods: mods ?? [],
    modsUnknown: mods === undefined,
    registeredServerId: target.server_id,
  };
}

/** Queries every target at once (each bounded by `timeoutMs`). */
export async function pollRegisteredServers(deps: Deps, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<A2sPoll> {
  const targets = a2sTargets(deps);
  const known = targets.length ? knownServerMods(deps) : new Map<string, LiveMod[]>();
  const poll: A2sPoll = { answered: [], failed: [] };
  await Promise.all(
    targets.map(async (target) => {
      try {
        await assertHostAllowed(target.host, { allowPrivate: deps.config.LOADOUT_ALLOW_PRIVATE_URLS });
        const info = await queryInfo(target.host, target.port, { timeoutMs: opts.timeoutMs ?? 2000, signal: opts.signal });
        poll.answered.push({ target, server: liveServerFromA2s(target, info, known.get(target.server_id)) });
      } catch (e) {
        const msg = e instanceof AppError && e.code === "request.url_not_allowed" ? `${target.host} is a private address (LOADOUT_ALLOW_PRIVATE_URLS is off)` : (e as Error).message;
        poll.failed.push({ target, error: msg });
      }
    }),
  );
  return poll;
}
