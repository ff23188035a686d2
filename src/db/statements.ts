// Prepared statements by their SQL text, cached per connection, and multi-row INSERTs built on
// them: what the hot write paths (the live scan, the crawl) share.
import type { Database, Statement } from "bun:sqlite";
import { connectionOf, KeptForTurn } from "./connection";

/** A prepared statement, cached per connection (held by the connection's handle, connection.ts). */
export function stmt(sqlite: Database, sql: string): Statement {
  const m = connectionOf(sqlite).statements;
  let s = m.get(sql);
  if (!s) m.set(sql, (s = sqlite.prepare(sql)));
  return s;
}

/**
 * A set of statements a repository prepares together (`prepare`, called once per connection):
 * returns its accessor, which gives the connection's set (held by the handle, connection.ts).
 */
export function statementSet<T>(prepare: (sqlite: Database) => T): (sqlite: Database) => T {
  return (sqlite) => {
    const sets = connectionOf(sqlite).statementSets;
    let s = sets.get(prepare) as T | undefined;
    if (s === undefined) sets.set(prepare, (s = prepare(sqlite)));
    return s;
  };
}

/**
 * `rows` as multi-row INSERTs of up to `chunk` rows (`head` is `INSERT INTO t (cols)`, `tail`
 * anything after the VALUES, e.g. an ON CONFLICT clause), in the order given. A statement is
 * cached per row count; a full chunk's values are copied into one reused argument array (slicing
 * and flattening each chunk cost ~10 % of a live scan's first sight).
 */
export function insertRows(sqlite: Database, head: string, cols: number, rows: readonly (readonly unknown[])[], tail = "", chunk = 100) {
  if (rows.length === 0) return;
  const placeholders = `(${new Array(cols).fill("?").join(", ")})`;
  const sqlOf = (n: number) => `${head} VALUES ${new Array(n).fill(placeholders).join(", ")}${tail ? ` ${tail}` : ""}`;
  const full: unknown[] | null = rows.length >= chunk ? new Array(chunk * cols) : null;
  // The full chunks' statement is found once (its SQL text, ~1.6 KB at 100 rows of 5, built and
  // hashed for the cache's look-up once per call, not once per chunk: ~2,000 chunks a first sight).
  const fullStmt = full ? stmt(sqlite, sqlOf(chunk)) : null;
  for (let i = 0; i < rows.length; i += chunk) {
    const n = Math.min(chunk, rows.length - i);
    const args = n === chunk ? full! : new Array(n * cols);
    let k = 0;
    for (let r = i; r < i + n; r++) {
      const row = rows[r]!;
      for (let c = 0; c < cols; c++) args[k++] = row[c];
    }
    (n === chunk ? fullStmt! : stmt(sqlite, sqlOf(n))).run(...(args as any[]));
  }
}

/**
 * A generation counter: one row of a small key/value state table (catalog_state, live_state) that
 * triggers move on every write a structure or answer kept in memory depends on. Reading it is a
 * read transaction of its own, and in WAL mode each one takes and drops a lock on the shared
 * memory file (two fcntl calls and an fstat, most of it in the kernel: ~3-4 µs on a quiet machine,
 * 8-10 µs on the shared 2-core bench machine, where a system call is dear); a catalog search read
 * two or three of them (fts_gen for the index, mods_gen for the orders, detail_gen for the
 * summaries). Here the whole table is read in one statement and its values are kept until the
 * current turn of the event loop ends (a setImmediate drops them: Bun runs it at the start of the
 * next turn, before it polls for more requests) or this connection writes anything
 * (total_changes(), no transaction, ~0.2 µs, moves with every INSERT, UPDATE and DELETE through
 * it, triggers included). So every read still sees a write made before it through this
 * connection (the service has one), and a commit by another connection or process from the next
 * turn on. The requests of one turn share one state: all of them had arrived when the turn polled
 * them, before the first read, so each answer is the state at a moment between its request and
 * its answer. Kept per run of JavaScript instead (a microtask, as they once were), a served
 * request read the table itself: ~1.2 reads a request under wrk at 32 clients, ~0.05 a turn (~20
 * requests a turn).
 * Inside a transaction nothing is kept (its reads take no lock of their own, and a rollback moves
 * no counter): every read there is SQLite's, and the values kept before it are dropped.
 */
/** The tables of generation counters (key → value rows, moved by triggers). */
export type GenerationTable = "catalog_state" | "live_state" | "auth_state";

export function generation(sqlite: Database, table: GenerationTable, key: string): number {
  const values = generationValues(sqlite, table);
  if (values === null) return ((stmt(sqlite, `SELECT value FROM ${table} WHERE key = ?`).values(key) as [number][])[0]?.[0] as number | undefined) ?? 0;
  return values.get(key) ?? 0;
}

/**
 * Several counters of one table as one key (their values joined), read as `generation` reads one,
 * with one check of total_changes() for all: what an answer cache depending on several keeps.
 */
export function generationKey(sqlite: Database, table: GenerationTable, keys: readonly string[]): string {
  const values = generationValues(sqlite, table);
  let out = "";
  for (const k of keys) out += `${values === null ? generation(sqlite, table, k) : (values.get(k) ?? 0)}|`;
  return out;
}

/** The table's counters as kept for this turn of the event loop (read now if not kept); null inside a transaction. */
function generationValues(sqlite: Database, table: GenerationTable): Map<string, number> | null {
  const per = connectionOf(sqlite).counters;
  let m = per.get(table);
  if (!m) per.set(table, (m = { kept: new KeptForTurn(), changes: -1 }));
  if (sqlite.inTransaction) {
    m.kept.value = null;
    return null;
  }
  const changes = (stmt(sqlite, "SELECT total_changes()").values() as [number][])[0]![0];
  if (m.kept.value === null || m.changes !== changes) {
    const values = new Map<string, number>();
    for (const [k, v] of stmt(sqlite, `SELECT key, value FROM ${table}`).values() as [string, number][]) values.set(k, v);
    m.changes = changes;
    return m.kept.keep(values);
  }
  return m.kept.value;
}

/**
 * `read()` inside one read transaction (BEGIN … COMMIT; inside a transaction already, as it is):
 * several statements outside a transaction are a WAL read transaction each, two fcntl calls and an
 * fstat apiece (~8 µs on the bench machine); together they take the lock once and read one
 * snapshot. Only for reads: a write in `read()` would commit with it.
 */
export function inOneRead<T>(sqlite: Database, read: () => T): T {
  if (sqlite.inTransaction) return read();
  stmt(sqlite, "BEGIN").run();
  try {
    return read();
  } finally {
    stmt(sqlite, "COMMIT").run();
  }
}
