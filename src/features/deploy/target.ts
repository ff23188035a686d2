// What every deploy target (panel, SFTP) offers, and the deploy procedure on top of it.
import { DeployError } from "./errors";
import type { ServerJsonMod } from "../lists/server-json-format";
import { applyModsToConfig, parseConfig } from "./config-file";

/** File access inside one open connection to a target. */
export interface ConfigFileIO {
  read(): Promise<string>;
  /** Replaces the file with `next`; `previous` is the content read before (kept as a backup where the target can). */
  write(next: string, previous: string): Promise<void>;
  /** Checks, without changing anything, that the file may be written. */
  checkWritable?(): Promise<void>;
}

export interface ConfigTarget {
  /** Human label of the target, safe to show (no secret): "sftptest@127.0.0.1:2222". */
  readonly label: string;
  /** The config file path on the target. */
  readonly filePath: string;
  /** Opens a connection, runs `fn`, always closes. Connection problems throw DeployError. */
  session<T>(fn: (io: ConfigFileIO) => Promise<T>): Promise<T>;
  /** Target-specific reachability check run before a connection test reads the file. */
  ping?(): Promise<void>;
}

export interface DeployOutcome {
  item_count: number;
  snapshot: ServerJsonMod[];
}

export function fileNameOf(filePath: string): string {
  const parts = filePath.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? filePath;
}

/**
 * Read the current config, replace game.mods, keep everything else, write it, read it back and
 * compare. Idempotent: running it twice leaves the same file.
 */
export async function deployMods(target: ConfigTarget, mods: ServerJsonMod[]): Promise<DeployOutcome> {
  const fileName = fileNameOf(target.filePath);
  await target.session(async (io) => {
    const current = await io.read();
    const next = applyModsToConfig(current, mods, fileName);
    await io.write(next, current);
    const back = await io.read();
    if (back !== next) {
      throw new DeployError(
        `${fileName} read back from ${target.label} differs from what was written; another process may be changing it`,
      );
    }
  });
  return { item_count: mods.length, snapshot: mods };
}

/**
 * A connection test: reach the target, read the config and check it parses and may be written.
 * Changes nothing.
 */
/**
 * A connection test: reach the file, parse it as a game config, check it can be written, and
 * return the mods it names now (what an operator wants to see before a first deploy).
 */
export async function testTarget(target: ConfigTarget): Promise<ServerJsonMod[]> {
  if (target.ping) await target.ping();
  const fileName = fileNameOf(target.filePath);
  let mods: ServerJsonMod[] = [];
  await target.session(async (io) => {
    const current = await io.read();
    const config = parseConfig(current, fileName);
    if (config.game === undefined || config.game === null || typeof config.game !== "object") {
      throw new DeployError(`${fileName} has no "game" section; it does not look like a game server config`);
    }
    mods = modsOfConfig(config.game as Record<string, unknown>);
    if (io.checkWritable) await io.checkWritable();
  });
  return mods;
}

/** game.mods as the config has it, keeping only well-formed entries (a test reports, it does not judge). */
function modsOfConfig(game: Record<string, unknown>): ServerJsonMod[] {
  const raw = Array.isArray(game.mods) ? game.mods : [];
  const out: ServerJsonMod[] = [];
  for (const m of raw) {
    if (!m || typeof m !== "object") continue;
    const { modId, name, version } = m as Record<string, unknown>;
    if (typeof modId !== "string") continue;
    out.push({ modId, name: typeof name === "string" ? name : "", ...(typeof version === "string" ? { version } : {}) });
  }
  return out;
}
