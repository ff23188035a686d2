// The catalog's rows a scan meets (names and sizes), read once per scan and kept between scans
// while the catalog stands: a read model (docs/architecture.md "Derived reads").
import type { Database } from "bun:sqlite";
import { generation, stmt } from "../../../db/statements";
import { defineReadModel, readModelsOf } from "../../../db/read-models";

export interface CatalogMod {
  workshop_id: string;
  name: string;
  size_bytes: number;
}

/**
 * The catalog's name and size of the workshop ids a scan meets (its mod diffs' sizes and names,
 * the usage's names), read through one lookup per scan and kept per connection between scans for
 * one live_state.catalog_gen: every write to what it holds (a mod added or deleted, a change of its
 * workshop id, name or size; any code path or process) moves that generation
 * (97_live_detail_gen.sql, 99_crawl_cost.sql), and a lookup of another generation starts empty.
 * Each scan read ~11,000 catalog rows by primary key for the usage's names (and a first sight
 * ~100,000 more for its pages' mods), pages of the 40 MB table mostly not in the page cache:
 * ~50-100 ms of a steady scan. What a lookup reads inside
 * a transaction joins the connection's cache only when the caller says its transaction committed
 * (adopt) and the generation is still the one read, so a rolled-back write to the catalog can
 * never leave its rows behind under a generation a later write takes again.
 */
/** At most this many ids are kept (a catalog of 42,000 mods and the ids it does not know: a full set starts again). */
const MAX_KEPT = 100_000;

interface Kept {
  gen: number;
  mods: Map<string, CatalogMod | null>;
}

/** The read model: the rows kept between scans, of one catalog_gen, per connection. */
export const catalogRowsModel = defineReadModel({
  name: "live.catalog-rows",
  tables: ["mods"],
  generations: ["live_state.catalog_gen"],
  bound: { entries: MAX_KEPT },
  create: (): Kept => ({ gen: -1, mods: new Map() }),
  // A key and a row with two strings: ~200 bytes.
  size: (k: Kept) => ({ bytes: k.mods.size * 200, entries: k.mods.size }),
});

export class CatalogLookup {
  /** Per workshop id: its catalog row, or null when the catalog has none. */
  private readonly fresh = new Map<string, CatalogMod | null>();
  private readonly base: Map<string, CatalogMod | null> | null;
  private readonly gen: number;
  constructor(private readonly sqlite: Database) {
    this.gen = generation(sqlite, "live_state", "catalog_gen");
    const kept = readModelsOf(sqlite).of(catalogRowsModel);
    this.base = kept.gen === this.gen ? kept.mods : null;
  }

  /** The catalog's rows of `ids` (those it has), by workshop id. */
  get(ids: Iterable<string>): Map<string, CatalogMod> {
    const out = new Map<string, CatalogMod>();
    const read: string[] = [];
    for (const id of ids) {
      const m = this.base?.get(id) ?? this.fresh.get(id);
      if (m) out.set(id, m);
      else if (m === undefined && !this.base?.has(id)) read.push(id);
    }
    if (read.length > 0) {
      const rows = stmt(
        this.sqlite,
        `SELECT workshop_id, name, size_bytes FROM mods WHERE workshop_id IN (SELECT value FROM json_each(?))`,
      ).all(JSON.stringify(read)) as CatalogMod[];
      for (const id of read) this.fresh.set(id, null);
      for (const m of rows) {
        this.fresh.set(m.workshop_id, m);
        out.set(m.workshop_id, m);
      }
    }
    return out;
  }

  /** After the caller's transaction committed: what this lookup read is kept for the next one. */
  adopt(): void {
    if (this.sqlite.inTransaction || generation(this.sqlite, "live_state", "catalog_gen") !== this.gen) return;
    const kept = readModelsOf(this.sqlite).of(catalogRowsModel);
    if (kept.gen !== this.gen || kept.mods.size + this.fresh.size > MAX_KEPT) {
      kept.gen = this.gen;
      kept.mods = new Map();
    }
    for (const [id, m] of this.fresh) kept.mods.set(id, m);
  }
}
