// Items from the registered SFTP servers: each server's addons folder read over its stored
// credentials and pinned host key (the folder next to the config file unless the server names
// one in `addons_path`), handed to the scraper's scanAddons as one AddonSource. It lives on the
// servers/deploy side because it knows servers and SFTP; the scraper knows neither. Also the
// items.scan job, which scans the local folder and these servers.
import type { SFTPWrapper, Stats } from "ssh2";
import { posix } from "node:path";
import type { Deps } from "../../../deps";
import type { JobHandler, Job } from "../../../jobs/queue";
import { ADDON_DIR, localAddons, scanAddons, versionFromServerData, type AddonEntry, type AddonSource, type ItemsScanResult, JOB_ITEMS_SCAN } from "../../scraper";
import { getServer, type ServerRow } from "../repository";
import { buildTarget } from "./jobs";
import { lastDeployedSnapshot, sftpServerIds } from "./repository";
import { SftpTarget } from "./sftp";

/** Promise of a node-style callback operation (ssh2's SFTP calls). */
const cb = <T>(op: (done: (err: Error | null | undefined, v?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => op((err, v) => (err ? reject(err) : resolve(v as T))));

/** The addons folder of a server: its own `addons_path`, else `addons/` beside the config file. */
export const addonsPathOf = (server: Pick<ServerRow, "file_path" | "addons_path">) => server.addons_path || posix.join(posix.dirname(server.file_path), "addons");

export function sftpAddons(deps: Deps, server: ServerRow): AddonSource {
  return {
    name: `server:${server.id}`,
    serverId: server.id,
    deployedVersion: (workshopId) => deployedVersion(deps, server.id, workshopId),
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
  const snapshot = lastDeployedSnapshot(deps.sqlite, serverId);
  if (!snapshot) return null;
  try {
    const mods = JSON.parse(snapshot) as { modId?: string; version?: string }[];
    const v = mods.find((m) => m.modId?.toUpperCase() === workshopId)?.version;
    return typeof v === "string" && v ? v : null;
  } catch {
    return null;
  }
}

/** Every source a scan covers: the local folder (when configured) and SFTP servers (all, or the given one). */
export function itemSources(deps: Deps, opts: { serverId?: string; scheduledOnly?: boolean } = {}): AddonSource[] {
  const out: AddonSource[] = [];
  if (!opts.serverId && deps.config.LOADOUT_ADDONS_DIR) out.push(localAddons(deps.config.LOADOUT_ADDONS_DIR));
  for (const id of sftpServerIds(deps.sqlite, opts)) {
    const server = getServer(deps.db, id);
    if (server) out.push(sftpAddons(deps, server));
  }
  return out;
}

/** The items.scan job (queued by queueItemsScan in scraper/queue.ts): the local folder and the SFTP servers. */
export const itemsScanJobs = (deps: Deps): Record<string, JobHandler> => ({
  [JOB_ITEMS_SCAN]: {
    concurrency: 1,
    maxAttempts: 3,
    run: async (job: Job<{ server_id?: string | null; scheduled_only?: boolean }>, ctx) => {
      const sources = itemSources(deps, { serverId: job.payload?.server_id ?? undefined, scheduledOnly: !!job.payload?.scheduled_only });
      const results: (ItemsScanResult | { source: string; error: string })[] = [];
      for (const source of sources) {
        if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error("aborted");
        try {
          results.push(await scanAddons(deps, source));
        } catch (e) {
          results.push({ source: source.name, error: (e as Error).message });
          deps.log.warn("items: a source could not be scanned", { source: source.name, error: (e as Error).message });
        }
        ctx.progress({ sources_done: results.length, sources: sources.length });
      }
      return { sources: results };
    },
  },
});
