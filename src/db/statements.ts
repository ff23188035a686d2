// Prepared statements by their SQL text, cached per connection, and multi-row INSERTs built on
// them: what the hot write paths (the live scan, the crawl) share.
import type { Database, Statement } from "bun:sqlite";

const cache = new WeakMap<Database, Map<string, Statement>>();

/** A prepared statement, cached per connection. */
export function stmt(sqlite: Database, sql: string): Statement {
  let m = cache.get(sqlite);
  if (!m) cache.set(sqlite, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = sqlite.prepare(sql)));
  return s;
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
  for (let i = 0; i < rows.length; i += chunk) {
    const n = Math.min(chunk, rows.length - i);
    const args = n === chunk ? full! : new Array(n * cols);
    let k = 0;
    for (let r = i; r < i + n; r++) {
      const row = rows[r]!;
      for (let c = 0; c < cols; c++) args[k++] = row[c];
    }
    stmt(sqlite, sqlOf(n)).run(...(args as any[]));
  }
}
