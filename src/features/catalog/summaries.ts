// Every catalog entry's summary (the object a GET /mods page lists) serialised once per catalog
// generation and packed (docs/catalog.md "Per-mod answers", src/shared/packed-texts.ts: a few
// objects for the collector to mark): a page joins its 20 texts instead of reading its rows from SQLite.
//
// Kept as a few long strings with each rowid's place (src/shared/packed-texts.ts), ~9 MB for the
// 42,000 entries at full scale before the cards' author, rating, subscribers and last update
// joined them (~100 bytes an entry more by the seed's values: ~13 MB), outside the answer caches' shared budget: as 42,000 strings inside
// it they were ~20 MiB by its count, the other rows' big answers pushed them out and pages then
// cost ~2× (reading their rows), and every collection of the heap marked 42,000 more strings.
//
// Staleness: catalog_state.detail_gen moves on every write to a mods column a summary shows
// (src/db/custom/98_catalog_answers_gen.sql); packed summaries of another generation are never
// used. Packing reads every entry in one read of mods, once per generation and at most once every
// PACK_MS (a crawl writing keeps moving it); in between a page reads its own rows.
import type { Database } from "bun:sqlite";
import { structureModel } from "../../db/read-models";
import { generation } from "../../db/statements";
import { chunkBytes, TextPacker, type PackedTexts } from "../../shared/packed-texts";
import { registerAnswerStore } from "./answers";
import { catalogStatements, type ModSummaryRow } from "./repository";
import type { ModSummary } from "./model";
import { toIsoOrNull } from "../../shared/time";

const parseTags = (json: string): string[] => {
  try {
    const v = JSON.parse(json);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

/** A catalog entry's summary as the API answers it (list pages, the detail's first fields). */
export const summaryOf = (r: ModSummaryRow): ModSummary => ({
  workshop_id: r.workshop_id,
  name: r.name,
  version: r.version,
  size_bytes: r.size_bytes,
  image_url: r.image_url,
  tags: parseTags(r.tags_json),
  author: r.author_name,
  rating: r.rating,
  subscriber_count: r.subscriber_count,
  updated_at: toIsoOrNull(r.updated_at),
});

export const summaryJson = (r: ModSummaryRow) => JSON.stringify(summaryOf(r));

export interface PackedSummaries {
  gen: number;
  /** rowid → the entry's summary as JSON text (null: no catalog entry). */
  texts: PackedTexts;
  entries: number;
  bytes: number;
  buildMs: number;
}

/** Between two packings at least this long passes (pages of a stale generation read their rows). */
export const PACK_MS = 10_000;

function packSummaries(sqlite: Database, gen: number): PackedSummaries {
  const t0 = performance.now();
  return sqlite.transaction(() => {
    const rows = catalogStatements(sqlite).allSummaries.all();
    let max = 0;
    for (const r of rows) if (r.rid > max) max = r.rid;
    const packer = new TextPacker();
    const col = packer.column(max + 1);
    for (const r of rows) col.set(r.rid, summaryJson(r));
    packer.finish();
    const texts = col.build();
    return { gen, texts, entries: rows.length, bytes: chunkBytes(texts.chunks) + texts.arrayBytes, buildMs: performance.now() - t0 };
  })();
}

/** The read model: every entry's summary packed, per detail_gen and connection. */
export const summariesModel = structureModel({
  name: "catalog.summaries",
  tables: ["mods"],
  counter: { table: "catalog_state", key: "detail_gen" },
  rebuildMs: PACK_MS,
  bound: { bytes: 16 * 2 ** 20 },
  build: packSummaries,
  size: (p) => ({ bytes: p.bytes, entries: p.entries }),
});
const packed = summariesModel;

/** The packed summaries of the current generation, packed now if allowed, or null (then pages read their rows). */
export const currentSummaries: (sqlite: Database, now?: number) => PackedSummaries | null = packed.current;

registerAnswerStore({
  cache: "summaries",
  // Parts of pages, not answers: not counted as lookups (the bench's cache-hit rate of a row
  // counts its answers). What is held for the current generation (a stale packing is no answer).
  counts(sqlite) {
    const p = packed.peek(sqlite);
    const gen = p ? generation(sqlite, "catalog_state", "detail_gen") : -1;
    const current = p !== null && p.gen === gen;
    return { hits: 0, misses: 0, entries: current ? p.entries : 0, bytes: p?.bytes ?? 0 };
  },
});

/** The summaries of these rowids as JSON text, in this order (rowids that are no mod left out). */
export function summaryTexts(sqlite: Database, rowids: readonly number[]): string[] {
  if (rowids.length === 0) return [];
  const p = currentSummaries(sqlite);
  const out = new Array<string | null>(rowids.length);
  let missing: number[] | null = null;
  for (let i = 0; i < rowids.length; i++) {
    const s = p ? p.texts.get(rowids[i]!) : null;
    out[i] = s;
    if (s === null) (missing ??= []).push(rowids[i]!);
  }
  if (missing === null) return out as string[];
  // Not packed (a stale generation, or a row that is no catalog entry): read from the rows.
  const got = new Map<number, string>();
  for (const r of catalogStatements(sqlite).summariesOf.all(JSON.stringify(missing))) got.set(r.rid, summaryJson(r));
  const res: string[] = [];
  for (let i = 0; i < rowids.length; i++) {
    const s = out[i] ?? got.get(rowids[i]!);
    if (s !== undefined) res.push(s);
  }
  return res;
}
