// What every deploy target (panel, SFTP) offers, and the deploy procedure on top of it.
import { DeployError } from "./errors";
import type { ServerJsonMod } from "../../lists";
import { applyModsToConfig, parseConfig } from "./config-file";
import { renameKeyFix } from "../../lists";

/** A key of the server's config to rename in a deploy's write (the pre-flight's fix of a misspelt or legacy key). */
export interface RenameKey {
  /** The key's path ("game.maxplayers") */
  path: string;
  from: string;
  to: string;
}

/** File access inside one open connection to a target. */
export interface ConfigFileIO {
  read(): Promise<string>;
  /** Replaces the file with `next`; `previous` is the content read before (kept as a backup where the target can). */
  write(next: string, previous: string): Promise<void>;
  /** Checks, without changing anything, that the file may be written. */
  checkWritable?(): Promise<void>;
  /**
   * Restarts the game server over this connection (panel: power signal; SFTP: the stored
   * restart_command through SSH exec). Absent when the target has no way to restart.
   */
  restart?(): Promise<RestartResult>;
}

export interface RestartResult {
  /** SFTP: the command's exit status (null when it ended by a signal); panel: null. */
  exit_status: number | null;
  /** SFTP: the last lines of its output (stdout and stderr); panel: null. */
  output: string | null;
}

/** What a panel says about its server (GET /resources). */
export interface PowerState {
  /** `offline`, `starting`, `running`, `stopping` on Pterodactyl and Pelican. */
  current_state: string;
  /** ms since the server process started, when the panel says. */
  uptime_ms: number | null;
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
  /** Panel: the server's power state, checked while verifying a restart. */
  powerState?(): Promise<PowerState>;
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
export async function deployMods(
  target: ConfigTarget,
  mods: ServerJsonMod[],
  hooks: {
    /** Called with what was read and what will be written, before anything is written (write-ahead). */
    beforeWrite?: (current: string, next: string) => void;
    /** Called after the write was verified, on the same connection (a restart). */
    afterWrite?: (io: ConfigFileIO) => Promise<void>;
    /** The list's modsRequiredByDefault: unstated mods keep that meaning in the server's file. */
    listRequiredDefault?: boolean;
    /** Keys renamed in the same write (the pre-flight's fix of a misspelt or legacy key); one no longer there is left alone. */
    renameKeys?: readonly RenameKey[];
  } = {},
): Promise<DeployOutcome> {
  const fileName = fileNameOf(target.filePath);
  await target.session(async (io) => {
    const current = await io.read();
    let renamed = current;
    for (const r of hooks.renameKeys ?? []) renamed = renameKeyFix(renamed, { kind: "rename_key", ...r });
    const next = applyModsToConfig(renamed, mods, fileName, hooks.listRequiredDefault);
    hooks.beforeWrite?.(current, next);
    // The server has this config already: nothing is written (the file and its backup stay as they are).
    if (next !== current) await writeVerified(target, io, next, current);
    await hooks.afterWrite?.(io);
  });
  return { item_count: mods.length, snapshot: mods };
}

/** Writes `next`, reads it back and compares byte for byte. */
export async function writeVerified(target: ConfigTarget, io: ConfigFileIO, next: string, current: string): Promise<void> {
  await io.write(next, current);
  const back = await io.read();
  if (back !== next) {
    throw new DeployError(
      `${fileNameOf(target.filePath)} read back from ${target.label} differs from what was written; another process may be changing it`,
    );
  }
}

/**
 * A connection test: reach the target, read the config and check it parses and may be written.
 * Changes nothing.
 */
/**
 * A connection test: reach the file, parse it as a game config, check it can be written, and
 * return the mods it names now (what an operator wants to see before a first deploy).
 */
export async function testTarget(target: ConfigTarget, onRead?: (text: string) => void): Promise<ServerJsonMod[]> {
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
    onRead?.(current);
    if (io.checkWritable) await io.checkWritable();
  });
  return mods;
}

/** game.mods as the config has it, keeping only well-formed entries (a test reports, it does not judge). */
export function modsOfConfig(game: Record<string, unknown>): ServerJsonMod[] {
  const raw = Array.isArray(game.mods) ? game.mods : [];
  const out: ServerJsonMod[] = [];
  for (const m of raw) {
    if (!m || typeof m !== "object") continue;
    const { modId, name, version, required } = m as Record<string, unknown>;
    if (typeof modId !== "string") continue;
    out.push({
      modId,
      name: typeof name === "string" ? name : "",
      ...(typeof version === "string" ? { version } : {}),
      ...(typeof required === "boolean" ? { required } : {}),
    });
  }
  return out;
}
