// The scan job: reads every online server from BattleMetrics, then records the whole scan in
// one synchronous immediate transaction (network I/O before it, never inside): servers, raw
// points, mod diffs, then the closing step (vanished servers, global and community points,
// per-mod usage). Its writes to game_servers run without that table's per-row generation
// triggers, the generation moved once after them (withoutServerTriggers in repository.ts).
// A server whose reported mod list hashes the same as last time skips the mod diff entirely,
// so a steady-state scan of 5,000 servers is two prepared statements per server.
import { serverSearchText } from "./search";
import type { Deps } from "../../deps";
import { newId } from "../../shared/ids";
import { queueDetailScrape } from "../scraper";
import { BattleMetricsClient, BattleMetricsError, reportedModsOf, type LiveServer } from "./battlemetrics";
import { modsHash, reportedModsHash } from "./mods-hash";
import { pollRegisteredServers } from "./a2s-source";
import { PermanentJobError } from "../../jobs/queue";
import { withPageCache } from "../../db/client";
import { recordSourceError, recordSourceOk } from "../../shared/source-status";
import { publishLiveSnapshot, rebuildLiveSnapshot, snapshotWithUsage, type KnownLists, type LiveSnapshot } from "./snapshot";
import { CatalogLookup, liveRepo, withoutServerTriggers, type CatalogMod, type ChangeEntry, type CurrentMod, type ExistingServer, type KnownNames, type ModEntry, type ModEvent, type ModList, type ServerFields } from "./repository";

export interface ScanResult {
  /** Registered servers that answered A2S, and those that did not (marked offline). */
  a2s_answered: number;
  a2s_failed: number;
  pages: number;
  servers: number;
  new_servers: number;
  vanished: number;
  mod_changes: number;
  skipped: number;
  unknown_mods_queued: number;
  requests: number;
}

export function clientFromConfig(deps: Deps): BattleMetricsClient {
  return new BattleMetricsClient({
    baseUrl: deps.config.LOADOUT_BATTLEMETRICS_URL,
    token: deps.config.LOADOUT_BATTLEMETRICS_TOKEN ?? null,
    fetch: deps.fetch,
  });
}

class ScanState {
  seen = new Set<string>();
  nextSid = 0;
  totalPlayers = 0;
  totalQueue = 0;
  servers = 0;
  newServers = 0;
  modChanges = 0;
  skipped = 0;
  pages = 0;
  unknownQueued = new Set<string>();
  bySource = { battlemetrics: 0, a2s: 0 };
  /** The scan's new and changed mod lists (whole) and changelog rows (one per server), written at its end (writeModRows). */
  modLists: ModList[] = [];
  events: ModEvent[] = [];
  /** The sids of the servers this scan inserted with their mod lists (all in modLists). */
  newSids = new Set<number>();
  /** The catalog's rows of the mods this scan met (made inside its transaction; CatalogLookup). */
  catalog: CatalogLookup | null = null;
  constructor(readonly time: number) {}
}

/**
 * Records one page of servers in one transaction: servers, raw points, and the mod diffs of the
 * servers whose list changed (or that are new). Their new mod lists (whole, one row a server) and
 * changelog rows are kept in the state and written once for the whole scan (writeModRows). Returns workshop ids to queue
 * for a scrape.
 */
export function processPage(deps: Pick<Deps, "sqlite">, servers: LiveServer[], state: ScanState): string[] {
  const { sqlite } = deps;
  const time = state.time;
  const unknown: string[] = [];
  sqlite
    .transaction(() => {
      if (state.nextSid === 0) state.nextSid = liveRepo.maxSid(sqlite) + 1;
      const fresh = servers.filter((s) => {
        if (state.seen.has(s.host_address)) {
          // Reported by the list source in this scan already (its data is fuller): only link it.
          if (s.registeredServerId) liveRepo.linkRegisteredByAddress(sqlite, s.host_address, s.registeredServerId);
          return false;
        }
        state.seen.add(s.host_address);
        return true;
      });
      if (fresh.length === 0) return;
      const existing = new Map<string, ExistingServer>();
      for (const e of liveRepo.existingByAddress(sqlite, fresh.map((s) => s.host_address))) existing.set(e.host_address, e);

      // Which servers need a mod diff: new ones from the list source, and those whose reported
      // list hashes otherwise than last time. Their current mods and the catalog's rows of every
      // mod involved are read first, so a new server is inserted with its mod summary at once.
      // A known server's list is first hashed as reported (reportedModsHash): when that is the
      // stored hash, its mods are never normalised (the ~95 % of lists a steady scan finds as they were).
      const hashes = fresh.map((s) => {
        if (s.modsUnknown) return "";
        const stored = existing.get(s.host_address)?.mods_hash;
        const raw = stored === undefined ? undefined : reportedModsOf(s);
        if (raw !== undefined && reportedModsHash(raw) === stored) return stored;
        return modsHash(s.mods);
      });
      const current = new Map<number, Map<string, CurrentMod>>();
      const oldSids: number[] = [];
      const ids = new Set<string>();
      fresh.forEach((s, i) => {
        if (s.modsUnknown) return;
        const e = existing.get(s.host_address);
        if (e && e.mods_hash === hashes[i]) return;
        if (e) oldSids.push(e.sid);
        for (const m of s.mods) ids.add(m.workshop_id);
      });
      // The changed servers' lists as stored, in their order (kept for their first sightings, below).
      const stored = liveRepo.currentLists(sqlite, oldSids);
      for (const [sid, mods] of stored.bySid) {
        const per = new Map<string, CurrentMod>();
        for (const m of mods) {
          per.set(m.workshop_id, m);
          ids.add(m.workshop_id);
        }
        current.set(sid, per);
      }
      // The catalog's rows through the scan's lookup: an id met on an earlier page (or, while the
      // catalog has not changed, in an earlier scan) is not read again (CatalogLookup).
      const catalog = ids.size > 0 ? (state.catalog ??= new CatalogLookup(sqlite)).get(ids) : new Map<string, CatalogMod>();
      const sizeOf = (mods: LiveServer["mods"]) => {
        let size = 0;
        for (const m of mods) size += catalog.get(m.workshop_id)?.size_bytes ?? 0;
        return size;
      };

      const changed: { id: string; sid: number; server: LiveServer; hash: string; isNew: boolean }[] = [];
      const points: [number, number, number, number, number][] = [];
      fresh.forEach((s, i) => {
        const e = existing.get(s.host_address);
        const row: ServerFields = {
          source_id: s.source_id,
          name: s.name,
          ip: s.ip,
          port: s.port,
          country: s.country,
          player_count: s.player_count,
          player_count_limit: s.player_count_limit,
          queue_players_count: s.queue_players_count,
          wait_time_estimation: s.wait_time_estimation,
          scenario_name: s.scenario_name,
          game_version: s.game_version,
          password_protected: s.password_protected ? 1 : 0,
          official: s.official ? 1 : 0,
          tags: `,${s.tags.join(",")},`,
          search_text: serverSearchText(s.name, s.scenario_name),
          now: time,
        };
        const hash = hashes[i]!;
        let id: string;
        let sid: number;
        if (e) {
          id = e.id;
          sid = e.sid;
          const sum = e.players_sum_7d + s.player_count;
          const n = e.samples_7d + 1;
          if (s.modsUnknown) {
            liveRepo.updateServerFromA2s(sqlite, {
              id,
              name: s.name,
              player_count: s.player_count,
              player_count_limit: s.player_count_limit,
              scenario_name: s.scenario_name,
              game_version: s.game_version,
              password_protected: s.password_protected ? 1 : 0,
              players_sum_7d: sum,
              samples_7d: n,
              avg_players_7d: sum / n,
              now: time,
              registered_server_id: s.registeredServerId!,
            });
          } else {
            liveRepo.updateServer(sqlite, row, id, sum, n, sum / n);
            if (e.mods_hash !== hash) changed.push({ id, sid, server: s, hash, isNew: false });
          }
        } else {
          id = newId();
          sid = state.nextSid++;
          // A new server from the list source is inserted with its mod summary (an A2S-only one
          // has none); its mods are all "added" below.
          const listed = !s.modsUnknown;
          liveRepo.insertServer(sqlite, row, {
            id,
            sid,
            source: listed ? "battlemetrics" : "a2s",
            host_address: s.host_address,
            mods_count: listed ? s.mods.length : 0,
            mods_size_bytes: listed ? sizeOf(s.mods) : 0,
            mods_hash: hash,
            players_sum_7d: s.player_count,
            samples_7d: 1,
            avg_players_7d: s.player_count,
          });
          state.newServers++;
          if (s.modsUnknown) liveRepo.setRegisteredServer(sqlite, id, s.registeredServerId!);
          else {
            changed.push({ id, sid, server: s, hash, isNew: true });
            state.newSids.add(sid);
          }
        }
        state.bySource[s.modsUnknown ? "a2s" : "battlemetrics"]++;
        points.push([sid, time, s.player_count, s.queue_players_count, s.wait_time_estimation]);
        state.servers++;
        state.totalPlayers += s.player_count;
        state.totalQueue += s.queue_players_count;
      });
      liveRepo.insertRawPoints(sqlite, points);

      // Mod diffs for servers whose list changed (or that are new).
      const { modLists, events } = state;
      /** Known servers whose stored list this scan rewrites or deletes (writeModRows). */
      const rewritten: number[] = [];
      for (const c of changed) {
        if (c.isNew && firstSighting(c, catalog, state, unknown)) continue;
        const old = current.get(c.sid) ?? new Map<string, CurrentMod>();
        const changes: ChangeEntry[] = [];
        // The server's whole new list (one row: game_server_mod_lists), written when anything in
        // it changed (a mod added, removed, or its name, version or position).
        const entries: ModEntry[] = new Array(c.server.mods.length);
        let dirty = c.isNew;
        c.server.mods.forEach((m, position) => {
          const cat = catalog.get(m.workshop_id);
          const o = old.get(m.workshop_id);
          const name = m.name ?? o?.name ?? cat?.name ?? "";
          // A bare id (no version reported) keeps the version we knew.
          const version = m.version ?? o?.version ?? null;
          entries[position] = [m.workshop_id, name, version, position];
          if (!o) {
            dirty = true;
            changes.push(["added", m.workshop_id, name || (cat?.name ?? ""), null, version, cat?.size_bytes ?? null]);
            state.modChanges++;
            if (!cat) queueUnknown(m.workshop_id, state, unknown);
          } else {
            if (o.version !== version && o.version !== null && version !== null) {
              changes.push(["updated", m.workshop_id, name || (cat?.name ?? ""), o.version, version, cat?.size_bytes ?? null]);
              state.modChanges++;
            }
            if (o.version !== version || o.name !== name || o.position !== position) dirty = true;
            old.delete(m.workshop_id);
          }
        });
        for (const o of old.values()) {
          const cat = catalog.get(o.workshop_id);
          dirty = true;
          changes.push(["removed", o.workshop_id, o.name || (cat?.name ?? ""), o.version, null, cat?.size_bytes ?? null]);
          state.modChanges++;
        }
        if (dirty) {
          modLists.push([c.sid, entries]);
          if (!c.isNew) rewritten.push(c.sid);
        }
        if (changes.length > 0) events.push([c.sid, time, changes]);
        if (!c.isNew) liveRepo.setModSummary(sqlite, c.id, c.server.mods.length, sizeOf(c.server.mods), c.hash);
      }
      // Their first sightings still held by reference, written in full from the lists as stored
      // before writeModRows changes them (what the lists' triggers would do, at a fraction of the cost).
      liveRepo.firstSightingsInFull(sqlite, stored, rewritten);
    })
    .immediate();
  return unknown;
}

/** A workshop id the catalog does not know, queued for a scrape once a scan. */
function queueUnknown(id: string, state: ScanState, unknown: string[]) {
  if (state.unknownQueued.has(id)) return;
  state.unknownQueued.add(id);
  unknown.push(id);
}

/**
 * A new server's first sighting: its whole list, every mod `added`. Held by reference when every
 * entry's changelog name is its list name (the changelog row is the list as written and the
 * catalog's sizes, a7_first_sight_changelog.sql: the changes as JSON were ~15 MB of a first sight's
 * writes), so no change entry is made; returns false, having done nothing, when one is not (a mod
 * reported with an empty name that the catalog names: its change takes the catalog's name), and
 * the diff below writes it in full.
 */
function firstSighting(
  c: { sid: number; server: LiveServer },
  catalog: ReadonlyMap<string, CatalogMod>,
  state: ScanState,
  unknown: string[],
): boolean {
  const mods = c.server.mods;
  const entries: ModEntry[] = new Array(mods.length);
  const sizes: (number | null)[] = new Array(mods.length);
  for (let position = 0; position < mods.length; position++) {
    const m = mods[position]!;
    const cat = catalog.get(m.workshop_id);
    const name = m.name ?? cat?.name ?? "";
    if (name === "" && cat?.name) return false;
    entries[position] = [m.workshop_id, name, m.version ?? null, position];
    sizes[position] = cat?.size_bytes ?? null;
  }
  for (const m of mods) if (!catalog.has(m.workshop_id)) queueUnknown(m.workshop_id, state, unknown);
  state.modChanges += mods.length;
  state.modLists.push([c.sid, entries]);
  if (mods.length > 0) state.events.push([c.sid, state.time, null, mods.length, sizes]);
  return true;
}

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
      liveRepo.insertMods(deps.sqlite, lists, state.newSids);
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
 * Returns how many servers vanished. runScan runs it with processPage's writes, game_servers'
 * per-row generation triggers set aside (withoutServerTriggers).
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
 * Closes a complete scan (closeScan, then scanSnapshot) in one transaction, with the game_servers
 * triggers set aside for its writes as runScan does. Returns the snapshot, to publish once the
 * scan's transaction has committed.
 */
export function finishScan(deps: Pick<Deps, "sqlite" | "clock">, state: ScanState): { vanished: number; snapshot: LiveSnapshot } {
  const { sqlite } = deps;
  let vanished = 0;
  let snapshot!: LiveSnapshot;
  const known = writtenLists(state);
  const names = writtenListsNames(state);
  sqlite
    .transaction(() => {
      vanished = withoutServerTriggers(sqlite, () => closeScan(deps, state));
      snapshot = scanSnapshot(deps, state, known, names);
    })
    .immediate();
  return { vanished, snapshot };
}

/**
 * Queues a detail scrape of each mod the catalog does not know (after the scan committed), all in
 * one transaction: a first sight finds ~3,000 such mods, and a commit each cost ~0.2–0.8 s.
 */
export function queueScrapes(deps: Pick<Deps, "jobs" | "log" | "sqlite" | "db">, ids: string[]) {
  if (ids.length === 0) return;
  deps.sqlite
    .transaction(() => {
      for (const id of ids) {
        try {
          // `db`: inside this transaction (the worker is woken after it, not inside it).
          queueDetailScrape(deps, id, { db: deps.db });
        } catch (err) {
          deps.log.warn("live: could not queue a detail scrape", { workshop_id: id, error: (err as Error).message });
        }
      }
    })
    .immediate();
}

export interface RunScanOptions {
  client?: BattleMetricsClient;
  /** Per registered server (default 2 s). */
  a2sTimeoutMs?: number;
  signal?: AbortSignal;
  progress?: (p: Record<string, unknown>) => void;
}

/** The public API answers 403 to callers without a paid subscription (docs/live.md "The sources as they really are"). */
export const PUBLIC_BATTLEMETRICS_URL = "https://api.battlemetrics.com";

/**
 * Whether this scan asks BattleMetrics: with a token, or at another address (a proxy, a test
 * fake). The public API without a token is known to answer 403, so it is not asked every five
 * minutes; health says why.
 */
export function battleMetricsEnabled(deps: Pick<Deps, "config">): boolean {
  return !!deps.config.LOADOUT_BATTLEMETRICS_TOKEN || deps.config.LOADOUT_BATTLEMETRICS_URL !== PUBLIC_BATTLEMETRICS_URL;
}

export const NO_TOKEN_MESSAGE =
  "not asked: LOADOUT_BATTLEMETRICS_TOKEN is not set, and the BattleMetrics API answers 403 without a paid subscription; registered servers are still polled over A2S";

/** An operator-actionable line for a refused BattleMetrics request. */
export function battleMetricsRefusal(err: BattleMetricsError): string {
  const detail = err.detail ? ` (${err.detail})` : "";
  return `BattleMetrics answered HTTP ${err.status}${detail}: global server discovery needs LOADOUT_BATTLEMETRICS_TOKEN set to a token with a paid subscription; servers and history already stored are kept, registered servers are still polled over A2S`;
}

/**
 * One scan: every BattleMetrics page (when enabled) and an A2S query to each registered server,
 * then one transaction. When BattleMetrics fails, the A2S answers are still recorded, nothing
 * already stored is marked offline but the registered servers that did not answer, and the
 * job fails with the reason.
 */
/**
 * SQLite's page cache during a scan's writes, at least, MiB (withPageCache; the configured size
 * after). It was 64 while a first sight's per-mod index inserts (gone since) needed it; with a
 * first sight's writes now ~15 MB, the default 16 is cheaper (the 64 MiB grown and given back each
 * scan cost a first sight ~13,000 page faults and ~0.25 s: 2,237 → 1,950 ms median of 6
 * alternated runs). An operator's smaller LOADOUT_SQLITE_CACHE_MB still grows to this for the scan.
 */
export const SCAN_PAGE_CACHE_MB = 16;

export async function runScan(deps: Deps, opts: RunScanOptions = {}): Promise<ScanResult> {
  const client = opts.client ?? clientFromConfig(deps);
  const state = new ScanState(deps.clock.now());
  const bmEnabled = opts.client !== undefined || battleMetricsEnabled(deps);
  // All network I/O first; then the whole scan is one transaction, so a scan that fails half
  // way records nothing, and every B-tree page is written to the WAL once per scan rather than
  // once per page (a quarter less CPU than a transaction per page at 5,000 servers).
  const pages: LiveServer[][] = [];
  let bmError: unknown = null;
  const a2s = pollRegisteredServers(deps, { signal: opts.signal, timeoutMs: opts.a2sTimeoutMs });
  if (bmEnabled) {
    try {
      for await (const page of client.pages(opts.signal)) {
        pages.push(page.servers);
        state.pages++;
        state.skipped += page.skipped;
        opts.progress?.({ pages: state.pages, fetched: pages.reduce((n, p) => n + p.length, 0) });
      }
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      bmError = err;
    }
  }
  const poll = await a2s;
  const complete = bmEnabled && bmError === null;
  const unknown: string[] = [];
  let vanished = 0;
  let snapshot: LiveSnapshot | null = null;
  // The page cache grows for the scan's writes and shrinks back after (withPageCache).
  withPageCache(deps.sqlite, SCAN_PAGE_CACHE_MB, () =>
    deps.sqlite
      .transaction(() => {
        let known: KnownLists | null = null;
        let names: KnownNames | null = null;
        // Every write to game_servers without its per-row generation triggers, servers_gen moved
        // once after them (withoutServerTriggers), before the snapshot reads it.
        vanished = withoutServerTriggers(deps.sqlite, () => {
          if (complete) for (const servers of pages) unknown.push(...processPage(deps, servers, state));
          if (poll.answered.length) processPage(deps, poll.answered.map((a) => a.server), state);
          if (complete) {
            known = writtenLists(state);
            names = writtenListsNames(state);
            return closeScan(deps, state);
          }
          writeModRows(deps, state);
          const offline = liveRepo.markRegisteredOffline(deps.sqlite, poll.failed.map((f) => f.target.server_id));
          liveRepo.setState(deps.sqlite, "last_partial_scan_at", state.time);
          return offline;
        });
        if (known && names) snapshot = scanSnapshot(deps, state, known, names);
      })
      .immediate(),
  );
  // The scan is committed: swap in the snapshot of it (GET /game-servers answers from memory).
  if (snapshot) publishLiveSnapshot(deps.sqlite, snapshot);
  else rebuildLiveSnapshot(deps.sqlite, deps.clock.now());
  // The catalog rows it read are kept for the next scan (while the catalog stays as it was).
  state.catalog?.adopt();
  queueScrapes(deps, unknown);
  for (const f of poll.failed) deps.log.warn("live: registered server did not answer A2S", { server_id: f.target.server_id, error: f.error });
  if (poll.answered.length || poll.failed.length) {
    if (poll.answered.length) recordSourceOk(deps.sqlite, "a2s", state.time);
    if (poll.failed.length)
      recordSourceError(deps.sqlite, "a2s", state.time, poll.failed.map((f) => `${f.target.name}: ${f.error}`).join("; "));
  }
  const result: ScanResult = {
    pages: state.pages,
    servers: state.servers,
    new_servers: state.newServers,
    vanished,
    mod_changes: state.modChanges,
    skipped: state.skipped,
    unknown_mods_queued: state.unknownQueued.size,
    requests: client.requestCount,
    a2s_answered: poll.answered.length,
    a2s_failed: poll.failed.length,
  };
  if (!bmEnabled) {
    recordSourceError(deps.sqlite, "live", state.time, NO_TOKEN_MESSAGE);
  } else if (bmError) {
    const refused = bmError instanceof BattleMetricsError && (bmError.status === 401 || bmError.status === 403);
    const message = refused ? battleMetricsRefusal(bmError as BattleMetricsError) : `BattleMetrics scan failed: ${(bmError as Error).message}`;
    recordSourceError(deps.sqlite, "live", state.time, message);
    deps.log.error("live: scan failed", { error: message, a2s_answered: poll.answered.length });
    // A refusal will not mend by retrying in a minute: fail the job now, the next scheduled scan asks again.
    throw refused ? new PermanentJobError(message) : new Error(message);
  } else {
    recordSourceOk(deps.sqlite, "live", state.time);
  }
  deps.log.info("live: scan finished", { ...result });
  return result;
}

export { ScanState };
