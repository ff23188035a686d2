// What the server runs, as Loadout last read it from its config (docs/deploy.md "Pre-flight for
// the target server"): the scenario, the mods, what the game would refuse in the file, and the
// RCON port it offers. A connection test or a deploy records it on the server row; the pre-flight
// (preflight.ts) reads it back.
import { checkGameConfig, type ConfigIssue, type ServerJsonMod } from "../../lists";
import * as serversRepo from "../repository";
import type { ServerRow } from "../repository";
import { parseConfig } from "./config-file";
import { modsOfConfig } from "./target";

/** An issue of the server's config as the server row keeps it (lists/game-config-check.ts). */
export type StoredIssue = Pick<ConfigIssue, "kind" | "path" | "fatal" | "message" | "line" | "column" | "fix">;

export interface ConfigSeen {
  scenario_id: string | null;
  mods: ServerJsonMod[];
  read_at: number | null;
  /** What the game would refuse or misread in it; undefined when not known (read before it was kept). */
  issues?: StoredIssue[];
  /** The port of its `rcon` block when the block has a password (offered as the server's RCON). */
  rcon_port?: number | null;
}

/** The issues of a config text, as kept. */
export function configIssues(text: string): StoredIssue[] {
  return checkGameConfig(text).map(({ kind, path, fatal, message, line, column, fix }) => ({ kind, path, fatal, message, line, column, ...(fix ? { fix } : {}) }));
}

/** game.scenarioId and game.mods of a config text (null scenario when it has none). */
export function configSeen(text: string, fileName: string, at: number): ConfigSeen {
  const config = parseConfig(text, fileName);
  const game = config.game;
  const issues = configIssues(text);
  const rcon = config.rcon as Record<string, unknown> | null | undefined;
  const rcon_port = rcon && typeof rcon === "object" && typeof rcon.password === "string" && rcon.password ? (typeof rcon.port === "number" ? rcon.port : 19999) : null;
  if (!game || typeof game !== "object" || Array.isArray(game)) return { scenario_id: null, mods: [], read_at: at, issues, rcon_port };
  const g = game as Record<string, unknown>;
  return { scenario_id: typeof g.scenarioId === "string" ? g.scenarioId : null, mods: modsOfConfig(g), read_at: at, issues, rcon_port };
}

/** Records what a connection test or deploy read (or wrote) on the server row. */
export function recordConfigSeen(db: serversRepo.TxLike, serverId: string, seen: ConfigSeen): void {
  serversRepo.updateServer(db, serverId, {
    config_scenario_id: seen.scenario_id,
    config_mods_json: JSON.stringify(seen.mods),
    config_read_at: seen.read_at,
    config_issues_json: seen.issues ? JSON.stringify(seen.issues) : null,
    ...(seen.rcon_port !== undefined ? { config_rcon_port: seen.rcon_port } : {}),
  });
}

export function storedConfig(server: ServerRow): ConfigSeen | null {
  if (server.config_read_at === null) return null;
  return {
    scenario_id: server.config_scenario_id,
    mods: server.config_mods_json ? JSON.parse(server.config_mods_json) : [],
    read_at: server.config_read_at,
    ...(server.config_issues_json ? { issues: JSON.parse(server.config_issues_json) as StoredIssue[] } : {}),
  };
}
