// The platform feature's SQL statements: health's probe of the connection, and what /metrics
// reads of the job queue's table (src/jobs/tables.ts; the scraper's repository reads it alike).
import type { Database } from "bun:sqlite";

/** Health's probe: a statement prepared once (when the routes are made), run on each call; throws when the database cannot answer. */
export function healthProbe(sqlite: Database): () => void {
  const stmt = sqlite.prepare("SELECT 1 AS ok");
  return () => void stmt.get();
}

/** How many jobs the table holds in each status (a status with none is absent). `sqlite.query`: compiled once per connection. */
export const jobCountsByStatus = (sqlite: Database) => sqlite.query("SELECT status, COUNT(*) AS n FROM jobs GROUP BY status").all() as { status: string; n: number }[];
