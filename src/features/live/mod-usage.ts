// Mod usage as the live feature knows it: the servers seen within the live window that run a
// mod, and their players, from the live snapshot (built once per scan, snapshot.ts). The
// catalog asks here for GET /mods/:id/servers and the usage numbers of /mods/:id/stats and
// /mod/:id/metrics, so it needs nothing of the snapshot's insides.
import type { Deps } from "../../deps";
import { LIVE_WINDOW_MS } from "../scraper/growth";
import { liveSnapshot, modServersJson, modUsageOf } from "./snapshot";

/** Servers seen within the live window that run the mod, and the players on them. */
export function modUsage(deps: Pick<Deps, "sqlite" | "clock">, workshopId: string): { servers: number; players: number } {
  const now = deps.clock.now();
  return modUsageOf(liveSnapshot(deps.sqlite, now), workshopId, now - LIVE_WINDOW_MS);
}

/** Those servers as the JSON text of GET /mods/:id/servers (entries serialised once per scan). */
export function modServersJsonText(deps: Pick<Deps, "sqlite" | "clock">, workshopId: string): string {
  const now = deps.clock.now();
  return modServersJson(liveSnapshot(deps.sqlite, now), workshopId, now - LIVE_WINDOW_MS);
}
