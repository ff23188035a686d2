// The catalog's rules: what each /mods endpoint answers. Knows nothing of HTTP; throws AppError.
import type { Database } from "bun:sqlite";
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { toIsoOrNull, toIso } from "../../shared/time";
import { diffItems, type ExtractedItem, type ItemType, BUCKET_MS, bucketOf, bucketTime } from "../scraper";
import * as repo from "./repository";
import * as list from "./list";
import { catalogAnswers, textBytes } from "./answers";
import { closureOf, countsOf, depGraph, directDependenciesOf, entryOf, isEntry, rowidOf, type DepGraph } from "./graph";
import type { z } from "zod";
import type * as M from "./model";

export const MOD_NOT_FOUND = "mod not found";

const notFound = () => new AppError("mod_not_found", MOD_NOT_FOUND);

const { summaryOf } = list;

/** The list's parameters from the query: default sort, a blank search or tag is none, tags upper case. */
function listParams(q: z.infer<typeof M.listModsQuery>): list.ListModsParams {
  const search = q.search?.trim() ? q.search : undefined;
  const sort: repo.ModSort = q.sort ?? (search ? "relevance" : "updated_desc");
  const tag = q.tag?.trim() ? q.tag.trim().toUpperCase() : undefined;
  return { search, tag, sort, page: q.page, limit: q.limit };
}

export function listMods(deps: Deps, q: z.infer<typeof M.listModsQuery>): z.infer<typeof M.modListResponse> {
  const { rows, total } = list.listMods(deps.sqlite, listParams(q));
  return { mods: rows.map(summaryOf), total, pages: Math.ceil(total / q.limit) };
}

/** The same answer as JSON text (what the route sends): from summaries serialised once per catalog generation. */
export function listModsJson(deps: Deps, q: z.infer<typeof M.listModsQuery>): string {
  return list.listModsJson(deps.sqlite, listParams(q));
}

export function autocomplete(deps: Deps, q: string) {
  if (!q.trim()) return [];
  return list.autocomplete(deps.sqlite, q);
}

/** The same answer as JSON text (what the route sends), serialised once per prefix while nothing changes. */
export function autocompleteJson(deps: Deps, q: string): string {
  return list.autocompleteJson(deps.sqlite, q);
}

export function requireMod(deps: Pick<Deps, "sqlite">, id: string): repo.ModRow {
  const m = repo.getMod(deps.sqlite, id);
  if (!m) throw notFound();
  return m;
}

/**
 * The dependency graph in memory (graph.ts) when it is of the current generation and `plan` allows
 * it; null: read SQL ("sql" is the tests' truth path, which answers the same).
 */
const graphFor = (sqlite: Database, plan: Plan): DepGraph | null => (plan === "auto" ? depGraph(sqlite) : null);
export type Plan = "auto" | "sql";

/** 404 unless the id is a catalog entry (the graph in memory knows every entry). */
export function requireModExists(deps: Pick<Deps, "sqlite">, id: string): void {
  const g = depGraph(deps.sqlite);
  if (!(g ? isEntry(g, id) : repo.modExists(deps.sqlite, id))) throw notFound();
}

/**
 * A catalog entry's row: through its rowid when the graph of the current generation knows it (one
 * B-tree search, not two: the id's index is skipped, ~3 µs), else by id. 404 unless an entry.
 */
function entryRow(deps: Pick<Deps, "sqlite">, g: DepGraph | null, id: string): repo.ModRow {
  if (!g) return requireMod(deps, id);
  const rowid = rowidOf(g, id);
  if (rowid < 0) throw notFound();
  const m = rowid > 0 ? repo.getModAt(deps.sqlite, rowid) : null;
  // The graph is of the current generation, so this is the mod; checked all the same (a VACUUM
  // may renumber rowids without moving a generation): else read by id.
  return m !== null && m.workshop_id === id ? m : requireMod(deps, id);
}

export function getModDetail(deps: Deps, id: string, plan: Plan = "auto"): z.infer<typeof M.modDetail> {
  const g = graphFor(deps.sqlite, plan);
  const m = entryRow(deps, g, id);
  const deps_ = g ? directDependenciesOf(g, id) : repo.getDirectDependencies(deps.sqlite, id);
  let links: { label: string; url: string }[] = [];
  try {
    links = JSON.parse(m.external_links_json);
  } catch {
    links = [];
  }
  return {
    ...summaryOf(m),
    summary: m.summary,
    description: m.description,
    author: m.author_name,
    author_id: m.author_id,
    dependency_ids: deps_.map((d) => d.depends_on_id),
    dependencies: deps_.map((d) => ({
      workshop_id: d.depends_on_id,
      name: d.name ?? d.depends_on_name,
      version: d.version,
      size_bytes: d.latest_size ?? d.size_bytes,
      in_catalog: d.name !== null,
    })),
    external_links: links,
    type: m.type,
    license: m.license,
    game_version: m.game_version,
    state: m.state,
    obsolete: !!m.obsolete,
    rating: m.rating,
    rating_count: m.rating_count,
    subscriber_count: m.subscriber_count,
    downloads_total: m.downloads_total,
    workshop_url: `${deps.config.LOADOUT_WORKSHOP_URL}/workshop/${m.workshop_id}`,
    created_at: toIsoOrNull(m.created_at),
    updated_at: toIsoOrNull(m.updated_at),
    scraped_at: toIsoOrNull(m.detail_scraped_at),
  };
}

/** GET /mods/:id as JSON text, read and serialised once per detail generation (answers.ts). */
export const detailAnswers = catalogAnswers<string>("detail", "detail_gen", 8 * 2 ** 20, textBytes);

export function getModDetailJson(deps: Deps, id: string): string {
  return detailAnswers.get(deps.sqlite, id, () => JSON.stringify(getModDetail(deps, id)));
}

export function getMetadata(deps: Deps, id: string): z.infer<typeof M.modMetadata> {
  const m = requireMod(deps, id);
  return {
    workshop_id: m.workshop_id,
    name: m.name,
    version: m.version,
    size_bytes: m.size_bytes,
    image_url: m.image_url,
    author: m.author_name,
    game_version: m.game_version,
    state: m.state,
    updated_at: toIsoOrNull(m.updated_at),
  };
}

function requireVersion(deps: Deps, id: string, version: string): void {
  if (!repo.versionExists(deps.sqlite, id, version)) throw new AppError("mod.version_not_found", "version not found");
}

const toItem = (r: { item_type: string; name: string; path: string; guid: string | null }) => ({
  type: r.item_type as ItemType,
  name: r.name,
  path: r.path,
  guid: r.guid,
});

export function getItems(deps: Deps, id: string, q: z.infer<typeof M.itemsQuery>): z.infer<typeof M.itemsResponse> {
  requireModExists(deps, id);
  let version: string | null;
  if (q.version) {
    requireVersion(deps, id, q.version);
    version = q.version;
  } else {
    version = repo.latestItemVersion(deps.sqlite, id);
  }
  const items = version ? repo.getItems(deps.sqlite, id, version, q.type ?? null).map(toItem) : [];
  return { workshop_id: id, version, items };
}

export function getMissions(deps: Deps, id: string, q: z.infer<typeof M.versionQuery>): z.infer<typeof M.missionsResponse> {
  const m = requireMod(deps, id);
  let version: string | null;
  if (q.version) {
    requireVersion(deps, id, q.version);
    version = q.version;
  } else {
    // The current version's scenarios; else the newest version we saw scenarios for.
    const current = repo.getMissions(deps.sqlite, id, m.version);
    if (current.length) return { workshop_id: id, version: m.version, missions: current };
    version = repo.latestMissionVersion(deps.sqlite, id) ?? m.version;
  }
  return { workshop_id: id, version, missions: repo.getMissions(deps.sqlite, id, version) };
}

/** The transitive dependency graph with sizes; each mod counted once, cycles detected and cut. */
export function getDependencyGraph(deps: Deps, id: string, plan: Plan = "auto"): z.infer<typeof M.depsResponse> {
  const g = graphFor(deps.sqlite, plan);
  const root = g ? entryOf(g, id) : requireMod(deps, id);
  if (!root) throw notFound();
  const rows = g ? closureOf(g, id) : repo.getDependencyClosure(deps.sqlite, id);
  const byId = new Map(rows.map((r) => [r.workshop_id, r]));
  // What the edges say about a dependency we have not scraped (name, size of the required version).
  const edgeInfo = new Map<string, { name: string; size: number; version: string | null }>();
  for (const r of rows) {
    for (const [to, name, version, size] of r.edges) {
      const prev = edgeInfo.get(to);
      if (!prev || size > prev.size) edgeInfo.set(to, { name, size, version });
    }
  }
  // BFS for depth (nearest first).
  const depth = new Map<string, number>([[id, 0]]);
  const order: string[] = [];
  const queue = [id];
  while (queue.length) {
    const cur = queue.shift()!;
    for (const [to] of byId.get(cur)?.edges ?? []) {
      if (depth.has(to)) continue;
      depth.set(to, depth.get(cur)! + 1);
      order.push(to);
      queue.push(to);
    }
  }
  // DFS for back edges (cycles).
  const cycleEdges: [string, string][] = [];
  const color = new Map<string, 1 | 2>();
  const stack: { node: string; i: number }[] = [{ node: id, i: 0 }];
  color.set(id, 1);
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const edges = byId.get(top.node)?.edges ?? [];
    if (top.i >= edges.length) {
      color.set(top.node, 2);
      stack.pop();
      continue;
    }
    const to = edges[top.i++]![0];
    const c = color.get(to);
    if (c === 1) cycleEdges.push([top.node, to]);
    else if (c === undefined) {
      color.set(to, 1);
      stack.push({ node: to, i: 0 });
    }
  }
  const nodes = order.map((nid) => {
    const r = byId.get(nid);
    const inCatalog = !!r?.name;
    const info = edgeInfo.get(nid);
    return {
      workshop_id: nid,
      name: (inCatalog ? r!.name : info?.name) ?? "",
      version: (inCatalog ? r!.version : info?.version) ?? null,
      size_bytes: (inCatalog ? r!.size_bytes : info?.size) ?? 0,
      depth: depth.get(nid)!,
      dependency_ids: (r?.edges ?? []).map((e) => e[0]),
      in_catalog: inCatalog,
    };
  });
  const depsSize = nodes.reduce((s, n) => s + n.size_bytes, 0);
  return {
    workshop_id: id,
    name: root.name,
    size_bytes: root.size_bytes,
    dependencies: nodes,
    dependencies_size_bytes: depsSize,
    total_size_bytes: root.size_bytes + depsSize,
    has_cycle: cycleEdges.length > 0,
    cycle_edges: cycleEdges,
  };
}

/** GET /mods/:id/deps as JSON text, read and serialised once per detail generation (answers.ts). */
export const depsAnswers = catalogAnswers<string>("deps", "detail_gen", 4 * 2 ** 20, textBytes);

export function getDependencyGraphJson(deps: Deps, id: string): string {
  return depsAnswers.get(deps.sqlite, id, () => JSON.stringify(getDependencyGraph(deps, id)));
}

export function getVersions(deps: Deps, id: string): z.infer<typeof M.versionEntry>[] {
  requireModExists(deps, id);
  return repo.getVersions(deps.sqlite, id).map((v: any) => ({
    version: v.version,
    game_version: v.game_version,
    size_bytes: v.size_bytes,
    changelog: v.changelog,
    approved: !!v.approved,
    published: !!v.published,
    scenarios_count: v.scenarios_count,
    dependencies_count: v.dependencies_count,
    created_at: toIsoOrNull(v.created_at),
  }));
}

export function getScreenshots(deps: Deps, id: string) {
  requireModExists(deps, id);
  return repo.getScreenshots(deps.sqlite, id);
}

export function getItemVersions(deps: Deps, id: string): z.infer<typeof M.itemVersionEntry>[] {
  requireModExists(deps, id);
  return repo.getItemVersions(deps.sqlite, id).map((v) => ({
    version: v.version,
    item_count: v.item_count,
    vehicles: v.vehicles,
    weapons: v.weapons,
    gear: v.gear,
    created_at: toIsoOrNull(v.created_at),
    scanned_at: toIso(v.scanned_at),
  }));
}

export function getItemDiff(deps: Deps, id: string, from: string, to: string): z.infer<typeof M.diffResponse> {
  requireModExists(deps, id);
  const scanned = new Set(repo.getItemVersions(deps.sqlite, id).map((v) => v.version));
  for (const v of [from, to]) {
    if (!scanned.has(v) && !repo.versionExists(deps.sqlite, id, v)) throw new AppError("mod.version_not_found", "version not found");
  }
  // Both versions exist; one without item data (no data.pak read for it yet) gives an empty
  // diff with that side flagged, not an error.
  const items_known = { from: scanned.has(from), to: scanned.has(to) };
  if (!items_known.from || !items_known.to) return { workshop_id: id, from, to, added: [], removed: [], changed: [], items_known };
  const load = (v: string): ExtractedItem[] => repo.getItems(deps.sqlite, id, v, null).map(toItem);
  const d = diffItems(load(from), load(to));
  return { workshop_id: id, from, to, ...d, items_known };
}

/**
 * A catalog mod's dependency counts (direct dependencies, catalog mods depending on it): from the
 * graph in memory, else from SQL (two index counts: the graph is current but for the seconds after
 * a catalog write until its next build); the live feature's /mods/:id/stats and /mod/:id/metrics
 * show them beside its usage numbers.
 */
export function getDependencyCounts(sqlite: Database, id: string, plan: Plan = "auto"): { deps: number; dependents: number } {
  const g = graphFor(sqlite, plan);
  return g ? countsOf(g, id) : repo.getDependencyCounts(sqlite, id);
}

/** What /mod/:id/metrics shows of the catalog entry itself: its labels and size. */
export interface ModLabels {
  workshop_id: string;
  name: string;
  author_name: string;
  size_bytes: number;
}

/**
 * A catalog entry's labels and size, read once per detail generation (answers.ts): the live
 * feature's /mod/:id/metrics read the whole row (SELECT m.*, ~10 µs of its ~15) for four columns.
 */
export const labelAnswers = catalogAnswers<ModLabels>(
  "labels",
  "detail_gen",
  2 ** 20,
  (v) => 128 + 2 * (v.workshop_id.length + v.name.length + v.author_name.length),
);

/** A catalog entry's labels and size (404 `mod_not_found` unless the catalog knows it). */
export function getModLabels(deps: Pick<Deps, "sqlite">, id: string): ModLabels {
  return labelAnswers.get(deps.sqlite, id, () => {
    const m = requireMod(deps, id);
    return { workshop_id: m.workshop_id, name: m.name, author_name: m.author_name, size_bytes: m.size_bytes };
  });
}

export function getGrowth(deps: Deps, id: string, days: number): z.infer<typeof M.growthPoint>[] {
  requireModExists(deps, id);
  const now = deps.clock.now();
  const to = bucketOf(now);
  const from = bucketOf(now - days * 86_400_000) + 1;
  const buckets = repo.getGrowthBuckets(deps.sqlite, from, to);
  if (buckets.length === 0) return [];
  const rows = repo.getGrowthRows(deps.sqlite, id, buckets[0]!, to);
  const out: z.infer<typeof M.growthPoint>[] = [];
  let i = 0;
  let cur: (typeof rows)[number] | null = null;
  for (const b of buckets) {
    while (i < rows.length && rows[i]!.bucket <= b) cur = rows[i++]!;
    if (!cur) continue; // the mod had no snapshot yet
    out.push({
      time: toIso(bucketTime(b)),
      used_by_servers_count: cur.used_by_servers,
      players_using_count: cur.players_using,
      dependencies_count: cur.dependencies,
      dependents_count: cur.dependents,
    });
  }
  return out;
}

/**
 * GET /mods/:id/stats/growth as UTF-8 JSON, read, serialised and encoded once per growth generation
 * and 3-hour bucket (answers.ts). Kept as bytes: Bun 1.4.5 sends a big body (~200 KB for 180 days)
 * cheaper as a Uint8Array than as a string (a bare Bun.serve under wrk at 32 clients: ~121 µs a
 * 333 KB request as bytes, ~140 as a flat string).
 */
export const growthAnswers = catalogAnswers<Uint8Array>("growth", "growth_gen", 8 * 2 ** 20, (b) => b.byteLength + 64);

const utf8 = new TextEncoder();

export function getGrowthJson(deps: Deps, id: string, days: number): Uint8Array {
  // The answer depends on the current bucket (the window's end) besides the stored rows.
  const key = `${id}|${days}|${bucketOf(deps.clock.now())}`;
  return growthAnswers.get(deps.sqlite, key, () => utf8.encode(JSON.stringify(getGrowth(deps, id, days))));
}

export function getGrowthRange(deps: Deps, id: string): { oldest: string | null } {
  requireModExists(deps, id);
  const b = repo.getGrowthOldest(deps.sqlite, id);
  return { oldest: b === null ? null : toIso(b * BUCKET_MS) };
}
