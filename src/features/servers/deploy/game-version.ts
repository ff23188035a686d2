// The game version a server runs and how two versions compare (docs/deploy.md "Pre-flight for the
// target server"): what the pre-flight holds the mods' game versions against.
import type { Deps } from "../../../deps";
import { queryInfo } from "../../../protocols/a2s/a2s";
import { parseQueryAddress } from "../model";
import type { ServerRow } from "../repository";
import { liveGameVersion } from "./repository";

export interface GameVersion {
  game_version: string | null;
  /** `a2s` (the server answered), `live` (the live source's last report for its address), null. */
  from: "a2s" | "live" | null;
  /** Why the version is unknown (then the version findings are skipped). */
  note: string | null;
}

/**
 * The server's game version: its A2S answer (query_address), else the live source's last
 * report for that address (game_servers), else unknown with the reason.
 */
export async function serverGameVersion(deps: Deps, server: ServerRow, timeoutMs = 1500): Promise<GameVersion> {
  const address = server.query_address ? parseQueryAddress(server.query_address) : null;
  if (!address) return { game_version: null, from: null, note: "the server has no query address (set one to compare game versions); version checks skipped" };
  let a2sError = "";
  try {
    const info = await queryInfo(address.host, address.port, { timeoutMs });
    if (info.version) return { game_version: info.version, from: "a2s", note: null };
    a2sError = "its A2S answer carries no version";
  } catch (err) {
    a2sError = `no A2S answer from ${address.host}:${address.port} (${err instanceof Error ? err.message : String(err)})`;
  }
  const live = liveGameVersion(deps.sqlite, `${address.host}:${address.port}`, address.host);
  if (live !== null) return { game_version: live, from: "live", note: null };
  return { game_version: null, from: null, note: `${a2sError}, and the live source has not seen ${address.host}; version checks skipped` };
}

/** Numeric parts of a version ("1.2.0.76" → [1, 2, 0, 76]). */
export function versionParts(v: string): number[] {
  return (v.match(/\d+/g) ?? []).map(Number);
}

/** Compares over the parts both have: "1.2.1" equals "1.2.1.169". */
export function compareGameVersions(a: string, b: string): number {
  const pa = versionParts(a);
  const pb = versionParts(b);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i]! < pb[i]! ? -1 : 1;
  return 0;
}

/** "1.2.1.169" → "1.2". */
export const majorMinor = (v: string) => versionParts(v).slice(0, 2).join(".");
