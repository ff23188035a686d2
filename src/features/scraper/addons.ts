// Items from the game's own packed data. A dedicated server keeps each downloaded mod in
// `<profile>/addons/<Name>_<WORKSHOP ID>/` with its `data.pak`; the PAK reader lists the
// resource paths inside from a few reads, and the classifier turns them into items.
//
// Sources: anything that lists addon folders and opens their data.pak (AddonSource): here a
// local addons folder (LOADOUT_ADDONS_DIR, a game server on the same machine); the registered
// SFTP servers are read by servers/deploy/addons-over-sftp.ts, which knows servers and their
// credentials, and hands each server to scanAddons as a source. This file knows no servers.
// Version of a scanned addon, first that answers: the `ServerData.json` the game writes beside
// `data.pak` (id, name and the installed revision's version), the version this server was last
// deployed with (the deployment's snapshot), the catalog's current version. Each (mod, version)
// is scanned once.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Deps } from "../../deps";
import { extractItems } from "./items";
import { listPak, localFile, type RandomAccess } from "./pak";
import * as repo from "./repository";

/** An addon folder's name ends in `_<WORKSHOP ID>`. */
export const ADDON_DIR = /_([0-9A-Fa-f]{16})$/;

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
  /** The version this source was last deployed with for a mod, when it is a server that knows. */
  deployedVersion?(workshopId: string): string | null;
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
      const fromDeploy = source.deployedVersion?.(a.workshopId) ?? null;
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
