// The live snapshot's shape (docs/live.md "The live list from memory"), and what is derived
// from one snapshot on first use: held by the snapshot itself (its `derived` slots, SnapshotSlot)
// and dropped with it when the next snapshot replaces it.
import type { ListQuery } from "../model";
import type { ServerRow } from "../repository/servers";
import type { ServerBaseRow } from "../entry";
import type { TopMod } from "../repository/usage";

export type Row = ServerRow & { search_text: string };

export type { TopMod };

/**
 * A server's mod list as a snapshot holds it (every server seen within the window): the same
 * object from one snapshot to the next while its mod-list version stays (mod-index.ts), so what
 * the server detail derives from a list is kept with the list (detail/).
 */
export interface ServerModList {
  /** The server's id (guards a sid taken again by another server). */
  readonly id: string;
  /** Its mod-list version (game_server_mods_ver: moved by every write to its list; null: no mod rows). */
  readonly ver: number | null;
  /** The numbers of its mods' ids (the mod index's numbering), in the list's order. */
  readonly nums: Int32Array;
  /** What the server detail derived from this list (detail/answer.ts), kept with it. */
  detail?: unknown;
}

export interface LiveSnapshot {
  /** live_state.servers_gen when it was read. */
  gen: number;
  /** id → index into rows. */
  byId: ReadonlyMap<string, number>;
  /** live_mod_usage's top 10, as GET /stats/top-mods answers it. */
  topMods: readonly TopMod[];
  /** When it was built (epoch ms; for the metrics and the docs). */
  builtAt: number;
  buildMs: number;
  rows: readonly Row[];
  /** Tags as stored (`,a,b,`), ASCII-lower-cased as SQLite's LIKE compares them. */
  tags: readonly string[];
  order: Readonly<Record<ListQuery["sort_by"], Int32Array>>;
  /** workshop id → indexes (into rows) of the servers running it. */
  byMod: ReadonlyMap<string, Int32Array>;
  /**
   * Every row's entry as UTF-8 JSON, serialised once, in one buffer (row i is entryAt[i] to
   * entryAt[i + 1]): GET /game-servers copies a page's entries from it. One object for the
   * collector to mark, where a string (and its bytes) a row were 10,000.
   */
  entryBytes: Buffer;
  entryAt: Int32Array;
  /** Rows seen at or after this time (the build time minus the online window) are held. */
  cut: number;
  /**
   * Mod usage (GET /mods/:id/servers, the usage numbers of /mods/:id/stats and its metrics):
   * every server seen within the window, online or not (a server the last scan missed still
   * counts until its last sighting is an hour old), in that endpoint's order (players, name
   * NOCASE, id, as SQLite orders them); for each, its last sighting, players and row (an online
   * one's is its row in `rows`), whose answer JSON is made on first use (usageJson).
   */
  usage: {
    seen: Float64Array;
    players: Int32Array;
    rows: readonly ServerBaseRow[];
    /** workshop id → positions (ascending) of the servers running it. */
    byMod: ReadonlyMap<string, Int32Array>;
  };
  /** sid → the server's mod list as this snapshot read it (every server seen within the window). */
  modLists: ReadonlyMap<number, ServerModList>;
  /** Approximate bytes held (rows, entries, JSON, orders, mod index). */
  bytes: number;
  /** What is derived from this snapshot on first use, by slot (SnapshotSlot); not frozen. */
  readonly derived: unknown[];
}

let slots = 0;

/**
 * A value derived from one snapshot on first use (an index, a page cache, a memo): held in the
 * snapshot's own `derived` array, so it lives exactly as long as the snapshot.
 */
export class SnapshotSlot<T> {
  private readonly at = slots++;
  /** The value of this snapshot, made now on first use. */
  of(s: LiveSnapshot, make: () => T): T {
    let v = s.derived[this.at] as T | undefined;
    if (v === undefined) s.derived[this.at] = v = make();
    return v;
  }
  /** The value if it was made. */
  peek(s: LiveSnapshot): T | undefined {
    return s.derived[this.at] as T | undefined;
  }
}

/** ASCII letters lower-cased, as SQLite's LIKE and NOCASE fold them. */
export const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
