// Talking to a game server itself, not to its config file (docs/deploy.md "How Loadout talks to a
// server"): who is on, restarting it, whether it runs. The deploy loop asks a ServerControl
// instead of the file connection, so a new way to reach a server (RCON, a panel's websocket, a
// supervisor's API) is one more implementation, not an edit of the loop.
//
// Today's implementations: the panel (power signal and power state, over the file connection's
// panel client), SSH (the stored restart_command over the SFTP session), A2S (the player count
// any Reforger server answers), RCON (who is on by name, `#shutdown` for a supervised process).
import { queryInfo } from "../../protocols/a2s/a2s";
import type { ConfigFileIO, ConfigTarget, PowerState, RestartResult } from "./deploy/target";

/** How many players are on, and who told us. */
export interface PlayerCount {
  count: number;
  source: "rcon" | "a2s";
}

/** What Loadout can ask of one game server. Each capability is optional: a server may have none. */
export interface ServerControl {
  /** Players on now; null when the server does not answer (or this control cannot tell). */
  players?(): Promise<PlayerCount | null>;
  /**
   * Restarts the game server. `io` is the open file connection when there is one (the SSH
   * command runs over the same session the deploy wrote with).
   */
  restart?(io?: ConfigFileIO): Promise<RestartResult>;
  /** Whether the server's process runs (the panel's power state). */
  state?(): Promise<PowerState>;
  /** Says how `restart` reaches the server, in words ("the panel's restart signal"). */
  readonly restartVia?: string;
}

/** The player count any Reforger server answers over A2S (not who they are). */
export function a2sPlayers(address: () => { host: string; port: number } | null, timeoutMs: number): ServerControl["players"] {
  return async () => {
    const a = address();
    if (!a) return null;
    try {
      return { count: (await queryInfo(a.host, a.port, { timeoutMs })).players, source: "a2s" };
    } catch {
      return null;
    }
  };
}

/** The file connection's own restart (the panel's power signal, or SFTP's restart_command over SSH). */
export function fileTargetControl(target: ConfigTarget, kind: "panel" | "sftp"): ServerControl {
  return {
    restartVia: kind === "panel" ? "the panel's restart signal" : "the restart command over SSH",
    restart: async (io) => {
      if (io?.restart) return io.restart();
      return target.session(async (fresh) => {
        if (!fresh.restart) throw new NoRestartError();
        return fresh.restart();
      });
    },
    ...(target.powerState ? { state: () => target.powerState!() } : {}),
  };
}

export class NoRestartError extends Error {
  override name = "NoRestartError";
  constructor() {
    super("this server has no way to restart (an SFTP server needs restart_command)");
  }
}

/** One control from several: the first that has each capability answers for it (players: the first that can tell). */
export function combineControls(...controls: (ServerControl | null | undefined)[]): ServerControl {
  const present = controls.filter((c): c is ServerControl => !!c);
  const first = <K extends keyof ServerControl>(k: K) => present.find((c) => c[k] !== undefined);
  // Players: the first that answers (RCON down: A2S still counts them).
  const counters = present.filter((c) => c.players);
  const restart = first("restart");
  // The power state belongs to how the server is restarted: after RCON's #shutdown a panel's
  // uptime says nothing (A2S tells whether it is back).
  const state = restart ? (restart.state ? restart : undefined) : first("state");
  return {
    ...(counters.length
      ? {
          players: async () => {
            for (const c of counters) {
              const n = await c.players!();
              if (n) return n;
            }
            return null;
          },
        }
      : {}),
    ...(restart ? { restart: (io?: ConfigFileIO) => restart.restart!(io), restartVia: restart.restartVia } : {}),
    ...(state ? { state: () => state.state!() } : {}),
  };
}
