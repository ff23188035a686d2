// Problems of an imported file named all at once: every pin the catalog does
// not have, and the per-mod choice of what to do with it (`resolve=<id>:unpinned,<id>:skip`).
import type { Database } from "bun:sqlite";
import { AppError } from "../../shared/errors";
import type { ImportPlan, StalePinElement } from "./diff";
import type { Deps } from "../../deps";
import * as repo from "./repository";
import type { ImportEntry, ImportShape, ParsedImport } from "./server-json-format";
import { entryLabel } from "./server-json-format";

export type PinResolution = "unpinned" | "skip";

const RESOLVE_ITEM = /^([0-9A-Fa-f]{16}):(unpinned|skip)$/;

/** Parses `resolve`: comma-separated `<workshop id>:unpinned|skip`; 400 naming the first bad item. */
export function parseResolutions(text: string | undefined): Map<string, PinResolution> {
  const out = new Map<string, PinResolution>();
  if (!text) return out;
  for (const raw of text.split(",")) {
    const item = raw.trim();
    if (!item) continue;
    const m = RESOLVE_ITEM.exec(item);
    if (!m) throw new AppError("request.invalid", `resolve: expected <workshop id>:unpinned or <workshop id>:skip, got "${item.slice(0, 60)}"`);
    out.set(m[1]!.toUpperCase(), m[2] as PinResolution);
  }
  return out;
}

/**
 * Every new pin of the plan (an added mod's, or a changed pin) to a version the catalog does not
 * have for a mod whose versions it knows, in file order. Mods the catalog has no versions of
 * are taken as given (as PUT …/version takes them).
 */
export function findStalePins(
  sqlite: Database,
  plan: ImportPlan,
  entries: readonly ImportEntry[],
  shape: ImportShape,
  inList: ReadonlySet<string>,
  resolutions: ReadonlyMap<string, PinResolution>,
): StalePinElement[] {
  const pins = new Map<string, string>();
  for (const a of plan.toAdd) if (a.pinned_version) pins.set(a.workshop_id, a.pinned_version);
  for (const c of plan.pinChanges) if (c.pinned_version) pins.set(c.workshop_id, c.pinned_version);
  if (!pins.size) return [];
  const stale: { i: number; e: ImportEntry; version: string }[] = [];
  entries.forEach((e, i) => {
    const version = pins.get(e.workshop_id);
    if (!version) return;
    const k = repo.versionKnown(sqlite, e.workshop_id, version);
    if (k.catalogKnows && !k.exists) stale.push({ i, e, version });
  });
  if (!stale.length) return [];
  const catalog = new Map(repo.catalogLookup(sqlite, stale.map((s) => s.e.workshop_id)).map((r) => [r.workshop_id, r]));
  return stale.map(({ i, e, version }) => {
    const c = catalog.get(e.workshop_id);
    return {
      workshop_id: e.workshop_id,
      name: c?.name || e.name || e.workshop_id,
      version,
      entry: entryLabel(shape, i).replace(/^[^:]*: /, ""),
      latest_version: c?.version ?? "",
      in_list: inList.has(e.workshop_id),
      resolution: resolutions.get(e.workshop_id) ?? null,
    };
  });
}

/**
 * The entries with each resolved stale pin applied: `unpinned` drops the version, `skip` drops
 * a new mod's entry and leaves a listed mod as the list has it.
 */
export function resolveEntries(
  entries: readonly ImportEntry[],
  stale: readonly StalePinElement[],
  current: ReadonlyMap<string, { pinned_version: string | null; required: boolean | null }>,
): ImportEntry[] {
  const how = new Map(stale.filter((s) => s.resolution).map((s) => [s.workshop_id, s.resolution!]));
  if (!how.size) return [...entries];
  const out: ImportEntry[] = [];
  for (const e of entries) {
    const r = how.get(e.workshop_id);
    if (r === "unpinned") out.push({ ...e, version: null });
    else if (r === "skip") {
      const cur = current.get(e.workshop_id);
      if (cur) out.push({ ...e, version: cur.pinned_version, required: cur.required });
    } else out.push(e);
  }
  return out;
}

/** 400 for an apply with stale pins left unresolved: all of them in one message. */
export function unresolvedError(stale: readonly StalePinElement[]): AppError | null {
  const open = stale.filter((s) => !s.resolution);
  if (!open.length) return null;
  const list = open.map((s) => `${s.entry} ${s.name} (${s.workshop_id}) version ${s.version}`).join("; ");
  const what = open.length === 1 ? "1 pinned version the catalog does not have" : `${open.length} pinned versions the catalog does not have`;
  return new AppError("import.unresolved_pins", `${what}: ${list}; choose for each: resolve=<workshop id>:unpinned or <workshop id>:skip`);
}

/**
 * The import as it will be applied: the file's entries with the chosen resolutions, the plan for
 * them, every stale pin (with its resolution), and the reader's notes for the preview. `planOf` computes a plan for entries against the list as it is now.
 */
export function resolveImport(
  deps: Pick<Deps, "sqlite" | "secrets">,
  listId: string,
  parsed: ParsedImport,
  resolveText: string | undefined,
  current: readonly { workshop_id: string; pinned_version: string | null; required: number | null }[],
  planOf: (entries: readonly ImportEntry[]) => ImportPlan,
) {
  const resolutions = parseResolutions(resolveText);
  const first = planOf(parsed.entries);
  const inList = new Set(current.map((c) => c.workshop_id));
  const stale = findStalePins(deps.sqlite, first, parsed.entries, parsed.shape, inList, resolutions);
  const byId = new Map(current.map((c) => [c.workshop_id, { pinned_version: c.pinned_version, required: repo.requiredOf(c.required) }]));
  const entries = resolveEntries(parsed.entries, stale, byId);
  const plan = stale.some((x) => x.resolution) ? planOf(entries) : first;
  plan.diff.stale_pins = stale;
  plan.diff.notes = [...parsed.notes];
  return { entries, stale, plan };
}
