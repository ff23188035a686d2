// Detail scrapes (scrape.detail, scrape.detail_batch): one mod, or a batch read first and written
// in one transaction, and the dependency batches a batch queues for the unknown mods of its mods'
// dependency trees. Network and file I/O happen before the transaction, never inside.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Deps } from "../../deps";
import { PermanentJobError, type JobContext } from "../../jobs/queue";
import { JOB_SCRAPE_DETAIL, JOB_SCRAPE_DETAIL_BATCH } from "./queue";
import { WorkshopNotFoundError, type WorkshopClient } from "./workshop-client";
import { extractItems } from "./items";
import { normaliseDetail, type NormalisedMod } from "./normalise";
import * as repo from "./repository";
import type { ScraperHooks } from "./hooks";
import { permanentIfHopeless, resourcePathSource, workshopClient } from "./workshop";

/** Details a batch has in flight at once (each still waits for its rate-limit slot). */
const BATCH_READ_AHEAD = 16;
/** Mods per dependency batch (`if_unknown`), queued by a detail batch for its unknown dependencies. */
const DEPENDENCY_BATCH = 16;

export interface DetailResult {
  workshop_id: string;
  status: "scraped" | "removed" | "not_found";
  version?: string;
  previous_version?: string | null;
  queued_dependencies?: number;
  item_versions_scanned?: number;
}

/** One mod read from the workshop (network and file I/O done), ready to be stored. */
type FetchedDetail =
  | { kind: "mod"; mod: NormalisedMod; scans: repo.ItemScan[] }
  | { kind: "gone"; workshop_id: string };

/** Whether the data dir has resource path lists at all (a batch asks once, not once a mod). */
const hasPathLists = (deps: Deps) => existsSync(join(deps.config.LOADOUT_DATA_DIR, "resource-paths"));

/**
 * Reads one mod's detail (and its scenarios and item lists when needed): no database writes.
 * `pathLists` false: the caller found no resource path lists folder (no item lists to read).
 */
async function fetchDetail(deps: Deps, workshopId: string, signal?: AbortSignal, pathLists = true): Promise<FetchedDetail> {
  const client = workshopClient(deps);
  let detail: Awaited<ReturnType<WorkshopClient["detail"]>>;
  try {
    detail = await client.detail(workshopId, signal);
  } catch (err) {
    if (err instanceof WorkshopNotFoundError) return { kind: "gone", workshop_id: workshopId };
    throw permanentIfHopeless(deps, err);
  }
  let mod: NormalisedMod;
  try {
    mod = normaliseDetail(detail);
  } catch (err) {
    throw new PermanentJobError(`workshop detail ${workshopId} could not be read: ${(err as Error).message}`);
  }
  // Scenarios are on the detail page; the scenarios route is asked only when they are missing there.
  const current = mod.versions.find((v) => v.version === mod.version);
  if (mod.scenarios.length === 0 && (current?.scenarios_count ?? 0) > 0) {
    try {
      const sc = await client.scenarios(workshopId, signal);
      mod = normaliseDetail({ ...detail, versionDetail: { ...detail.versionDetail, scenarios: sc.scenarios } });
    } catch (err) {
      if (!(err instanceof WorkshopNotFoundError)) throw permanentIfHopeless(deps, err);
    }
  }
  // Items of versions that have a path list and were not scanned yet (file reads, before the transaction).
  const source = resourcePathSource(deps);
  const known = new Set(mod.versions.map((v) => v.version));
  const scans: repo.ItemScan[] = [];
  const versions = pathLists ? await source.versionsFor(mod.workshop_id) : [];
  const scanned = versions.length ? repo.scannedVersions(deps.sqlite, mod.workshop_id) : new Set<string>();
  for (const version of versions) {
    if (!known.has(version) || scanned.has(version)) continue;
    const paths = await source.pathsFor(mod.workshop_id, version);
    if (paths) scans.push({ version, items: extractItems(paths) });
  }
  return { kind: "mod", mod, scans };
}

/**
 * Stores one fetched mod; runs inside the caller's transaction (or savepoint). The mods of its
 * dependency tree the catalog does not know get a detail scrape: their own `scrape.detail` job
 * each, or, when `unknownDeps` is given (a batch), they are added to it and the batch queues
 * them together once all its mods are stored.
 */
function storeDetail(deps: Deps, hooks: ScraperHooks, d: FetchedDetail, now: number, unknownDeps?: Set<string>): DetailResult {
  if (d.kind === "gone") {
    const removed = repo.markRemoved(deps.sqlite, d.workshop_id, now);
    return { workshop_id: d.workshop_id, status: removed ? "removed" : "not_found" };
  }
  const { mod, scans } = d;
  const { previousVersion } = repo.writeMod(deps.sqlite, mod, scans, now);
  if (previousVersion && previousVersion !== mod.version) {
    hooks.onModVersionChanged(deps.db, mod.workshop_id, previousVersion, mod.version);
  }
  const known = repo.knownModIds(deps.sqlite, mod.dependency_tree_ids);
  let queued = 0;
  for (const depId of mod.dependency_tree_ids) {
    if (known.has(depId)) continue;
    if (unknownDeps) unknownDeps.add(depId);
    // if_unknown: skipped when a batch of the same crawl stored the mod in the meantime.
    else deps.jobs.enqueue(JOB_SCRAPE_DETAIL, { workshop_id: depId, if_unknown: true }, { dedupeKey: `scrape:${depId}`, db: deps.db });
    queued++;
  }
  return {
    workshop_id: mod.workshop_id,
    status: "scraped",
    version: mod.version,
    previous_version: previousVersion || null,
    queued_dependencies: queued,
    item_versions_scanned: scans.length,
  };
}

/** Scrapes one mod and stores it (one transaction). Shape changes fail without retries. */
export async function scrapeDetail(deps: Deps, hooks: ScraperHooks, workshopId: string, signal?: AbortSignal): Promise<DetailResult> {
  const d = await fetchDetail(deps, workshopId, signal);
  return deps.sqlite.transaction(() => storeDetail(deps, hooks, d, deps.clock.now())).immediate();
}

export function queueDetailBatch(deps: Deps, ids: string[], ifUnknown = false): string {
  return deps.jobs.enqueue(JOB_SCRAPE_DETAIL_BATCH, ifUnknown ? { workshop_ids: ids, if_unknown: true } : { workshop_ids: ids }, { db: deps.db });
}

/**
 * `fn` in a savepoint of the caller's transaction, released when it returns and rolled back
 * when it throws: what a nested `sqlite.transaction(fn)()` does, from cached statements instead
 * of a transaction function (and its four wrappers) made for every mod.
 */
const inSavepoint = <T>(deps: Deps, fn: () => T): T => repo.inSavepoint(deps.sqlite, "scrape_mod", fn);

/** The dependency batch last queued by this process, which later batches fill up while it waits. */
const openDependencyBatch = new WeakMap<Deps, string>();

/**
 * Queues `ids` (unknown dependencies, each once) for reading in dependency batches of up to 16:
 * first into the room left in the dependency batch this process queued last, while it is still
 * queued (its payload rewritten in the caller's transaction), then in new batches. During a
 * crawl most batches name one or two unknown mods, most of them read by their listing batch by
 * the time the dependency batch runs: filled up, there are a fraction as many jobs, each checking
 * up to 16 mods, instead of one job (a claim and two commits) for every batch that named any.
 */
function queueDependencyBatches(deps: Deps, ids: string[]): void {
  let rest = ids;
  const openId = openDependencyBatch.get(deps);
  if (openId) {
    const row = repo.queuedJobPayload(deps.sqlite, openId);
    const held: string[] = row ? (JSON.parse(row.payload).workshop_ids ?? []) : [];
    if (row && held.length < DEPENDENCY_BATCH) {
      const have = new Set(held);
      const fresh = rest.filter((id) => !have.has(id));
      const add = fresh.slice(0, DEPENDENCY_BATCH - held.length);
      if (add.length) {
        repo.setQueuedJobPayload(deps.sqlite, openId, JSON.stringify({ workshop_ids: [...held, ...add], if_unknown: true }));
      }
      rest = fresh.slice(add.length);
    } else if (row) rest = rest.filter((id) => !held.includes(id));
  }
  for (let i = 0; i < rest.length; i += DEPENDENCY_BATCH) {
    openDependencyBatch.set(deps, queueDetailBatch(deps, rest.slice(i, i + DEPENDENCY_BATCH), true));
  }
}

export interface BatchResult {
  scraped: number;
  removed: number;
  not_found: number;
  /** Mods that failed here and were handed to their own scrape.detail job. */
  deferred: { workshop_id: string; error: string }[];
  /** Mods a dependency scrape stored after the batch was queued: not read again. */
  already_scraped?: number;
  /** A dependency batch (`if_unknown`): its mods the catalog knew by the time it ran, not read. */
  already_known?: number;
  /** Unknown mods of the stored mods' dependency trees, queued as dependency batches. */
  queued_dependencies?: number;
}

/**
 * Scrapes the mods of a batch: every detail is read first (network I/O, no transaction open),
 * then all of them are written in one transaction (writeBatch: a savepoint a mod only once one
 * failed), so a mod that fails to store rolls back alone and never leaves half a mod. One commit
 * a batch instead of one a mod: a commit writes every B-tree page the mod touched (mods, its sort indexes, FTS5's new
 * segment, versions, tags) to the WAL, and consecutive mods share most of those pages.
 * A mod that fails gets its own scrape.detail job (retries, a clear error). Mods stored after
 * `queuedAt` (a dependency scrape of the same crawl reached them first) are not read again, nor,
 * in a dependency batch (`ifUnknown`), mods the catalog knows by now. The unknown mods of the
 * stored mods' dependency trees are queued as dependency batches of up to 16 in the same
 * transaction (once each, leaving out those the batch itself stored), instead of a job each.
 */
export async function scrapeDetailBatch(
  deps: Deps,
  hooks: ScraperHooks,
  ids: string[],
  ctx?: Pick<JobContext, "progress" | "signal">,
  queuedAt?: number,
  ifUnknown = false,
): Promise<BatchResult> {
  const out: BatchResult = { scraped: 0, removed: 0, not_found: 0, deferred: [] };
  const fresh = queuedAt === undefined ? new Set<string>() : repo.scrapedSince(deps.sqlite, ids, queuedAt);
  const known = ifUnknown ? repo.knownModIds(deps.sqlite, ids) : new Set<string>();
  const defer = (id: string, err: unknown) => {
    out.deferred.push({ workshop_id: id, error: (err as Error).message });
    deps.jobs.enqueue(JOB_SCRAPE_DETAIL, { workshop_id: id }, { dedupeKey: `scrape:${id}` });
  };
  const todo: string[] = [];
  for (const id of ids) {
    if (fresh.has(id)) out.already_scraped = (out.already_scraped ?? 0) + 1;
    else if (known.has(id)) out.already_known = (out.already_known ?? 0) + 1;
    else todo.push(id);
  }
  // Up to BATCH_READ_AHEAD details in flight (the client's rate limit still spaces them), read
  // back in the batch's order: the replies of a rate-limit window are taken in one wake.
  const pathLists = hasPathLists(deps);
  const results: ({ ok: FetchedDetail } | { err: unknown })[] = new Array(todo.length);
  let next = 0;
  const reader = async () => {
    while (next < todo.length && !ctx?.signal.aborted) {
      const i = next++;
      try {
        results[i] = { ok: await fetchDetail(deps, todo[i]!, ctx?.signal, pathLists) };
      } catch (err) {
        results[i] = { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_READ_AHEAD, todo.length) }, reader));
  if (ctx?.signal.aborted) throw ctx.signal.reason ?? new Error("aborted");
  const fetched: FetchedDetail[] = [];
  results.forEach((r, i) => ("ok" in r ? fetched.push(r.ok) : defer(todo[i]!, r.err)));
  const now = deps.clock.now();
  // Every mod in one transaction. First without a savepoint per mod: a savepoint makes FTS5 flush
  // its pending rows into a new segment of their own (and merge them later), ~50 µs a mod
  // (docs/performance.md, "The crawl's CPU"). Should any mod fail to store, that attempt is rolled
  // back whole and the batch is written again with a savepoint a mod, so the failing one rolls
  // back alone (its dependencies with it: they are added only once it is stored), as before.
  const failed = writeBatch(deps, hooks, fetched, now, false, out) ?? writeBatch(deps, hooks, fetched, now, true, out)!;
  for (const [id, err] of failed) defer(id, err);
  return out;
}

/** Thrown inside a batch's first attempt when a mod fails: rolls the attempt back whole. */
class ModFailed extends Error {}

/**
 * Writes a batch's fetched mods in one `IMMEDIATE` transaction, with their dependency batches, and
 * adds what it stored to `out`. `savepoints`: each mod in its own savepoint, and a mod that fails
 * is returned (with its error) instead of failing the others; without, the first mod that fails
 * rolls back everything this call wrote and it returns null.
 */
function writeBatch(
  deps: Deps,
  hooks: ScraperHooks,
  fetched: FetchedDetail[],
  now: number,
  savepoints: boolean,
  out: BatchResult,
): [string, unknown][] | null {
  const failed: [string, unknown][] = [];
  const stored = { scraped: 0, removed: 0, not_found: 0 };
  let queuedDependencies = 0;
  try {
    deps.sqlite
      .transaction(() => {
        const unknownDeps = new Set<string>();
        for (const d of fetched) {
          const mine = new Set<string>();
          let r: DetailResult;
          if (savepoints) {
            try {
              r = inSavepoint(deps, () => storeDetail(deps, hooks, d, now, mine));
            } catch (err) {
              failed.push([d.kind === "mod" ? d.mod.workshop_id : d.workshop_id, err]);
              continue;
            }
          } else {
            try {
              r = storeDetail(deps, hooks, d, now, mine);
            } catch (err) {
              throw new ModFailed("a mod of the batch failed to store", { cause: err });
            }
          }
          for (const id of mine) unknownDeps.add(id);
          stored[r.status]++;
        }
        if (unknownDeps.size) {
          // Mods this batch stored after the one that named them are known by now; those that
          // failed here get their own scrape.detail job (retried alone) afterwards.
          const known = repo.knownModIds(deps.sqlite, [...unknownDeps]);
          const ownJob = new Set([...out.deferred.map((x) => x.workshop_id), ...failed.map(([id]) => id)]);
          const toQueue = [...unknownDeps].filter((id) => !known.has(id) && !ownJob.has(id));
          queueDependencyBatches(deps, toQueue);
          queuedDependencies = toQueue.length;
        }
      })
      .immediate();
  } catch (err) {
    if (err instanceof ModFailed) return null;
    throw err;
  }
  out.scraped += stored.scraped;
  out.removed += stored.removed;
  out.not_found += stored.not_found;
  if (queuedDependencies) out.queued_dependencies = queuedDependencies;
  return failed;
}

