// One page of a scan (docs/live.md "Scan"): the servers a page lists, written inside the scan's
// transaction. Known servers are updated and new ones inserted with their mod summary; a raw stat
// point each; and only for servers whose reported mod list hashes otherwise than last time, a diff
// of the list: the new list and its changelog entry are kept in the scan's state and written once
// for the whole scan (scan-close.ts). A server whose list hashes the same skips the diff entirely,
// so a steady scan of 5,000 servers is two prepared statements per server.
import { serverSearchText } from "./search";
import type { Deps } from "../../deps";
import { newId } from "../../shared/ids";
import { reportedModsOf, type LiveServer } from "./battlemetrics";
import { modsHash, reportedModsHash } from "./mods-hash";
import { CatalogLookup, liveRepo, type CatalogMod, type ChangeEntry, type CurrentMod, type ExistingServer, type ModEntry, type ModEvent, type ModList, type ServerFields, type StoredLists } from "./repository";

/** What a scan holds while it writes (its pages, then its close). */
export class ScanState {
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

/** A server of the page that needs a mod diff: new from the list source, or its list hashes otherwise. */
interface Changed {
  id: string;
  sid: number;
  server: LiveServer;
  hash: string;
  isNew: boolean;
}

/**
 * Records one page of servers in the scan's transaction: servers, raw points, and the mod diffs
 * of the servers whose list changed (or that are new). Their new mod lists (whole, one row a
 * server) and changelog rows are kept in the state and written once for the whole scan
 * (writeModRows). Returns workshop ids to queue for a scrape.
 */
export function processPage(deps: Pick<Deps, "sqlite">, servers: LiveServer[], state: ScanState): string[] {
  const { sqlite } = deps;
  const unknown: string[] = [];
  sqlite
    .transaction(() => {
      if (state.nextSid === 0) state.nextSid = liveRepo.maxSid(sqlite) + 1;
      const fresh = firstInScan(sqlite, servers, state);
      if (fresh.length === 0) return;
      const existing = new Map<string, ExistingServer>();
      for (const e of liveRepo.existingByAddress(sqlite, fresh.map((s) => s.host_address))) existing.set(e.host_address, e);
      const hashes = listHashes(fresh, existing);
      const { stored, current, catalog } = readForDiffs(sqlite, fresh, existing, hashes, state);
      const changed = writeServers(sqlite, fresh, existing, hashes, catalog, state);
      diffLists(sqlite, changed, stored, current, catalog, state, unknown);
    })
    .immediate();
  return unknown;
}

/** The page's servers not met earlier in this scan (a server the list source reported already is only linked to its registration). */
function firstInScan(sqlite: Deps["sqlite"], servers: LiveServer[], state: ScanState): LiveServer[] {
  return servers.filter((s) => {
    if (state.seen.has(s.host_address)) {
      // Reported by the list source in this scan already (its data is fuller): only link it.
      if (s.registeredServerId) liveRepo.linkRegisteredByAddress(sqlite, s.host_address, s.registeredServerId);
      return false;
    }
    state.seen.add(s.host_address);
    return true;
  });
}

/**
 * Each server's mod-list hash. A known server's list is first hashed as reported
 * (reportedModsHash): when that is the stored hash, its mods are never normalised (the ~95 % of
 * lists a steady scan finds as they were). An A2S answer whose mods Loadout does not know has none ("").
 */
function listHashes(fresh: LiveServer[], existing: Map<string, ExistingServer>): (string | undefined)[] {
  return fresh.map((s) => {
    if (s.modsUnknown) return "";
    const stored = existing.get(s.host_address)?.mods_hash;
    const raw = stored === undefined ? undefined : reportedModsOf(s);
    if (raw !== undefined && reportedModsHash(raw) === stored) return stored;
    return modsHash(s.mods);
  });
}

/**
 * What the diffs need, read before any write: the changed servers' lists as stored (in their
 * order; kept for their first sightings) and the catalog's rows of every mod involved, through
 * the scan's lookup (an id met on an earlier page, or while the catalog has not changed in an
 * earlier scan, is not read again: CatalogLookup), so a new server is inserted with its mod
 * summary at once.
 */
function readForDiffs(
  sqlite: Deps["sqlite"],
  fresh: LiveServer[],
  existing: Map<string, ExistingServer>,
  hashes: (string | undefined)[],
  state: ScanState,
): { stored: StoredLists; current: Map<number, Map<string, CurrentMod>>; catalog: Map<string, CatalogMod> } {
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
  const stored = liveRepo.currentLists(sqlite, oldSids);
  for (const [sid, mods] of stored.bySid) {
    const per = new Map<string, CurrentMod>();
    for (const m of mods) {
      per.set(m.workshop_id, m);
      ids.add(m.workshop_id);
    }
    current.set(sid, per);
  }
  const catalog = ids.size > 0 ? (state.catalog ??= new CatalogLookup(sqlite)).get(ids) : new Map<string, CatalogMod>();
  return { stored, current, catalog };
}

/** The catalog's size of a list's mods (unknown mods count 0). */
function sizeOf(catalog: Map<string, CatalogMod>, mods: LiveServer["mods"]): number {
  let size = 0;
  for (const m of mods) size += catalog.get(m.workshop_id)?.size_bytes ?? 0;
  return size;
}

/** Every server's row (updated, or inserted with a new id and sid) and its raw point; returns the servers that need a mod diff. */
function writeServers(
  sqlite: Deps["sqlite"],
  fresh: LiveServer[],
  existing: Map<string, ExistingServer>,
  hashes: (string | undefined)[],
  catalog: Map<string, CatalogMod>,
  state: ScanState,
): Changed[] {
  const time = state.time;
  const changed: Changed[] = [];
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
      if (s.registeredServerId) {
        // An A2S answer: what only the list source knows (tags, country, source id) stays.
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
          registered_server_id: s.registeredServerId,
        });
        // Its mods as Loadout deployed them, when it knows them (a2s-source.ts).
        if (!s.modsUnknown && e.mods_hash !== hash) changed.push({ id, sid, server: s, hash, isNew: false });
      } else {
        liveRepo.updateServer(sqlite, row, id, sum, n, sum / n);
        if (e.mods_hash !== hash) changed.push({ id, sid, server: s, hash, isNew: false });
      }
    } else {
      id = newId();
      sid = state.nextSid++;
      // A new server is inserted with its mod summary (an A2S answer whose mods Loadout does
      // not know has none); its mods are all "added" below.
      const listed = !s.modsUnknown;
      liveRepo.insertServer(sqlite, row, {
        id,
        sid,
        source: s.registeredServerId ? "a2s" : "battlemetrics",
        host_address: s.host_address,
        mods_count: listed ? s.mods.length : 0,
        mods_size_bytes: listed ? sizeOf(catalog, s.mods) : 0,
        mods_hash: hash,
        players_sum_7d: s.player_count,
        samples_7d: 1,
        avg_players_7d: s.player_count,
      });
      state.newServers++;
      if (s.registeredServerId) liveRepo.setRegisteredServer(sqlite, id, s.registeredServerId);
      if (listed) {
        changed.push({ id, sid, server: s, hash, isNew: true });
        state.newSids.add(sid);
      }
    }
    state.bySource[s.registeredServerId ? "a2s" : "battlemetrics"]++;
    points.push([sid, time, s.player_count, s.queue_players_count, s.wait_time_estimation]);
    state.servers++;
    state.totalPlayers += s.player_count;
    state.totalQueue += s.queue_players_count;
  });
  liveRepo.insertRawPoints(sqlite, points);
  return changed;
}

/**
 * The mod diffs of the changed servers: each one's whole new list (written when anything in it
 * changed: a mod added, removed, or its name, version or position) and its changes, kept in the
 * state for the scan's close; a new server's first sighting by reference when it can be.
 */
function diffLists(
  sqlite: Deps["sqlite"],
  changed: Changed[],
  stored: StoredLists,
  current: Map<number, Map<string, CurrentMod>>,
  catalog: Map<string, CatalogMod>,
  state: ScanState,
  unknown: string[],
): void {
  const time = state.time;
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
    if (!c.isNew) liveRepo.setModSummary(sqlite, c.id, c.server.mods.length, sizeOf(catalog, c.server.mods), c.hash);
  }
  // Their first sightings still held by reference, written in full from the lists as stored
  // before writeModRows changes them (what the lists' triggers would do, at a fraction of the cost).
  liveRepo.firstSightingsInFull(sqlite, stored, rewritten);
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
