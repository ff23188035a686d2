// The rules of mod lists: CRUD, mods, import/export, snapshots, audit with revert.
// Knows nothing of HTTP; throws AppError. Every change of a list's mods writes its audit entry
// and its event in the same transaction as the change.
import type { Deps } from "../../deps";
import type { Tx } from "../../db/client";
import { AppError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { toIso } from "../../shared/time";
import { recordEvent } from "../events/outbox";
import { type ListAccess, type ListRow, requireListRight, resolveListAccess } from "./access";
import { computeImportPlan, type CatalogInfo, type CurrentItem, type ImportDiff } from "./diff";
import * as repo from "./repository";
import { entryLabel, exportMods, ImportFormatError, parseImportBody, type ExportType, type ImportEntry, type ImportShape, type ParsedImport, type ServerJsonMod } from "./serverjson";
import { resolveImport, unresolvedError } from "./import-problems";
import { revertRequired, UPDATE_REQUIRED } from "./required";
import { splitConfig, type JsonObject, type SplitConfig } from "./server-config";
import { listRequiredDefault, saveConfig } from "./server-config-store";

export const MAX_MODS = 1000;
export const LIMIT_MESSAGE = `maximum number of mods (${MAX_MODS}) reached`;
export const AGE_MESSAGE = "Mod age exceeds list limits";
const DAY_MS = 86_400_000;

type Caller = { id: string } | null | undefined;

// ---------------------------------------------------------------------------------------------
// Helpers

/**
 * Runs `fn` in an immediate write transaction, or inside the caller's when one is open on the
 * connection (so other features may call addModsToList / applyImport from their own
 * transaction: everything then commits or rolls back together).
 */
export function inTransaction<T>(deps: Pick<Deps, "db" | "sqlite">, fn: (t: Tx) => T): T {
  if (deps.sqlite.inTransaction) return fn(deps.db);
  return deps.db.transaction((t) => fn(t), { behavior: "immediate" });
}
const tx = inTransaction;

export function access(deps: Deps, listId: string, user: Caller, share?: string | null): ListAccess | null {
  return resolveListAccess(deps, listId, user, share);
}

const scrapeJob = (deps: Deps, t: Tx, workshopId: string, userId: string | null) =>
  deps.jobs.enqueue("scrape.detail", { workshop_id: workshopId }, { dedupeKey: `scrape:${workshopId}`, db: t, createdBy: userId });

/** 422 when a mod's latest version is older than the list allows. */
function checkAge(list: Pick<ListRow, "max_mod_age_days">, rows: readonly repo.CatalogRow[], now: number) {
  if (list.max_mod_age_days == null) return;
  const limit = now - list.max_mod_age_days * DAY_MS;
  for (const r of rows) if (r.in_catalog && r.latest_at != null && r.latest_at < limit) throw new AppError(422, AGE_MESSAGE);
}

function parseJson<T>(s: string | null): T | null {
  return s == null ? null : (JSON.parse(s) as T);
}

// ---------------------------------------------------------------------------------------------
// Lists: CRUD

export interface ListInput {
  name: string;
  description?: string;
  is_public?: boolean;
  max_mod_age_days?: number | null;
}

export function createList(deps: Deps, userId: string, input: ListInput) {
  const now = deps.clock.now();
  const row = {
    id: newId(),
    share_token: crypto.randomUUID(),
    suggestion_token: crypto.randomUUID(),
  };
  deps.sqlite
    .query(
      `INSERT INTO lists (id, owner_id, name, description, is_public, share_token, suggestion_token, require_deploy_approval,
         max_mod_age_days, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
    )
    .run(row.id, userId, input.name, input.description ?? "", input.is_public ? 1 : 0, row.share_token, row.suggestion_token, input.max_mod_age_days ?? null, now, now);
  return row;
}

/** The list summary sent by list endpoints; tokens only for owners. */
export function summaryOut(r: repo.ListSummaryRow, showTokens: boolean) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    is_public: !!r.is_public,
    owner_id: r.owner_id,
    owner_name: r.owner_name ?? "",
    ...(showTokens ? { share_token: r.share_token, suggestion_token: r.suggestion_token } : {}),
    require_deploy_approval: !!r.require_deploy_approval,
    community_id: r.community_id,
    folder_id: r.folder_id,
    max_mod_age_days: r.max_mod_age_days,
    mod_count: r.mod_count,
    total_size_bytes: r.total_size_bytes,
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
    tags: JSON.parse(r.tags_json) as { id: string; name: string; color: string }[],
    ...(r.role ? { role: r.role } : {}),
  };
}

export function publicLists(deps: Deps, userId: string | null, q: { search?: string; community_id?: string; limit: number; offset: number }) {
  return repo
    .publicLists(deps.sqlite, { search: q.search, communityId: q.community_id, limit: q.limit, offset: q.offset })
    .map((r) => summaryOut(r, r.owner_id === userId));
}

export function myLists(deps: Deps, userId: string) {
  return repo.myLists(deps.sqlite, userId).map((r) => summaryOut(r, r.role === "owner" || r.role === "co_owner"));
}

export function pinnedLists(deps: Deps, userId: string) {
  // Pins of lists the caller can no longer read are not shown.
  return repo
    .pinnedLists(deps.sqlite, userId)
    .filter((r) => r.is_public || resolveListAccess(deps, r.id, { id: userId })?.canRead)
    .map((r) => summaryOut(r, r.owner_id === userId));
}

export function togglePin(deps: Deps, listId: string, userId: string): { pinned: boolean } {
  return tx(deps, () => {
    const del = deps.sqlite.query("DELETE FROM list_pins WHERE user_id = ? AND list_id = ?").run(userId, listId);
    if (del.changes > 0) return { pinned: false };
    deps.sqlite.query("INSERT INTO list_pins (user_id, list_id, created_at) VALUES (?, ?, ?)").run(userId, listId, deps.clock.now());
    return { pinned: true };
  });
}

/** The flat list detail of decisions.md. */
export function listDetail(deps: Deps, a: ListAccess) {
  const l = a.list;
  const items = repo.listItems(deps.sqlite, l.id);
  const edges = items.length ? repo.dependencyEdges(deps.sqlite, l.id) : [];
  const requiredDefault = listRequiredDefault(deps.sqlite, l.id);
  let total = 0;
  const outItems = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    total += it.size_bytes;
    outItems[i] = {
      workshop_id: it.workshop_id,
      name: it.name,
      version: it.version,
      pinned_version: it.pinned_version,
      size_bytes: it.size_bytes,
      image_url: it.image_url,
      position: i,
      added_at: toIso(it.added_at),
      added_by: it.added_by && it.added_by_name !== null ? { user_id: it.added_by, display_name: it.added_by_name } : null,
      mod_updated_at: it.mod_updated_at === null ? null : toIso(it.mod_updated_at),
      required: it.required === null ? requiredDefault : it.required !== 0,
      required_stated: repo.requiredOf(it.required),
    };
  }
  const { tree, missing } = dependencyReport(items, edges);
  return {
    id: l.id,
    name: l.name,
    description: l.description,
    is_public: l.is_public,
    owner_id: l.owner_id,
    ...(a.isOwner ? { share_token: l.share_token, suggestion_token: l.suggestion_token } : {}),
    require_deploy_approval: l.require_deploy_approval,
    community_id: l.community_id,
    folder_id: l.folder_id,
    max_mod_age_days: l.max_mod_age_days,
    mod_count: items.length,
    total_size_bytes: total,
    created_at: toIso(l.created_at),
    updated_at: toIso(l.updated_at),
    items: outItems,
    tags: repo.tagsOfList(deps.sqlite, l.id),
    dependency_tree: tree,
    missing_dependencies: missing,
    mods_required_by_default: requiredDefault,
    server_config: deps.sqlite.query("SELECT 1 FROM list_server_configs WHERE list_id = ?").get(l.id) ? ("imported" as const) : ("defaults" as const),
    // What the caller may do here, so clients show only the actions that will work (the API
    // still decides every request).
    my_access: {
      is_owner: a.isOwner,
      is_primary: a.isPrimary,
      can_add: a.canAdd,
      can_remove: a.canRemove,
      can_deploy: a.canDeploy,
      via_share: a.viaShare,
    },
  };
}

export interface DepNode {
  workshop_id: string;
  name: string;
  dependencies: DepNode[];
}

/**
 * Builds the dependency tree of every item (cycles cut at the first repeat on a path) and the
 * transitive dependencies that are not in the list. Subtrees without a cut are shared, so a
 * dependency used by many mods is built once.
 */
export function dependencyReport(items: readonly { workshop_id: string; name: string }[], edges: readonly repo.DepEdge[]) {
  const children = new Map<string, string[]>();
  const names = new Map<string, string>();
  for (const e of edges) {
    let c = children.get(e.workshop_id);
    if (!c) children.set(e.workshop_id, (c = []));
    c.push(e.depends_on_id);
    names.set(e.depends_on_id, e.name);
  }
  for (const it of items) names.set(it.workshop_id, it.name);

  const memo = new Map<string, DepNode>();
  const onPath = new Set<string>();
  let cut = false;
  const build = (id: string): DepNode => {
    const m = memo.get(id);
    if (m) return m;
    const node: DepNode = { workshop_id: id, name: names.get(id) ?? id, dependencies: [] };
    const kids = children.get(id);
    if (!kids) {
      memo.set(id, node);
      return node;
    }
    onPath.add(id);
    const cutBefore = cut;
    cut = false;
    for (const k of kids) {
      if (onPath.has(k)) {
        cut = true;
        node.dependencies.push({ workshop_id: k, name: names.get(k) ?? k, dependencies: [] });
      } else node.dependencies.push(build(k));
    }
    onPath.delete(id);
    if (!cut) memo.set(id, node);
    cut = cut || cutBefore;
    return node;
  };
  const tree = items.map((it) => {
    cut = false;
    return build(it.workshop_id);
  });

  const inList = new Set(items.map((i) => i.workshop_id));
  const missing = new Map<string, { workshop_id: string; name: string; required_by: string[] }>();
  for (const e of edges) {
    if (inList.has(e.depends_on_id)) continue;
    let m = missing.get(e.depends_on_id);
    if (!m) missing.set(e.depends_on_id, (m = { workshop_id: e.depends_on_id, name: e.name, required_by: [] }));
    if (!m.required_by.includes(e.workshop_id)) m.required_by.push(e.workshop_id);
  }
  return { tree, missing: [...missing.values()] };
}

export function updateList(deps: Deps, listId: string, input: Partial<ListInput>) {
  const sets: string[] = [];
  const vals: (string | number | null)[] = [];
  if (input.name !== undefined) sets.push("name = ?"), vals.push(input.name);
  if (input.description !== undefined) sets.push("description = ?"), vals.push(input.description);
  if (input.is_public !== undefined) sets.push("is_public = ?"), vals.push(input.is_public ? 1 : 0);
  if (input.max_mod_age_days !== undefined) sets.push("max_mod_age_days = ?"), vals.push(input.max_mod_age_days);
  sets.push("updated_at = ?");
  vals.push(deps.clock.now());
  deps.sqlite.query(`UPDATE lists SET ${sets.join(", ")} WHERE id = ?`).run(...vals, listId);
}

/** Deletes the list; items, snapshots, audit, pins, tags and collaboration rows go by cascade. */
export function deleteList(deps: Deps, listId: string) {
  deps.sqlite.query("DELETE FROM lists WHERE id = ?").run(listId);
}

export function setCommunity(deps: Deps, listId: string, userId: string, communityId: string | null) {
  if (communityId) {
    const ok = deps.sqlite
      .query(
        `SELECT 1 FROM communities c WHERE c.id = $c AND (c.owner_id = $u OR EXISTS (SELECT 1 FROM community_members m WHERE m.community_id = c.id AND m.user_id = $u))`,
      )
      .get({ c: communityId, u: userId });
    if (!ok) throw new AppError(404, "community not found");
  }
  deps.sqlite.query("UPDATE lists SET community_id = ?, updated_at = ? WHERE id = ?").run(communityId, deps.clock.now(), listId);
}

export function setFolder(deps: Deps, listId: string, userId: string, folderId: string | null) {
  if (folderId) {
    const ok = deps.sqlite.query("SELECT 1 FROM folders WHERE id = ? AND owner_id = ?").get(folderId, userId);
    if (!ok) throw new AppError(404, "folder not found");
  }
  deps.sqlite.query("UPDATE lists SET folder_id = ?, updated_at = ? WHERE id = ?").run(folderId, deps.clock.now(), listId);
}

export function resetToken(deps: Deps, listId: string, which: "share_token" | "suggestion_token"): string {
  const token = crypto.randomUUID();
  deps.sqlite.query(`UPDATE lists SET ${which} = ?, updated_at = ? WHERE id = ?`).run(token, deps.clock.now(), listId);
  return token;
}

// ---------------------------------------------------------------------------------------------
// Mods in a list

export interface AddModsInput {
  listId: string;
  userId: string | null;
  workshopIds: string[];
  /** Where the add came from (`manual`, `suggestion`, `template`, ...), kept in the event data. */
  source: string;
  /** Also add the transitive dependencies of these mods that the list lacks. */
  withDependencies?: boolean;
  /** Versions to pin for some of the added mods. */
  pins?: Record<string, string | null>;
}

export interface AddModsResult {
  added: { workshop_id: string; name: string; in_catalog: boolean }[];
}

/**
 * Adds mods to a list in one transaction: 409 at the 1000 limit or for a mod already in the
 * list, 422 by the age rule; unknown mods are added by id and a detail scrape is queued. One
 * `add_mod` audit entry and one `mod_added` event per mod.
 */
export function addModsToList(deps: Deps, input: AddModsInput): AddModsResult {
  const ids = [...new Set(input.workshopIds.map((w) => w.toUpperCase()))];
  const now = deps.clock.now();
  return tx(deps, (t) => {
    const list = deps.sqlite.query("SELECT id, max_mod_age_days FROM lists WHERE id = ?").get(input.listId) as Pick<ListRow, "id" | "max_mod_age_days"> | null;
    if (!list) throw new AppError(404, "list not found");
    const present = new Set(repo.listItemKeys(deps.sqlite, input.listId).map((r) => r.workshop_id));
    for (const id of ids) if (present.has(id)) throw new AppError(409, `mod ${id} is already in the list`);
    let toAdd = ids;
    if (input.withDependencies) {
      const closure = repo.dependencyClosure(deps.sqlite, ids);
      toAdd = [...ids, ...closure.filter((id) => !present.has(id) && !ids.includes(id))];
    }
    if (present.size + toAdd.length > MAX_MODS) throw new AppError(409, LIMIT_MESSAGE);
    const rows = repo.catalogLookup(deps.sqlite, toAdd);
    checkAge(list, rows, now);
    let pos = repo.countItems(deps.sqlite, input.listId).max_pos;
    const added: AddModsResult["added"] = [];
    for (const r of rows) {
      const name = r.name || r.workshop_id;
      repo.insertItem(deps.sqlite, {
        listId: input.listId,
        workshopId: r.workshop_id,
        name: r.name,
        position: ++pos,
        pinned: input.pins?.[r.workshop_id] ?? null,
        userId: input.userId,
        at: now,
      });
      repo.insertAudit(deps.sqlite, { id: newId(), listId: input.listId, action: "add_mod", workshopId: r.workshop_id, modName: name, oldValue: null, newValue: null, userId: input.userId, at: now });
      recordEvent(t, { kind: "mod_added", listId: input.listId, actorId: input.userId, data: { workshop_id: r.workshop_id, name, source: input.source }, at: now });
      if (!r.in_catalog) scrapeJob(deps, t, r.workshop_id, input.userId);
      added.push({ workshop_id: r.workshop_id, name, in_catalog: !!r.in_catalog });
    }
    repo.touchList(deps.sqlite, input.listId, now);
    return { added };
  });
}

export function removeMod(deps: Deps, listId: string, userId: string, workshopId: string) {
  const now = deps.clock.now();
  tx(deps, (t) => {
    const item = repo.getItem(deps.sqlite, listId, workshopId);
    if (!item) throw new AppError(404, "mod not in list");
    repo.deleteItem(deps.sqlite, listId, workshopId);
    repo.insertAudit(deps.sqlite, { id: newId(), listId, action: "remove_mod", workshopId, modName: item.name, oldValue: { version: item.pinned_version }, newValue: null, userId, at: now });
    recordEvent(t, { kind: "mod_removed", listId, actorId: userId, data: { workshop_id: workshopId, name: item.name }, at: now });
    repo.touchList(deps.sqlite, listId, now);
  });
}

/** Pins (or with null unpins) a version; the version must exist when the catalog knows the mod's versions. */
export function setModVersion(deps: Deps, listId: string, userId: string, workshopId: string, version: string | null) {
  const now = deps.clock.now();
  tx(deps, (t) => {
    const item = repo.getItem(deps.sqlite, listId, workshopId);
    if (!item) throw new AppError(404, "mod not in list");
    if (version !== null) {
      const k = repo.versionKnown(deps.sqlite, workshopId, version);
      if (k.catalogKnows && !k.exists) throw new AppError(400, `version ${version} does not exist for mod ${workshopId}`);
    }
    if (item.pinned_version === version) return;
    repo.setPin(deps.sqlite, listId, workshopId, version);
    repo.insertAudit(deps.sqlite, { id: newId(), listId, action: "update_version", workshopId, modName: item.name, oldValue: { version: item.pinned_version }, newValue: { version }, userId, at: now });
    recordEvent(t, { kind: "version_changed", listId, actorId: userId, data: { workshop_id: workshopId, name: item.name, old_version: item.pinned_version, new_version: version }, at: now });
    repo.touchList(deps.sqlite, listId, now);
  });
}

/** Saves a manual order; `order` must be a permutation of the list's mods (400 otherwise). Audited as `reorder`. */
export function reorderMods(deps: Deps, listId: string, userId: string, order: string[]) {
  const now = deps.clock.now();
  const wanted = order.map((w) => w.toUpperCase());
  tx(deps, () => {
    const current = repo.listItemKeys(deps.sqlite, listId).map((r) => r.workshop_id);
    const set = new Set(current);
    const seen = new Set<string>();
    for (const id of wanted) {
      if (!set.has(id)) throw new AppError(400, `order: mod ${id} is not in the list`);
      if (seen.has(id)) throw new AppError(400, `order: mod ${id} appears twice`);
      seen.add(id);
    }
    if (seen.size !== set.size) throw new AppError(400, `order: must list all ${set.size} mods of the list exactly once (got ${seen.size})`);
    if (current.every((id, i) => id === wanted[i])) return;
    repo.setOrder(deps.sqlite, listId, wanted);
    repo.insertAudit(deps.sqlite, { id: newId(), listId, action: "reorder", workshopId: null, modName: null, oldValue: { order: current }, newValue: { order: wanted }, userId, at: now });
    repo.touchList(deps.sqlite, listId, now);
  });
}

/** Queues one detail scrape per mod of the list; returns how many jobs were queued. */
export function rescrapeList(deps: Deps, listId: string, userId: string): { ok: true; queued: number; job_ids: string[] } {
  return tx(deps, (t) => {
    const ids = repo.listItemKeys(deps.sqlite, listId).map((r) => r.workshop_id);
    const jobIds = ids.map((id) => scrapeJob(deps, t, id, userId));
    return { ok: true as const, queued: jobIds.length, job_ids: jobIds };
  });
}

// ---------------------------------------------------------------------------------------------
// Import

function parseBody(raw: string): ParsedImport {
  try {
    return parseImportBody(raw);
  } catch (e) {
    if (e instanceof ImportFormatError) throw new AppError(400, e.message);
    throw e;
  }
}

function planFor(deps: Deps, listId: string, entries: readonly ImportEntry[], checkOrder: boolean) {
  const items = repo.listItems(deps.sqlite, listId);
  const current: CurrentItem[] = items.map((i) => ({ workshop_id: i.workshop_id, name: i.name, pinned_version: i.pinned_version, latest_version: i.version, required: repo.requiredOf(i.required) }));
  const present = new Set(items.map((i) => i.workshop_id));
  const newIds = entries.filter((e) => !present.has(e.workshop_id)).map((e) => e.workshop_id);
  const rows = newIds.length ? repo.catalogLookup(deps.sqlite, newIds) : [];
  const catalog = new Map<string, CatalogInfo>();
  for (const r of rows) if (r.in_catalog) catalog.set(r.workshop_id, { name: r.name, version: r.version, size_bytes: r.size_bytes });
  return { plan: computeImportPlan(current, entries, catalog, checkOrder), rows, items };
}

/**
 * An imported pin must be a version the catalog knows, as `PUT …/version` demands: a pin to a
 * version that does not exist is 400 naming the entry, in the preview and in the apply (which
 * then changes nothing). Mods whose versions the catalog does not know yet are taken as given.
 */
function checkImportedPins(deps: Deps, plan: ReturnType<typeof planFor>["plan"], entries: readonly ImportEntry[], shape: ImportShape) {
  const pins = new Map<string, string>();
  for (const a of plan.toAdd) if (a.pinned_version) pins.set(a.workshop_id, a.pinned_version);
  for (const c of plan.pinChanges) if (c.pinned_version) pins.set(c.workshop_id, c.pinned_version);
  if (!pins.size) return;
  entries.forEach((e, i) => {
    const version = pins.get(e.workshop_id);
    if (!version) return;
    const k = repo.versionKnown(deps.sqlite, e.workshop_id, version);
    if (k.catalogKnows && !k.exists) {
      throw new AppError(400, `${entryLabel(shape, i)}.version: version ${version} does not exist for mod ${e.workshop_id}`);
    }
  });
}

/** The file read, its stale pins resolved as chosen (`resolve`), and the plan for it. */
function prepareImport(deps: Deps, listId: string, raw: string, checkOrder: boolean, resolve?: string) {
  const parsed = parseBody(raw);
  const current = repo.listItemKeys(deps.sqlite, listId);
  const r = resolveImport(deps, listId, parsed, resolve, current, (entries) => planFor(deps, listId, entries, checkOrder).plan);
  return { parsed, ...r };
}

/** The diff, with every stale pin (and its chosen resolution), notes and settings changes. */
export function importPreview(deps: Deps, listId: string, raw: string, checkOrder: boolean, resolve?: string): ImportDiff {
  return prepareImport(deps, listId, raw, checkOrder, resolve).plan.diff;
}

/** Applies a file: 400 naming every unresolved stale pin; a full config's settings are remembered. */
export function importApplyText(deps: Deps, listId: string, userId: string, raw: string, checkOrder: boolean, resolve?: string) {
  const { parsed, entries, stale } = prepareImport(deps, listId, raw, checkOrder, resolve);
  const refused = unresolvedError(stale);
  if (refused) throw refused;
  const config = parsed.config ? splitConfig(parsed.config as JsonObject) : undefined;
  return applyImport(deps, { listId, userId, entries, checkOrder, checkPinsOf: parsed.shape, config });
}

export interface ApplyImportInput {
  listId: string;
  userId: string | null;
  entries: readonly ImportEntry[];
  checkOrder: boolean;
  /** Event source label (`import`, `copy-from-server`, `template`, `revert`). */
  source?: string;
  /** A user's import in this shape: refuse pins to versions the catalog does not have (checkImportedPins). */
  checkPinsOf?: ImportShape;
  /** A full config's other settings, remembered for export/game (replacing what the list had). */
  config?: SplitConfig;
}

export interface ApplyImportResult {
  ok: true;
  added: number;
  removed: number;
  version_changed: number;
}

/**
 * Makes the list equal to `entries` (and, with checkOrder, in their order) in one transaction
 * with exactly one `import` audit entry; nothing changes when anything fails.
 */
export function applyImport(deps: Deps, input: ApplyImportInput): ApplyImportResult {
  const now = deps.clock.now();
  return tx(deps, (t) => {
    const list = deps.sqlite.query("SELECT id, max_mod_age_days FROM lists WHERE id = ?").get(input.listId) as Pick<ListRow, "id" | "max_mod_age_days"> | null;
    if (!list) throw new AppError(404, "list not found");
    if (input.entries.length > MAX_MODS) throw new AppError(409, LIMIT_MESSAGE);
    const { plan, rows, items } = planFor(deps, input.listId, input.entries, input.checkOrder);
    if (input.checkPinsOf) checkImportedPins(deps, plan, input.entries, input.checkPinsOf);
    checkAge(list, rows, now);
    const byId = new Map(items.map((i) => [i.workshop_id, i]));
    const removedSet = new Set(plan.toRemove);
    for (const id of plan.toRemove) repo.deleteItem(deps.sqlite, input.listId, id);
    for (const c of plan.pinChanges) repo.setPin(deps.sqlite, input.listId, c.workshop_id, c.pinned_version);
    for (const c of plan.requiredChanges) repo.setRequired(deps.sqlite, input.listId, c.workshop_id, c.required);
    if (input.config) saveConfig(deps, input.listId, input.config, input.userId);
    let pos = repo.countItems(deps.sqlite, input.listId).max_pos;
    for (const a of plan.toAdd) {
      repo.insertItem(deps.sqlite, { listId: input.listId, workshopId: a.workshop_id, name: a.name, position: ++pos, pinned: a.pinned_version, userId: input.userId, at: now, required: a.required });
      if (!a.in_catalog) scrapeJob(deps, t, a.workshop_id, input.userId);
    }
    const oldOrder = items.map((i) => i.workshop_id);
    let orderChanged = false;
    if (plan.order) {
      const kept = oldOrder.filter((id) => !removedSet.has(id));
      const natural = [...kept, ...plan.toAdd.map((a) => a.workshop_id)];
      orderChanged = natural.some((id, i) => id !== plan.order![i]);
      if (orderChanged) repo.setOrder(deps.sqlite, input.listId, plan.order);
    }
    const d = plan.diff;
    const changed = plan.toAdd.length + plan.toRemove.length + plan.pinChanges.length + plan.requiredChanges.length > 0 || orderChanged;
    if (input.config && !changed) repo.touchList(deps.sqlite, input.listId, now);
    if (changed) {
      const removed = plan.toRemove.map((id) => {
        const it = byId.get(id)!;
        return { workshop_id: id, name: it.name, version: it.pinned_version, required: repo.requiredOf(it.required) };
      });
      const requiredChanged = d.required_changed.map((r) => ({ workshop_id: r.workshop_id, name: r.name, old_required: r.old_required, new_required: r.new_required }));
      const versionChanged = d.version_changed.map((v) => ({ workshop_id: v.workshop_id, name: v.name, old_version: v.old_version, new_version: v.new_version }));
      const added = plan.toAdd.map((a) => ({ workshop_id: a.workshop_id, name: a.name || a.workshop_id, version: a.pinned_version }));
      repo.insertAudit(deps.sqlite, {
        id: newId(),
        listId: input.listId,
        action: "import",
        workshopId: null,
        modName: null,
        oldValue: {
          removed,
          version_changed: versionChanged,
          ...(requiredChanged.length ? { required_changed: requiredChanged } : {}),
          ...(orderChanged || removed.length ? { order: oldOrder } : {}),
        },
        newValue: { added, version_changed: versionChanged, ...(requiredChanged.length ? { required_changed: requiredChanged } : {}) },
        userId: input.userId,
        at: now,
      });
      recordEvent(t, {
        kind: "list_imported",
        listId: input.listId,
        actorId: input.userId,
        data: { added: added.length, removed: removed.length, version_changed: versionChanged.length, source: input.source ?? "import" },
        at: now,
      });
      repo.touchList(deps.sqlite, input.listId, now);
    }
    return { ok: true as const, added: plan.toAdd.length, removed: plan.toRemove.length, version_changed: plan.pinChanges.length };
  });
}

// ---------------------------------------------------------------------------------------------
// Export

/** The list's mods as server.json entries, in list order (`fixed`: pins; `latest`: latest known). */
export function listModsForExport(deps: Pick<Deps, "sqlite">, listId: string, type: ExportType): ServerJsonMod[] {
  const items = repo.listItems(deps.sqlite, listId);
  return exportMods(
    items.map((i) => ({ workshop_id: i.workshop_id, name: i.name, pinned_version: i.pinned_version, latest_version: i.version, required: repo.requiredOf(i.required) })),
    type,
    { list: listRequiredDefault(deps.sqlite, listId) },
  );
}

// ---------------------------------------------------------------------------------------------
// Snapshots

interface SnapshotRow {
  id: string;
  list_id: string;
  version_name: string | null;
  tag: string | null;
  notes: string | null;
  is_release: number;
  snapshot_json: string;
  created_by: string | null;
  created_at: number;
}

const snapshotOut = (r: SnapshotRow) => ({
  id: r.id,
  list_id: r.list_id,
  version_name: r.version_name,
  tag: r.tag,
  notes: r.notes,
  is_release: !!r.is_release,
  snapshot_json: JSON.parse(r.snapshot_json) as { modId: string; name: string; version: string }[],
  created_by: r.created_by,
  created_at: toIso(r.created_at),
});

/** The list as snapshot entries; version is the pin, else the latest known, else "". */
function liveEntries(deps: Deps, listId: string) {
  return repo.listItems(deps.sqlite, listId).map((i) => ({ modId: i.workshop_id, name: i.name, version: i.pinned_version ?? i.version ?? "" }));
}

export interface SnapshotInput {
  version_name?: string | null;
  tag?: string | null;
  notes?: string | null;
  is_release?: boolean;
}

export function createSnapshot(deps: Deps, listId: string, userId: string, input: SnapshotInput) {
  const row: SnapshotRow = {
    id: newId(),
    list_id: listId,
    version_name: input.version_name ?? null,
    tag: input.tag ?? null,
    notes: input.notes ?? null,
    is_release: input.is_release ? 1 : 0,
    snapshot_json: JSON.stringify(liveEntries(deps, listId)),
    created_by: userId,
    created_at: deps.clock.now(),
  };
  deps.sqlite
    .query(
      `INSERT INTO list_snapshots (id, list_id, version_name, tag, notes, is_release, snapshot_json, created_by, created_at)
       VALUES ($id, $list_id, $version_name, $tag, $notes, $is_release, $snapshot_json, $created_by, $created_at)`,
    )
    .run(row as any);
  return snapshotOut(row);
}

export function listSnapshots(deps: Deps, listId: string) {
  const rows = deps.sqlite.query("SELECT * FROM list_snapshots WHERE list_id = ? ORDER BY created_at DESC, id DESC").all(listId) as SnapshotRow[];
  return rows.map(snapshotOut);
}

export function liveSnapshot(deps: Deps, l: ListRow) {
  return {
    id: "live",
    list_id: l.id,
    version_name: "live",
    tag: null,
    notes: null,
    is_release: false,
    snapshot_json: liveEntries(deps, l.id),
    created_by: null,
    created_at: toIso(deps.clock.now()),
  };
}

function snapshotRow(deps: Deps, listId: string, id: string): SnapshotRow {
  const r = deps.sqlite.query("SELECT * FROM list_snapshots WHERE id = ? AND list_id = ?").get(id, listId) as SnapshotRow | null;
  if (!r) throw new AppError(404, "snapshot not found");
  return r;
}

export const getSnapshot = (deps: Deps, listId: string, id: string) => snapshotOut(snapshotRow(deps, listId, id));

export function updateSnapshot(deps: Deps, listId: string, id: string, input: SnapshotInput) {
  const r = snapshotRow(deps, listId, id);
  const next = {
    ...r,
    version_name: input.version_name !== undefined ? input.version_name : r.version_name,
    tag: input.tag !== undefined ? input.tag : r.tag,
    notes: input.notes !== undefined ? input.notes : r.notes,
    is_release: input.is_release !== undefined ? (input.is_release ? 1 : 0) : r.is_release,
  };
  deps.sqlite
    .query("UPDATE list_snapshots SET version_name = ?, tag = ?, notes = ?, is_release = ? WHERE id = ?")
    .run(next.version_name, next.tag, next.notes, next.is_release, id);
  return snapshotOut(next);
}

export function deleteSnapshot(deps: Deps, listId: string, id: string) {
  snapshotRow(deps, listId, id);
  deps.sqlite.query("DELETE FROM list_snapshots WHERE id = ?").run(id);
}

// ---------------------------------------------------------------------------------------------
// Audit

export const AUDIT_LIMIT = 100;

const auditOut = (r: repo.AuditRow) => ({
  id: r.id,
  action: r.action,
  workshop_id: r.workshop_id,
  mod_name: r.mod_name,
  old_value: parseJson<Record<string, unknown>>(r.old_value),
  new_value: parseJson<Record<string, unknown>>(r.new_value),
  user_id: r.user_id,
  display_name: r.display_name,
  reverted: !!r.reverted,
  created_at: toIso(r.created_at),
});

export const auditLog = (deps: Deps, listId: string) => repo.auditEntries(deps.sqlite, listId, AUDIT_LIMIT).map(auditOut);

type RequiredChange = { workshop_id: string; name: string; old_required: boolean | null; new_required: boolean | null };
type ImportOld = {
  removed: { workshop_id: string; name: string; version: string | null; required?: boolean | null }[];
  version_changed: { workshop_id: string; name: string; old_version: string | null; new_version: string | null }[];
  required_changed?: RequiredChange[];
  order?: string[];
};
type ImportNew = { added: { workshop_id: string; name: string; version: string | null }[]; version_changed: ImportOld["version_changed"] };

/**
 * Undoes one audit entry as a new, audited change, and marks the entry reverted. Repeating it
 * is a no-op. 409 when later changes made the undo impossible.
 */
export function revertAudit(deps: Deps, a: ListAccess, entryId: string, userId: string): { ok: true } {
  const now = deps.clock.now();
  const listId = a.list.id;
  return tx(deps, (t) => {
    const e = repo.auditEntry(deps.sqlite, listId, entryId);
    if (!e) throw new AppError(404, "audit entry not found");
    if (e.reverted) return { ok: true as const };
    // The undo needs the rights of the change it makes.
    const needs: Record<string, ("add" | "remove")[]> = { add_mod: ["remove"], remove_mod: ["add"], update_version: ["add"], [UPDATE_REQUIRED]: ["add"], reorder: ["add"], import: ["add", "remove"] };
    for (const r of needs[e.action] ?? []) requireListRight(a, r);
    const wid = e.workshop_id!;
    const audit = (action: string, oldValue: unknown, newValue: unknown, name = e.mod_name) =>
      repo.insertAudit(deps.sqlite, { id: newId(), listId, action, workshopId: e.workshop_id, modName: name, oldValue, newValue, userId, at: now });
    switch (e.action) {
      case "add_mod": {
        const item = repo.getItem(deps.sqlite, listId, wid);
        if (!item) throw new AppError(409, `cannot revert: mod ${wid} is no longer in the list`);
        repo.deleteItem(deps.sqlite, listId, wid);
        audit("remove_mod", { version: item.pinned_version }, null);
        recordEvent(t, { kind: "mod_removed", listId, actorId: userId, data: { workshop_id: wid, name: e.mod_name, source: "revert" }, at: now });
        break;
      }
      case "remove_mod": {
        if (repo.getItem(deps.sqlite, listId, wid)) throw new AppError(409, `cannot revert: mod ${wid} is already in the list again`);
        const c = repo.countItems(deps.sqlite, listId);
        if (c.n >= MAX_MODS) throw new AppError(409, LIMIT_MESSAGE);
        const version = parseJson<{ version: string | null }>(e.old_value)?.version ?? null;
        repo.insertItem(deps.sqlite, { listId, workshopId: wid, name: e.mod_name ?? "", position: c.max_pos + 1, pinned: version, userId, at: now });
        audit("add_mod", null, null);
        recordEvent(t, { kind: "mod_added", listId, actorId: userId, data: { workshop_id: wid, name: e.mod_name, source: "revert" }, at: now });
        break;
      }
      case "update_version": {
        const item = repo.getItem(deps.sqlite, listId, wid);
        if (!item) throw new AppError(409, `cannot revert: mod ${wid} is no longer in the list`);
        const version = parseJson<{ version: string | null }>(e.old_value)?.version ?? null;
        if (item.pinned_version !== version) {
          repo.setPin(deps.sqlite, listId, wid, version);
          audit("update_version", { version: item.pinned_version }, { version });
          recordEvent(t, { kind: "version_changed", listId, actorId: userId, data: { workshop_id: wid, name: e.mod_name, old_version: item.pinned_version, new_version: version, source: "revert" }, at: now });
        }
        break;
      }
      case UPDATE_REQUIRED: {
        revertRequired(deps, e, userId, now);
        break;
      }
      case "reorder": {
        const old = parseJson<{ order: string[] }>(e.old_value)?.order ?? [];
        const current = repo.listItemKeys(deps.sqlite, listId).map((r) => r.workshop_id);
        const present = new Set(current);
        const restored = old.filter((id) => present.has(id));
        const rest = current.filter((id) => !old.includes(id));
        const order = [...restored, ...rest];
        if (order.some((id, i) => id !== current[i])) {
          repo.setOrder(deps.sqlite, listId, order);
          audit("reorder", { order: current }, { order });
        }
        break;
      }
      case "import": {
        const oldV = parseJson<ImportOld>(e.old_value) ?? { removed: [], version_changed: [] };
        const newV = parseJson<ImportNew>(e.new_value) ?? { added: [], version_changed: [] };
        const items = repo.listItemKeys(deps.sqlite, listId);
        const byId = new Map(items.map((i) => [i.workshop_id, i]));
        // Undo: remove what the import added, re-add what it removed, restore changed pins.
        const removed: ImportOld["removed"] = [];
        for (const a of newV.added) {
          const it = byId.get(a.workshop_id);
          if (!it) continue; // already gone
          repo.deleteItem(deps.sqlite, listId, a.workshop_id);
          removed.push({ workshop_id: a.workshop_id, name: a.name, version: it.pinned_version, required: repo.requiredOf(it.required) });
          byId.delete(a.workshop_id);
        }
        const readd = oldV.removed.filter((r) => !byId.has(r.workshop_id));
        if (byId.size + readd.length > MAX_MODS) throw new AppError(409, LIMIT_MESSAGE);
        let pos = repo.countItems(deps.sqlite, listId).max_pos;
        for (const r of readd) {
          repo.insertItem(deps.sqlite, { listId, workshopId: r.workshop_id, name: r.name, position: ++pos, pinned: r.version, userId, at: now, required: r.required ?? null });
          byId.set(r.workshop_id, { workshop_id: r.workshop_id, name: r.name, pinned_version: r.version, required: r.required == null ? null : r.required ? 1 : 0, position: pos });
        }
        const versionChanged: ImportOld["version_changed"] = [];
        for (const v of oldV.version_changed) {
          const it = byId.get(v.workshop_id);
          if (!it || it.pinned_version === v.old_version) continue;
          repo.setPin(deps.sqlite, listId, v.workshop_id, v.old_version);
          versionChanged.push({ workshop_id: v.workshop_id, name: v.name, old_version: it.pinned_version, new_version: v.old_version });
        }
        const requiredChanged: RequiredChange[] = [];
        for (const r of oldV.required_changed ?? []) {
          const it = byId.get(r.workshop_id);
          if (!it || repo.requiredOf(it.required) === r.old_required) continue;
          repo.setRequired(deps.sqlite, listId, r.workshop_id, r.old_required);
          requiredChanged.push({ workshop_id: r.workshop_id, name: r.name, old_required: repo.requiredOf(it.required), new_required: r.old_required });
        }
        const before = items.map((i) => i.workshop_id);
        if (oldV.order) {
          const present = new Set(byId.keys());
          const order = [...oldV.order.filter((id) => present.has(id)), ...[...present].filter((id) => !oldV.order!.includes(id))];
          repo.setOrder(deps.sqlite, listId, order);
        }
        repo.insertAudit(deps.sqlite, {
          id: newId(),
          listId,
          action: "import",
          workshopId: null,
          modName: null,
          oldValue: { removed, version_changed: versionChanged, ...(requiredChanged.length ? { required_changed: requiredChanged } : {}), order: before },
          newValue: {
            added: readd.map((r) => ({ workshop_id: r.workshop_id, name: r.name, version: r.version })),
            version_changed: versionChanged,
            ...(requiredChanged.length ? { required_changed: requiredChanged } : {}),
          },
          userId,
          at: now,
        });
        recordEvent(t, { kind: "list_imported", listId, actorId: userId, data: { added: readd.length, removed: removed.length, version_changed: versionChanged.length, source: "revert" }, at: now });
        break;
      }
      default:
        throw new AppError(409, `cannot revert an entry of type ${e.action}`);
    }
    repo.markReverted(deps.sqlite, entryId);
    repo.touchList(deps.sqlite, listId, now);
    return { ok: true as const };
  });
}

// ---------------------------------------------------------------------------------------------
// Pre-flight check

export interface CheckFinding {
  kind: "missing_dependency" | "pinned_version_missing" | "mod_unavailable" | "not_scraped" | "game_version_mismatch";
  severity: "error" | "warning" | "info";
  message: string;
  mods: string[];
}

/** A pre-flight report of the list (issue 4 extra): what would break or surprise on a server. */
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
    const known = deps.sqlite
      .query(
        `SELECT p.value ->> '$[0]' AS workshop_id FROM json_each(?) p
         WHERE EXISTS (SELECT 1 FROM mod_versions v WHERE v.workshop_id = p.value ->> '$[0]' AND v.version = p.value ->> '$[1]')
            OR EXISTS (SELECT 1 FROM mods m WHERE m.workshop_id = p.value ->> '$[0]' AND m.version = p.value ->> '$[1]')`,
      )
      .all(JSON.stringify(pinned.map((p) => [p.workshop_id, p.pinned_version]))) as { workshop_id: string }[];
    const ok = new Set(known.map((k) => k.workshop_id));
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
