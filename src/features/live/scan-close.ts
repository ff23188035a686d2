// Closing a scan (docs/live.md "Scan"): its mod lists and changelog rows written once for the
// whole scan, the vanished servers, the global and community points, then (still inside the
// scan's transaction) the snapshot of the scan with the mod usage counted from it.
import type { Deps } from "../../deps";
import { snapshotWithUsage, type KnownLists, type LiveSnapshot } from "./snapshot";
import { CatalogLookup, liveRepo, withBulkWrite, type KnownNames } from "./repository";
import type { ScanState } from "./scan-page";

/**
 * Writes the scan's new and changed mod lists (one game_server_mod_lists row a server: a first
 * sight's ~5,000 rows instead of ~200,000 per-mod rows, docs/performance.md "The scan") and
 * changelog rows, once for the whole scan (before anything reads them: the usage refresh), in the
 * order found: new servers' sids are ascending, so the lists' primary key takes them as appends,
 * and the changelog's rows (one per server, its changes in one JSON array) keep the changelog's
 * order.
 */
export function writeModRows(deps: Pick<Deps, "sqlite">, state: ScanState): void {
  const lists = state.modLists;
  const events = state.events;
  state.modLists = [];
  state.events = [];
  if (lists.length === 0 && events.length === 0) return;
  deps.sqlite
    .transaction(() => {
      liveRepo.insertMods(deps.sqlite, lists);
      liveRepo.insertEvents(deps.sqlite, events);
    })
    .immediate();
}

/**
 * The mod lists this scan writes, new servers' and changed ones' (before writeModRows takes the
 * rows): the snapshot of the scan takes them instead of reading them back (~5,000 lists on a
 * first sight, ~250 in a scan where 5 % changed).
 */
export function writtenLists(state: ScanState): KnownLists {
  const known: KnownLists = new Map();
  for (const [sid, entries] of state.modLists) {
    if (entries.length === 0) continue;
    const list: string[] = new Array(entries.length);
    for (let k = 0; k < entries.length; k++) list[k] = entries[k]![0];
    known.set(sid, list);
  }
  return known;
}

/**
 * The smallest sid with a named row per mod among the lists this scan writes (new servers' and
 * changed ones', before writeModRows takes them), and their sids: refreshModNames takes them
 * instead of reading those lists back through the view (a first sight's ~200,000 rows; a
 * scan's ~250 changed lists, ~10 ms).
 */
export function writtenListsNames(state: ScanState): KnownNames {
  const first = new Map<string, number>();
  const sids = new Set<number>();
  for (const [sid, entries] of state.modLists) {
    sids.add(sid);
    for (const [id, name] of entries) {
      if (name === "") continue;
      const at = first.get(id);
      if (at === undefined || sid < at) first.set(id, sid);
    }
  }
  return { sids, first };
}

/**
 * Closes a complete scan's writes: its mod rows, vanished servers, global and community points.
 * Returns how many servers vanished. runScan runs it with processPage's writes as one bulk write
 * (withBulkWrite: the per-row generation triggers skip, the counters move once after).
 */
export function closeScan(deps: Pick<Deps, "sqlite">, state: ScanState): number {
  const { sqlite } = deps;
  writeModRows(deps, state);
  const vanished = liveRepo.markVanished(sqlite, state.time);
  liveRepo.insertGlobalRaw(sqlite, state.time, state.totalPlayers, state.totalQueue, state.servers);
  liveRepo.insertCommunityRaw(sqlite, state.time);
  liveRepo.setState(sqlite, "last_scan_at", state.time);
  return vanished;
}

/**
 * After closeScan, in the same transaction: the names the usage takes from the mod rows
 * (refreshModNames, from the new servers' rows as this scan held them: `names`), then the
 * snapshot of the scan and the per-mod usage counted from it (snapshotWithUsage, with the new
 * servers' lists: `known`). Returns the snapshot, to publish once the transaction has committed.
 */
export function scanSnapshot(deps: Pick<Deps, "sqlite" | "clock">, state: ScanState, known: KnownLists, names: KnownNames): LiveSnapshot {
  // The usage's names from the rows as written (writeModUsage's own refresh then finds it done).
  liveRepo.refreshModNames(deps.sqlite, names);
  return snapshotWithUsage(deps.sqlite, state.time, deps.clock.now(), known, (state.catalog ??= new CatalogLookup(deps.sqlite)));
}

/**
 * Closes a complete scan (closeScan, then scanSnapshot) in one transaction, its writes a bulk
 * write as runScan's. Returns the snapshot, to publish once the scan's transaction has committed.
 */
export function finishScan(deps: Pick<Deps, "sqlite" | "clock">, state: ScanState): { vanished: number; snapshot: LiveSnapshot } {
  const { sqlite } = deps;
  let vanished = 0;
  let snapshot!: LiveSnapshot;
  const known = writtenLists(state);
  const names = writtenListsNames(state);
  sqlite
    .transaction(() => {
      vanished = withBulkWrite(sqlite, "scan", () => closeScan(deps, state));
      snapshot = scanSnapshot(deps, state, known, names);
    })
    .immediate();
  return { vanished, snapshot };
}

