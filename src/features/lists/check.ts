// The pre-flight check of a list: what would break or surprise on a game server (missing
// dependencies, pins to versions that are gone, unavailable or unscraped mods, mixed game
// versions) and the download size. A list alone never stops a deploy (the server's pre-flight
// decides that: blocks_deploy), so its findings are warnings and notes; they name mods by name,
// their ids are in `mods`.
import type { Deps } from "../../deps";
import { dependencyReport } from "./dependencies";
import * as repo from "./repository";

export interface CheckFinding {
  kind: "missing_dependency" | "pinned_version_missing" | "mod_unavailable" | "not_scraped" | "game_version_mismatch";
  severity: "error" | "warning" | "info";
  message: string;
  mods: string[];
  /** A missing dependency's fix: add it (with its own missing dependencies: `adds`, in that order). */
  fix?: { action: "add_mod"; label: string; workshop_id: string; adds: string[] };
}

/** "A", "A and B", "A, B and C". */
export function namesInWords(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** What an add fix says it does: "Add Quartermaster Optics", "Add Quartermaster Optics and 3 more". */
export const addModLabel = (name: string, more: number) => `Add ${name}${more > 0 ? ` and ${more} more` : ""}`;

/** A pre-flight report of the list: what would break or surprise on a server. */
export function checkList(deps: Deps, listId: string) {
  const items = repo.listItems(deps.sqlite, listId);
  const edges = items.length ? repo.dependencyEdges(deps.sqlite, listId) : [];
  const findings: CheckFinding[] = [];
  const { missing } = dependencyReport(items, edges);
  // Names of the mods that require one (list mods, or other missing dependencies).
  const names = new Map<string, string>();
  for (const e of edges) names.set(e.depends_on_id, e.name);
  for (const i of items) names.set(i.workshop_id, i.name);
  const inList = new Set(items.map((i) => i.workshop_id));
  const needs = new Map<string, string[]>();
  for (const e of edges) (needs.get(e.workshop_id) ?? needs.set(e.workshop_id, []).get(e.workshop_id)!).push(e.depends_on_id);
  /** The mod and the dependencies it brings that the list lacks (adding it with its dependencies adds them all). */
  const adds = (id: string) => {
    const out = [id];
    for (let i = 0; i < out.length; i++) for (const d of needs.get(out[i]!) ?? []) if (!inList.has(d) && !out.includes(d)) out.push(d);
    return out;
  };
  for (const m of missing) {
    const all = adds(m.workshop_id);
    findings.push({
      kind: "missing_dependency",
      // The game server is not stopped by it (a deploy goes through and verifies): a warning.
      severity: "warning",
      message: `${m.name} is required by ${namesInWords(m.required_by.map((id) => names.get(id) || id))} but not in the list`,
      mods: [m.workshop_id, ...m.required_by],
      fix: { action: "add_mod", label: addModLabel(m.name, all.length - 1), workshop_id: m.workshop_id, adds: all },
    });
  }
  const pinned = items.filter((i) => i.pinned_version !== null && i.in_catalog);
  if (pinned.length) {
    const ok = new Set(repo.pinsKnown(deps.sqlite, pinned.map((p) => [p.workshop_id, p.pinned_version!] as const)));
    for (const p of pinned) {
      if (!ok.has(p.workshop_id))
        findings.push({ kind: "pinned_version_missing", severity: "warning", message: `${p.name} is pinned to version ${p.pinned_version}, which no longer exists on the workshop`, mods: [p.workshop_id] });
    }
  }
  for (const i of items) {
    if (i.state && ["private", "blocked", "removed"].includes(i.state))
      findings.push({ kind: "mod_unavailable", severity: "warning", message: `${i.name} is ${i.state} on the workshop: a server cannot download it`, mods: [i.workshop_id] });
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
      const named = ids.map((id) => names.get(id) || id);
      const shown = named.length > 5 ? [...named.slice(0, 4), `${named.length - 4} more`] : named;
      findings.push({
        kind: "game_version_mismatch",
        severity: "warning",
        message: `${namesInWords(shown)} ${ids.length === 1 ? "targets" : "target"} game version ${gv}; most of the list targets ${major[0]}`,
        mods: ids,
      });
    }
  }
  // Download size: the list plus its missing dependencies (what a server would fetch).
  const missingIds = missing.map((m) => m.workshop_id);
  const missingSize = missingIds.length ? repo.catalogLookup(deps.sqlite, missingIds).reduce((s, r) => s + r.size_bytes, 0) : 0;
  const size = items.reduce((s, i) => s + i.size_bytes, 0);
  return {
    // Nothing here stops a deploy (only a server's findings can: GET /lists/:id/check?server_id=).
    ok: !findings.some((f) => f.severity === "error"),
    mod_count: items.length,
    total_size_bytes: size,
    total_download_size_bytes: size + missingSize,
    findings,
  };
}
