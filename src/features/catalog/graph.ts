// The catalog's dependency graph in memory (docs/catalog.md "The dependency graph in memory").
// GET /mods/:id/deps walked the transitive closure with a recursive SQL query (~100–400 µs for a
// mod of 42,000 on a busy machine: a random B-tree probe per node and its edges), the detail read
// the direct dependencies with a join, and /mods/:id/stats counted edges both ways; here each is a
// walk over typed arrays. Every catalog entry is a node (so "is it a catalog entry" needs no SQL
// either), and so is every mod an edge starts or ends at.
//
// Exactness: the rows it gives are the rows the SQL path reads (repository.ts getDependencyClosure,
// getDirectDependencies, getDependencyCounts): the closure in the order SQLite's recursive query emits it (breadth first from the
// root, each node's edges in the primary key's order, depends_on_id, a node emitted when first
// reached), each node's edges in rowid order as json_group_array gives them, the same values
// (mods.name/version/size_bytes of catalog entries, null for other nodes). The service turns them
// into answers with the same code whichever path read them.
//
// Staleness: catalog_state.detail_gen moves on every write to mods (but listed_at) and
// mod_dependencies (src/db/custom/98_catalog_answers_gen.sql); a graph of another generation is
// never used. Building reads every catalog entry's id, name, version and size and every edge
// (~42,000 + ~41,000 rows at full scale), so a stale graph is rebuilt on a read at most once every
// REBUILD_MS; in between (a crawl writing) SQL answers.
import type { Database } from "bun:sqlite";
import { structureModel } from "../../db/read-models";
import { binaryCompare } from "../../shared/binary-order";
import { graphSource, type DirectDependencyRow, type GraphNodeRow } from "./repository";
import { chunkBytes, PackedTextIndex, TextPacker, type PackedTexts } from "../../shared/packed-texts";

export type { DirectDependencyRow, GraphNodeRow } from "./repository";

export interface DepGraph {
  gen: number;
  builtAt: number;
  buildMs: number;
  /** Nodes, catalog entries among them, edges. */
  nodes: number;
  entries: number;
  edges: number;
  /**
   * The graph's texts packed (src/shared/packed-texts.ts): a few long strings and typed arrays
   * instead of ~210,000 strings at full scale, which every collection of the heap had to mark.
   * Node n's workshop id; a catalog entry's name and version (null for other nodes).
   */
  ids: PackedTexts;
  name: PackedTexts;
  version: PackedTexts;
  /** workshop_id → node. */
  index: PackedTextIndex;
  /** A catalog entry's size (NaN for other nodes). */
  size: Float64Array;
  /** A catalog entry's rowid in mods (entries only: nodes 0..entries-1; -1: past 32 bits, read by id). */
  rowid: Int32Array;
  /** Edges of node n: e in [start[n], start[n+1]), in rowid order. */
  start: Int32Array;
  to: Int32Array;
  edgeName: PackedTexts;
  edgeVersion: PackedTexts;
  edgeSize: Float64Array;
  /** The same edges of each node in the primary key's order, depends_on_id (positions e). */
  byKey: Int32Array;
  /** Edges ending at node n (rows of mod_dependencies whose depends_on_id is its id). */
  dependents: Int32Array;
  /** Per walk: node n reached when mark[n] === stamp (no allocation per request). */
  mark: Int32Array;
  stamp: number;
  queue: Int32Array;
  bytes: number;
}

/** Between two builds at least this long passes (stale reads in between use SQL). */
export const REBUILD_MS = 10_000;

export function buildDepGraph(sqlite: Database, gen: number): DepGraph {
  const t0 = performance.now();
  return sqlite.transaction(() => {
    const { mods, edges: rows } = graphSource(sqlite);
    // Nodes numbered while building with a Map and an array of ids (both dropped after).
    const numbering = new Map<string, number>();
    const ids: string[] = [];
    const node = (id: string): number => {
      let n = numbering.get(id);
      if (n === undefined) {
        n = ids.length;
        numbering.set(id, n);
        ids.push(id);
      }
      return n;
    };
    for (const m of mods) node(m[0]);
    const entries = ids.length;
    const E = rows.length;
    const from = new Int32Array(E);
    for (let e = 0; e < E; e++) {
      from[e] = node(rows[e]![0]);
      node(rows[e]![1]);
    }
    const N = ids.length;
    // Each node's edges as one run, in rowid order (a stable counting sort of the rowid order).
    const start = new Int32Array(N + 1);
    for (let e = 0; e < E; e++) start[from[e]! + 1]!++;
    for (let n = 0; n < N; n++) start[n + 1]! += start[n]!;
    const fill = start.slice(0, N);
    const to = new Int32Array(E);
    const order = new Int32Array(E);
    const edgeSize = new Float64Array(E);
    const dependents = new Int32Array(N);
    for (let i = 0; i < E; i++) {
      const e = fill[from[i]!]!++;
      const t = numbering.get(rows[i]![1])!;
      to[e] = t;
      order[e] = i;
      dependents[t]!++;
      edgeSize[e] = rows[i]![4];
    }
    // The same runs in the primary key's order (depends_on_id): the order SQLite's recursive walk
    // reaches a node's dependencies in (it searches the primary key's index).
    const byKey = new Int32Array(E);
    for (let e = 0; e < E; e++) byKey[e] = e;
    for (let n = 0; n < N; n++) {
      const a = start[n]!;
      const b = start[n + 1]!;
      if (b - a > 1) byKey.subarray(a, b).sort((x, y) => binaryCompare(ids[to[x]!]!, ids[to[y]!]!));
    }
    // The texts: ids in one packer of their own (looked up by the index), names and versions in
    // another. Not deduplicated: a map of ~170,000 texts made the build ~1.5x slower for ~1 MB.
    const idPack = new TextPacker();
    const idCol = idPack.column(N);
    for (let n = 0; n < N; n++) idCol.set(n, ids[n]!);
    idPack.finish();
    const pack = new TextPacker();
    const nameCol = pack.column(N);
    const versionCol = pack.column(N);
    const size = new Float64Array(N).fill(Number.NaN);
    const rowid = new Int32Array(entries);
    for (let n = 0; n < entries; n++) {
      const m = mods[n]!;
      nameCol.set(n, m[1]);
      versionCol.set(n, m[2]);
      size[n] = m[3];
      rowid[n] = m[4] <= 0x7fffffff ? m[4] : -1; // past 32 bits (never, in practice): read by id
    }
    const edgeNameCol = pack.column(E);
    const edgeVersionCol = pack.column(E);
    for (let e = 0; e < E; e++) {
      const r = rows[order[e]!]!;
      edgeNameCol.set(e, r[2]);
      edgeVersionCol.set(e, r[3]);
    }
    pack.finish();
    const idTexts = idCol.build();
    const index = new PackedTextIndex(idTexts, ids);
    const name = nameCol.build();
    const version = versionCol.build();
    const edgeName = edgeNameCol.build();
    const edgeVersion = edgeVersionCol.build();
    const bytes =
      chunkBytes(idTexts.chunks) +
      chunkBytes(name.chunks) +
      idTexts.arrayBytes +
      name.arrayBytes +
      version.arrayBytes +
      edgeName.arrayBytes +
      edgeVersion.arrayBytes +
      index.bytes +
      size.byteLength +
      rowid.byteLength +
      edgeSize.byteLength +
      4 * (3 * E + 4 * N + 1);
    return {
      gen,
      builtAt: Date.now(),
      buildMs: performance.now() - t0,
      nodes: N,
      entries,
      edges: E,
      ids: idTexts,
      name,
      version,
      index,
      size,
      rowid,
      start,
      to,
      edgeName,
      edgeVersion,
      edgeSize,
      byKey,
      dependents,
      mark: new Int32Array(N),
      stamp: 0,
      queue: new Int32Array(N),
      bytes,
    };
  })();
}

/** The read model: the dependency graph of one detail_gen, per connection. */
export const graphModel = structureModel({
  name: "catalog.graph",
  tables: ["mods", "mod_dependencies"],
  counter: { table: "catalog_state", key: "detail_gen" },
  rebuildMs: REBUILD_MS,
  bound: { bytes: 16 * 2 ** 20 },
  build: buildDepGraph,
  size: (g) => ({ bytes: g.bytes, entries: g.edges }),
});
const graphs = graphModel;

/** The graph of the current generation, built now if allowed, or null: then the caller reads SQL. */
export const depGraph: (sqlite: Database, now?: number) => DepGraph | null = graphs.current;

/** The graph last built (for the metrics), whatever its generation. */
export const peekDepGraph: (sqlite: Database) => DepGraph | null = graphs.peek;

/** Whether the id is a catalog entry (a mod row that is not a placeholder). */
export function isEntry(g: DepGraph, id: string): boolean {
  const n = g.index.get(id);
  return n >= 0 && n < g.entries;
}

/**
 * Whether the id is a catalog entry (-1: no), and its rowid in mods if the graph holds it (0: read
 * it by id): its row read without the id's index.
 */
export function rowidOf(g: DepGraph, id: string): number {
  const n = g.index.get(id);
  return n >= 0 && n < g.entries ? Math.max(g.rowid[n]!, 0) : -1;
}

/** A catalog entry's name and size (null when the id is none). */
export function entryOf(g: DepGraph, id: string): { name: string; size_bytes: number } | null {
  const n = g.index.get(id);
  if (n < 0 || n >= g.entries) return null;
  return { name: g.name.get(n)!, size_bytes: g.size[n]! };
}

/** A node's size as the SQL path reads it (null for a node that is no catalog entry). */
const sizeOf = (g: DepGraph, n: number): number | null => (n < g.entries ? g.size[n]! : null);

/** Edges of node n in rowid order, as the SQL path's json_group_array gives them. */
function edgesOf(g: DepGraph, n: number): GraphNodeRow["edges"] {
  const a = g.start[n]!;
  const b = g.start[n + 1]!;
  const out = new Array<GraphNodeRow["edges"][number]>(b - a);
  for (let e = a; e < b; e++) out[e - a] = [g.ids.get(g.to[e]!)!, g.edgeName.get(e)!, g.edgeVersion.get(e), g.edgeSize[e]!];
  return out;
}

/** The transitive closure of `id` (itself first), in the order and with the values the SQL path reads. */
export function closureOf(g: DepGraph, id: string): GraphNodeRow[] {
  const root = g.index.get(id);
  if (root < 0) return [{ workshop_id: id, name: null, version: null, size_bytes: null, edges: [] }];
  const stamp = (g.stamp = (g.stamp + 1) | 0 || 1);
  if (stamp === 1) g.mark.fill(0);
  const q = g.queue;
  let head = 0;
  let tail = 0;
  q[tail++] = root;
  g.mark[root] = stamp;
  while (head < tail) {
    const n = q[head++]!;
    for (let i = g.start[n]!, b = g.start[n + 1]!; i < b; i++) {
      const t = g.to[g.byKey[i]!]!;
      if (g.mark[t] === stamp) continue;
      g.mark[t] = stamp;
      q[tail++] = t;
    }
  }
  const out = new Array<GraphNodeRow>(tail);
  for (let i = 0; i < tail; i++) {
    const n = q[i]!;
    out[i] = { workshop_id: g.ids.get(n)!, name: g.name.get(n), version: g.version.get(n), size_bytes: sizeOf(g, n), edges: edgesOf(g, n) };
  }
  return out;
}

/** The direct dependencies of `id` in rowid order, as the SQL path reads them. */
export function directDependenciesOf(g: DepGraph, id: string): DirectDependencyRow[] {
  const n = g.index.get(id);
  if (n < 0) return [];
  const a = g.start[n]!;
  const b = g.start[n + 1]!;
  const out = new Array<DirectDependencyRow>(b - a);
  for (let e = a; e < b; e++) {
    const t = g.to[e]!;
    out[e - a] = {
      depends_on_id: g.ids.get(t)!,
      depends_on_name: g.edgeName.get(e)!,
      version: g.edgeVersion.get(e),
      size_bytes: g.edgeSize[e]!,
      name: g.name.get(t),
      latest_version: g.version.get(t),
      latest_size: sizeOf(g, t),
    };
  }
  return out;
}

/** Edges from `id` and edges to it. */
export function countsOf(g: DepGraph, id: string): { deps: number; dependents: number } {
  const n = g.index.get(id);
  if (n < 0) return { deps: 0, dependents: 0 };
  return { deps: g.start[n + 1]! - g.start[n]!, dependents: g.dependents[n]! };
}
