// RCON as a ServerControl (servers/control.ts): who is on by RCON's roster, and, for a server whose
// process a supervisor restarts (docker `restart: always`, systemd `Restart=`), a restart by
// `#shutdown` (restart_via: rcon). The service's running connection is used when it is logged in;
// otherwise a connection of its own for the one command.
import type { Deps } from "../../../deps";
import { RconClient } from "../../../protocols/rcon/client";
import { players as readPlayers, shutdown, type RconCommander } from "../../../protocols/rcon/reforger";
import type { ServerControl } from "../control";
import type { ServerRow } from "../repository";
import { rconManager, rconSettings } from "./manager";

/** Runs `fn` on the server's RCON: the service's logged-in connection, else one of its own for the call. */
export async function withRcon<T>(deps: Deps, server: ServerRow, fn: (rcon: RconCommander) => Promise<T>): Promise<T> {
  const running = rconManager(deps).commander(server.id);
  if (running) return fn(running);
  const settings = rconSettings(deps, server);
  if (!settings) throw new Error("the server has no RCON settings");
  const client = new RconClient({ ...settings, now: () => deps.clock.now() });
  try {
    await client.connect();
    return await fn(client);
  } finally {
    client.close("done");
  }
}

/** The RCON control of a server, or null when it has no RCON settings. */
export function rconControl(deps: Deps, server: ServerRow): ServerControl | null {
  if (!server.rcon_host || !server.rcon_password) return null;
  return {
    players: async () => {
      try {
        return { count: (await withRcon(deps, server, (r) => readPlayers(r))).length, source: "rcon" };
      } catch {
        return null;
      }
    },
    ...(server.restart_via === "rcon"
      ? {
          restartVia: "RCON's #shutdown (the server's supervisor starts it again)",
          restart: async () => {
            await withRcon(deps, server, (r) => shutdown(r));
            return { exit_status: null, output: null };
          },
        }
      : {}),
  };
}
