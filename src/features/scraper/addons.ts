// Items from the game's own packed data. A dedicated server keeps each downloaded mod in
// `<profile>/addons/<Name>_<WORKSHOP ID>/` with its `data.pak`; the PAK reader lists the
// resource paths inside from a few reads, and the classifier turns them into items.
//
// Sources: a local addons folder (LOADOUT_ADDONS_DIR, a game server on the same machine) and
// the registered SFTP servers (their stored credentials and pinned host key; the addons folder
// next to the config file unless the server names one in `addons_path`).
// Version of a scanned addon, first that answers: the `ServerData.json` the game writes beside
// `data.pak` (id, name and the installed revision's version), the version this server was last
// deployed with (the deployment's snapshot), the catalog's current version. Each (mod, version)
// is scanned once.
import type { SFTPWrapper, Stats } from "ssh2";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import type { Deps } from "../../deps";
import { buildTarget } from "../deploy/jobs";
import { SftpTarget } from "../deploy/sftp";
import * as serversRepo from "../servers/repository";
import type { ServerRow } from "../servers/repository";
import { extractItems } from "./items";
import { listPak, localFile, type RandomAccess } from "./pak";
import * as repo from "./repository";

const ADDON_DIR = /_([0-9A-Fa-f]{16})$/;

export interface AddonEntry {
  workshopId: string;
  folder: string;
  /** From ServerData.json, when the server wrote one. */
  version: string | null;
  /** Runs `fn` with the folder's data.pak open for random-access reads. */
  withPak<T>(fn: (pak: RandomAccess) => Promise<T>): Promise<T>;
}

export interface AddonSource {
  /** "local" or "server:<id>" (job results and errors name it). */
  name: string;
  serverId: string | null;
  /** Opens the source (one SFTP connection), lists the addons, hands them to `fn`. */
  scan<T>(fn: (addons: AddonEntry[]) => Promise<T>): Promise<T>;
}

/** The installed version from a ServerData.json: the first version-like string under a key named like "version". */
export function versionFromServerData(text: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const walk = (v: unknown, depth: number): string | null => {
    if (!v || typeof v !== "object" || depth > 3) return null;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (/version/i.test(k) && !/game/i.test(k) && typeof x === "string" && /^\d+(\.\d+)+$/.test(x.trim())) return x.trim();
    }
    for (const x of Object.values(v as Record<string, unknown>)) {
      const r = walk(x, depth + 1);
      if (r) return r;
    }
    return null;
  };
  return walk(json, 0);
}

export function localAddons(dir: string): AddonSource {
  return {
    name: "local",
    serverId: null,
    scan: async (fn) => {
      const out: AddonEntry[] = [];
      for (const folder of existsSync(dir) ? readdirSync(dir) : []) {
        const m = ADDON_DIR.exec(folder);
        const pak = join(dir, folder, "data.pak");
        if (!m || !existsSync(pak) || !statSync(pak).isFile()) continue;
        const sd = join(dir, folder, "ServerData.json");
        out.push({
          workshopId: m[1]!.toUpperCase(),
          folder,
          version: existsSync(sd) ? versionFromServerData(readFileSync(sd, "utf8").slice(0, 100_000)) : null,
          withPak: (f) => f(localFile(pak)),
        });
      }
      return fn(out);
    },
  };
}

const cb = <T>(op: (done: (err: Error | null | undefined, v?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => op((err, v) => (err ? reject(err) : resolve(v as T))));

/** The addons folder of a server: its own `addons_path`, else `addons/` beside the config file. */
export const addonsPathOf = (server: Pick<ServerRow, "file_path" | "addons_path">) => server.addons_path || posix.join(posix.dirname(server.file_path), "addons");

export function sftpAddons(deps: Deps, server: ServerRow): AddonSource {
  return {
    name: `server:${server.id}`,
    serverId: server.id,
    scan: async (fn) => {
      const target = await buildTarget(deps, server);
      if (!(target instanceof SftpTarget)) throw new Error("items are read over SFTP; this server deploys through a panel");
      return target.withSftp(async (sftp: SFTPWrapper) => {
        const dir = addonsPathOf(server);
        const list = await cb<{ filename: string; attrs: Stats }[]>((d) => sftp.readdir(dir, d as any)).catch((e: Error) => {
          throw new Error(`cannot list the addons folder ${dir}: ${e.message}`);
        });
        const out: AddonEntry[] = [];
        for (const e of list) {
          const m = ADDON_DIR.exec(e.filename);
          if (!m) continue;
          const folder = posix.join(dir, e.filename);
          const sd = await cb<Buffer>((d) => sftp.readFile(posix.join(folder, "ServerData.json"), d as any)).catch(() => null);
          out.push({
            workshopId: m[1]!.toUpperCase(),
            folder,
            version: sd && sd.length < 100_000 ? versionFromServerData(sd.toString("utf8")) : null,
            withPak: async (f) => {
              const path = posix.join(folder, "data.pak");
              const handle = await cb<Buffer>((d) => sftp.open(path, "r", d as any));
              try {
                const st = await cb<Stats>((d) => sftp.fstat(handle, d as any));
                return await f({
                  size: st.size,
                  read: async (offset, length) => {
                    const buf = Buffer.alloc(length);
                    let got = 0;
                    while (got < length) {
                      const n = await cb<number>((d) => sftp.read(handle, buf, got, length - got, offset + got, d as any));
                      if (!n) break;
                      got += n;
                    }
                    return buf.subarray(0, got);
                  },
                });
              } finally {
                await cb<void>((d) => sftp.close(handle, d as any)).catch(() => {});
              }
            },
          });
        }
        return fn(out);
      });
    },
  };
}

/** The version a server was last deployed with for a mod (from the deployment's snapshot). */
function deployedVersion(deps: Deps, serverId: string, workshopId: string): string | null {
  const row = deps.sqlite
    .query("SELECT snapshot_json FROM deployments WHERE server_id = ? AND kind = 'deploy' AND status = 'success' ORDER BY finished_at DESC LIMIT 1")
    .get(serverId) as { snapshot_json: string | null } | null;
  if (!row?.snapshot_json) return null;
  try {
    const mods = JSON.parse(row.snapshot_json) as { modId?: string; version?: string }[];
    const v = mods.find((m) => m.modId?.toUpperCase() === workshopId)?.version;
    return typeof v === "string" && v ? v : null;
  } catch {
    return null;
  }
}

export interface ItemsScanResult {
  source: string;
  addons: number;
  scanned: { workshop_id: string; version: string; version_from: "server_data" | "deployment" | "catalog"; items: number; paths: number; bytes_read: number }[];
  already_scanned: number;
  not_in_catalog: number;
  failed: { workshop_id: string; error: string }[];
}

/** Scans one source: every addon whose (mod, version) has no item data yet. */
export async function scanAddons(deps: Deps, source: AddonSource): Promise<ItemsScanResult> {
  const result: ItemsScanResult = { source: source.name, addons: 0, scanned: [], already_scanned: 0, not_in_catalog: 0, failed: [] };
  await source.scan(async (addons) => {
    result.addons = addons.length;
    for (const a of addons) {
      const catalog = repo.getModVersion(deps.sqlite, a.workshopId);
      if (!catalog || catalog.state === "unknown") {
        result.not_in_catalog++;
        continue;
      }
      const fromDeploy = source.serverId ? deployedVersion(deps, source.serverId, a.workshopId) : null;
      const [version, from] = a.version
        ? [a.version, "server_data" as const]
        : fromDeploy
          ? [fromDeploy, "deployment" as const]
          : [catalog.version, "catalog" as const];
      if (repo.scannedVersions(deps.sqlite, a.workshopId).has(version)) {
        result.already_scanned++;
        continue;
      }
      try {
        const listing = await a.withPak((pak) => listPak(pak));
        const items = extractItems(listing.paths);
        deps.sqlite.transaction(() => repo.writeItemScan(deps.sqlite, a.workshopId, { version, items }, deps.clock.now())).immediate();
        result.scanned.push({ workshop_id: a.workshopId, version, version_from: from, items: items.length, paths: listing.paths.length, bytes_read: listing.bytesRead });
      } catch (e) {
        result.failed.push({ workshop_id: a.workshopId, error: (e as Error).message });
        deps.log.warn("items: an addon could not be read", { source: source.name, workshop_id: a.workshopId, error: (e as Error).message });
      }
    }
  });
  return result;
}

/** Every source a scan covers: the local folder (when configured) and SFTP servers (all, or the given one). */
export function itemSources(deps: Deps, opts: { serverId?: string; scheduledOnly?: boolean } = {}): AddonSource[] {
  const out: AddonSource[] = [];
  if (!opts.serverId && deps.config.LOADOUT_ADDONS_DIR) out.push(localAddons(deps.config.LOADOUT_ADDONS_DIR));
  const rows = deps.sqlite
    .query(
      `SELECT s.id FROM servers s JOIN server_credentials c ON c.server_id = s.id
       WHERE s.connection_type = 'sftp' ${opts.serverId ? "AND s.id = $id" : ""} ${opts.scheduledOnly ? "AND s.items_scan = 1" : ""}`,
    )
    .all(opts.serverId ? { id: opts.serverId } : {}) as { id: string }[];
  for (const r of rows) {
    const server = serversRepo.getServer(deps.db, r.id);
    if (server) out.push(sftpAddons(deps, server));
  }
  return out;
}
