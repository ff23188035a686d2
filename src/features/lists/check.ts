// The pre-flight check of a list: what would break or surprise on a game server (missing
// dependencies, pins to versions that are gone, unavailable or unscraped mods, mixed game
// versions) and the download size.
import type { Deps } from "../../deps";
import { dependencyReport } from "./dependencies";
import * as repo from "./repository";

export interface CheckFinding {
  kind: "missing_dependency" | "pinned_version_missing" | "mod_unavailable" | "not_scraped" | "game_version_mismatch";
  severity: "error" | "warning" | "info";
  message: string;
  mods: string[];
}

/** A pre-flight report of the list: what would break or surprise on a server. */
export function checkList(deps: Deps, listId: string) {
  const items = repo.listItems(deps.sqlite, listId);
  const edges = items.length ? repo.dependencyEdges(deps.sqlite, listId) : [];
  const findings: CheckFinding[] = [];
  const { missing } = dependencyReport(items, edges);
  for (const m of missing) {
    findings.push({ kind: "missing_dependency", severity: "error", message: `${m.name} (${m.workshop_id}) is required by ${m.required_by.join(", ")} but not in the list`, mods: [m.workshop_id, ...m.required_by] });
  }
  const pinned = items.filter((i) => i.pinned_version !== null && i.in_catalog);
  if (pinned.length) {
    const ok = new Set(repo.pinsKnown(deps.sqlite, pinned.map((p) => [p.workshop_id, p.pinned_version!] as const)));
    for (const p of pinned) {
      if (!ok.has(p.workshop_id))
        findings.push({ kind: "pinned_version_missing", severity: "error", message: `${p.name}: pinned version ${p.pinned_version} no longer exists on the workshop`, mods: [p.workshop_id] });
    }
  }
  for (const i of items) {
    if (i.state && ["private", "blocked", "removed"].includes(i.state))
      findings.push({ kind: "mod_unavailable", severity: "error", message: `${i.name} is ${i.state} on the workshop`, mods: [i.workshop_id] });
    else if (!i.in_catalog)
      findings.push({ kind: "not_scraped", severity: "info", message: `${i.name} is not in the catalog yet (a scrape is queued when added)`, mods: [i.workshop_id] });
  }
  // Game version: the version most mods target is taken as the list's; others are flagged.
  const byGame = new Map<string, string[]>();
  for (const i of items) if (i.game_version) (byGame.get(i.game_version) ?? byGame.set(i.game_version, []).get(i.game_version)!).push(i.workshop_id);
  if (byGame.size > 1) {
    const [major] = [...byGame.entries()].sort((a, b) => b[1].length - a[1].length);
    for (const [gv, ids] of byGame) {
      if (gv === major[0]) continue;
      findings.push({ kind: "game_version_mismatch", severity: "warning", message: `${ids.length} mod(s) target game version ${gv}, most of the list targets ${major[0]}`, mods: ids });
    }
  }
  // Download size: the list plus its missing dependencies (what a server would fetch).
  const missingIds = missing.map((m) => m.workshop_id);
  const missingSize = missingIds.length ? repo.catalogLookup(deps.sqlite, missingIds).reduce((s, r) => s + r.size_bytes, 0) : 0;
  const size = items.reduce((s, i) => s + i.size_bytes, 0);
  return {
    ok: !findings.some((f) => f.severity === "error"),
    mod_count: items.length,
    total_size_bytes: size,
    total_download_size_bytes: size + missingSize,
    findings,
  };
}
