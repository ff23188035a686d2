// Mod usage as the live feature knows it: the servers seen within the live window that run a
// mod, and their players, from the live snapshot (built once per scan, snapshot.ts). Answers
// GET /mods/:id/servers, GET /mods/:id/stats (with the catalog's dependency counts) and
// GET /mod/:id/metrics (mod-usage-routes.ts): the catalog asks no live servers.
import type { z } from "zod";
import type { Deps } from "../../deps";
import { getDependencyCounts, getModLabels, requireModExists, type liveStats } from "../catalog";
import { LIVE_WINDOW_MS } from "../scraper";
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

/**
 * Live usage (servers seen in the last hour that run the mod, their players) and the dependency
 * counts from the catalog. `liveStatsSql` (test/truth/catalog-sql.ts) answers the same from
 * SQLite alone (tests compare the two).
 */
function liveStatsOf(deps: Pick<Deps, "sqlite" | "clock">, id: string): z.infer<typeof liveStats> {
  const u = modUsage(deps, id);
  const c = getDependencyCounts(deps.sqlite, id);
  return { used_by_servers_count: u.servers, players_using_count: u.players, dependencies_count: c.deps, dependents_count: c.dependents };
}

/** GET /mods/:id/stats: 404 `mod_not_found` for a mod the catalog does not know. */
export function getLiveStats(deps: Pick<Deps, "sqlite" | "clock">, id: string): z.infer<typeof liveStats> {
  requireModExists(deps, id);
  return liveStatsOf(deps, id);
}

/** GET /mods/:id/servers as JSON text, joined from the live snapshot's entries (serialised once per scan). */
export function getServersUsingJson(deps: Pick<Deps, "sqlite" | "clock">, id: string): string {
  requireModExists(deps, id);
  return modServersJsonText(deps, id);
}

// ---- /mod/:workshopID/metrics (text exposition format 0.0.4) ----

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');

export function modMetricsText(deps: Pick<Deps, "sqlite" | "clock">, id: string): string {
  const m = getModLabels(deps, id);
  const s = liveStatsOf(deps, id);
  const wid = `workshop_id="${escapeLabel(m.workshop_id)}"`;
  const gauge = (name: string, help: string, value: number, labels = wid) =>
    `# HELP ${name} ${help}\n# TYPE ${name} gauge\n${name}{${labels}} ${value}\n`;
  return (
    gauge("loadout_mod_info", "Mod information (constant 1).", 1, `${wid},name="${escapeLabel(m.name)}",author="${escapeLabel(m.author_name)}"`) +
    gauge("loadout_mod_size_bytes", "Download size of the mod's latest version in bytes.", m.size_bytes) +
    gauge("loadout_mod_dependencies", "Number of direct dependencies of the mod.", s.dependencies_count) +
    gauge("loadout_mod_dependents", "Number of catalog mods that depend on the mod directly.", s.dependents_count) +
    gauge("loadout_mod_used_by_servers", "Live servers seen in the last hour that run the mod.", s.used_by_servers_count) +
    gauge("loadout_mod_players_using", "Players on live servers seen in the last hour that run the mod.", s.players_using_count)
  );
}
