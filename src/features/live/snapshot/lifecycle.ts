// The live snapshot as a read model (docs/architecture.md "Derived reads"; docs/live.md "The
// live list from memory"): an immutable snapshot of the online servers, built from SQLite after
// each scan commits (and after the roll-ups or a community assignment change what it holds), and
// swapped in with one assignment: a reader has the old snapshot or the new one, never half a scan.
// GET /game-servers answers every filter, sort and page from it, /game-servers/:id (an online
// server's row) and /stats/top-* read it too; SQLite stays the truth (`listServersSql`,
// `topServersSql`, `topModsSql` in test/truth/live-sql.ts answer the same, for tests).
//
// Staleness cannot be forgotten by a writer: every write to game_servers, a server's mod list or
// live_mod_usage (any code path, any process, a deleted community's ON DELETE SET NULL, a test's
// raw SQL) moves live_state.servers_gen through triggers, and a scan's own writes move it once at
// their end; a reader whose snapshot is of another generation builds a new one (one read of the
// counters a turn of the event loop to find out). The model's state on a connection is the
// current snapshot and the mod-list cache its builds number the lists with (mod-index.ts).
import type { Database } from "bun:sqlite";
import { defineReadModel, readModelsOf } from "../../../db/read-models";
import { ONLINE_WINDOW } from "../entry";
import { HOUR } from "../windows";
import type { CatalogLookup } from "../repository/catalog-lookup";
import { TOP_MODS, topOfUsage, usageRepo } from "../repository/usage";
import { buildOnto, readGen } from "./build";
import { adoptModLists, type KnownLists, type ModListCache } from "./mod-index";
import { searchIndexBytes } from "./pages";
import type { LiveSnapshot } from "./types";
import { modUsageOf } from "./usage";

interface SnapshotState {
  current: LiveSnapshot | null;
  lists: ModListCache | null;
}

/** The read model: the current snapshot and the mod-list cache, per connection. */
export const snapshotModel = defineReadModel({
  name: "live.snapshot",
  tables: ["game_servers", "game_server_mod_lists", "live_mod_usage"],
  generations: ["live_state.servers_gen"],
  // ~13-16 MB at 5,000 online servers of ~40 mods (docs/live.md "What it holds"), with its indexes.
  bound: { bytes: 100 * 2 ** 20 },
  create: (): SnapshotState => ({ current: null, lists: null }),
  size: (st: SnapshotState) => ({ bytes: st.current ? st.current.bytes + searchIndexBytes(st.current) : 0, entries: st.current?.rows.length ?? 0 }),
});

const stateOf = (sqlite: Database): SnapshotState => readModelsOf(sqlite).of(snapshotModel);

/** Builds a snapshot as of `now` with the connection's mod-list cache (not published: see publishLiveSnapshot). */
export function buildSnapshot(sqlite: Database, now: number, known?: KnownLists): LiveSnapshot {
  return buildOnto(sqlite, stateOf(sqlite), now, known);
}

/** The current snapshot, built on first use and whenever SQLite moved on since it was read. */
export function liveSnapshot(sqlite: Database, now: number): LiveSnapshot {
  const st = stateOf(sqlite);
  let s = st.current;
  // Another generation, or a clock set back before what the snapshot holds: build anew.
  if (!s || s.gen !== readGen(sqlite) || now - ONLINE_WINDOW < s.cut) {
    s = buildOnto(sqlite, st, now);
    publish(st, s);
  }
  return s;
}

function publish(st: SnapshotState, s: LiveSnapshot): void {
  st.current = s;
  adoptModLists(st, s.modLists);
}

/** The snapshot last built (for the metrics), whatever its generation; null before the first. */
export function peekLiveSnapshot(sqlite: Database): LiveSnapshot | null {
  return readModelsOf(sqlite).peek(snapshotModel)?.current ?? null;
}

/** Drops the snapshot: the next read builds one from SQLite (after any write to the live tables). */
export function invalidateLiveSnapshot(sqlite: Database): void {
  stateOf(sqlite).current = null;
}

/** Builds a new snapshot and swaps it in (one assignment). */
export function rebuildLiveSnapshot(sqlite: Database, now: number): LiveSnapshot {
  const st = stateOf(sqlite);
  const s = buildOnto(sqlite, st, now);
  publish(st, s);
  return s;
}

/** Swaps in a snapshot built inside a writer's transaction (snapshotWithUsage), once it has committed. */
export function publishLiveSnapshot(sqlite: Database, s: LiveSnapshot): void {
  publish(stateOf(sqlite), s);
}

/**
 * For a scan, inside its transaction after its writes (this connection reads them): builds the
 * snapshot of the scan and counts every mod's usage from it — servers seen in the hour before
 * `usageAt` running each mod, and their players, the same count `usageRepo.refreshModUsage` makes
 * from SQLite — so the ~400,000 (server, mod) pairs are read once, and writes the top of it
 * (live_mod_usage: GET /stats/top-mods; every other mod's numbers are read from the snapshot). Its
 * generation and top mods are read after that last write, so it is exactly the state the commit
 * makes; publish it (publishLiveSnapshot) once the transaction has committed.
 */
export function snapshotWithUsage(sqlite: Database, usageAt: number, builtAt: number, known?: KnownLists, catalog?: CatalogLookup): LiveSnapshot {
  if (!sqlite.inTransaction) throw new Error("snapshotWithUsage outside the writer's transaction");
  // Built as of the scan's time: it holds every server seen since usageAt - ONLINE_WINDOW (a
  // reader later asks for a later window, a part of it).
  const s = buildOnto(sqlite, stateOf(sqlite), usageAt, known);
  const since = usageAt - HOUR;
  // The build holds every server seen at or after its cut, usageAt - ONLINE_WINDOW, the usage's
  // hour (entry.ts): a mod's servers are its positions, and only the top's players are counted
  // (live_mod_usage keeps the top; a request counts any other mod's, modUsageOf).
  const counts: [string, number][] = [];
  for (const [mod, at] of s.usage.byMod) counts.push([mod, at.length]);
  const usage = topOfUsage(counts, TOP_MODS).map(([mod]): [string, number, number] => {
    const u = modUsageOf(s, mod, since);
    return [mod, u.servers, u.players];
  });
  usageRepo.writeModUsage(sqlite, usageAt, usage, catalog);
  return Object.freeze({ ...s, gen: readGen(sqlite), topMods: Object.freeze(usageRepo.topMods(sqlite)), builtAt });
}
