// The server detail's read model (docs/architecture.md "Derived reads"): per connection, the
// variant table, the catalog's parts of the current catalog generation (parts.ts) and where the
// idle warm is (warm.ts). What is kept per mod-list version lives with the snapshot's list, and
// whole answers with the snapshot (answer.ts).
import type { Database } from "bun:sqlite";
import { generation } from "../../../db/statements";
import { defineReadModel, readModelsOf } from "../../../db/read-models";
import type { LiveSnapshot } from "../snapshot";
import { BytesLru } from "../../../shared/bytes-lru";
import { SnapshotSlot } from "../snapshot/types";
import { CATALOG_BYTES, MAX_VARIANTS, newVariants, PartStore, type Variants } from "./parts";

export interface DetailState {
  variants: Variants;
  /** The catalog's side of one catalog generation (null: none yet, or the budget gave it up). */
  parts: PartStore | null;
  /** Where the warm is: the snapshot and catalog generation it prepares, and the next row. */
  warm: { s: LiveSnapshot; gen: number; next: number } | null;
  /** The last snapshot a detail was answered or prepared for (the metrics count what is kept with it). */
  snapshot: LiveSnapshot | null;
}

/**
 * A server's mods in position order (variant numbers of `table`, and their positions, null when
 * they are 0, 1, 2, …: the usual case), or `sql`: answered by the SQL path. Kept with the
 * snapshot's list of the version it was read at (ServerModList.detail).
 */
export type ServerMods = { table: Variants; variants: Int32Array; positions: Int32Array | null } | { sql: true };

/** Per snapshot: the catalog generation its kept answers were joined at, and the answers by server id. */
export const answersOf = new SnapshotSlot<{ gen: number; lru: BytesLru<Uint8Array> }>();

/** The read model: variants, parts and the warm's cursor of a connection. */
export const detailModel = defineReadModel({
  name: "live.detail",
  tables: ["game_server_mod_lists", "mods", "mod_items", "mod_item_scans"],
  generations: ["live_state.catalog_gen", "live_state.servers_gen"],
  bound: { bytes: CATALOG_BYTES },
  create: (): DetailState => ({ variants: newVariants(), parts: null, warm: null, snapshot: null }),
  size: (st: DetailState) => {
    const c = statsOf(st, st.snapshot);
    return { bytes: c.bytes + c.modBytes + c.listBytes, entries: c.parts };
  },
  drop: (st: DetailState) => st.parts?.lru.clear(),
});

export const detailState = (sqlite: Database): DetailState => readModelsOf(sqlite).of(detailModel);

/** live_state.catalog_gen (db/statements `generation`: read with servers_gen, once per turn of the event loop). */
export const readCatalogGen = (sqlite: Database) => generation(sqlite, "live_state", "catalog_gen");

/** The connection's variant table (a new one past MAX_VARIANTS, the catalog parts numbered by the old one dropped). */
export function variantTable(sqlite: Database): Variants {
  const st = detailState(sqlite);
  if (st.variants.keys.length > MAX_VARIANTS) {
    // Rendered variants are held by number: numbers of another table mean other variants.
    st.parts?.lru.clear();
    st.parts = null;
    st.variants = newVariants();
  }
  return st.variants;
}

/** The parts of generation `gen` (a new store when the budget gave the last one up, or another generation's). */
export function catalogCache(sqlite: Database, gen: number): PartStore {
  const st = detailState(sqlite);
  let c = st.parts;
  if (!c || c.gen !== gen || !c.lru.get("parts")) {
    // Another generation's store leaves the budget now, not when it is collected.
    c?.lru.clear();
    st.parts = c = new PartStore(gen);
  }
  return c;
}

/**
 * What the detail caches hold (for the metrics): answers of the snapshot `s`, the catalog's mods
 * with their items and variants, and the servers' mod lists of `s` read so far.
 */
export function detailCacheStats(sqlite: Database, s: LiveSnapshot | null): DetailStats {
  const st = readModelsOf(sqlite).peek(detailModel);
  return st ? statsOf(st, s) : { servers: 0, bytes: 0, mods: 0, modBytes: 0, parts: 0, lists: 0, listBytes: 0 };
}

type DetailStats = { servers: number; bytes: number; mods: number; modBytes: number; parts: number; lists: number; listBytes: number };

function statsOf(st: DetailState, s: LiveSnapshot | null): DetailStats {
  const a = s ? answersOf.peek(s) : undefined;
  let lists = 0;
  let listBytes = 0;
  if (s) {
    for (const l of s.modLists.values()) {
      const m = l.detail as ServerMods | undefined;
      if (!m) continue;
      lists++;
      listBytes += "sql" in m ? 32 : m.variants.byteLength + (m.positions?.byteLength ?? 0) + 160;
    }
  }
  // The variant table: each key (2 bytes a character at most) and its place in the map and array.
  for (const k of st.variants.keys) listBytes += 2 * k.length + 80;
  const held = st.parts?.kept ? st.parts : undefined;
  return { servers: a?.lru.size ?? 0, bytes: a?.lru.bytes ?? 0, mods: held?.mods.size ?? 0, modBytes: held?.bytes ?? 0, parts: held?.parts ?? 0, lists, listBytes };
}
