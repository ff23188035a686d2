// live_state: the feature's counters and marks (watermarks, the last scan, the generation
// counters its read models follow), and how a bulk writer sets the per-row generation triggers
// aside.
import type { Database } from "bun:sqlite";
import { stmt } from "../../../db/statements";

export function getState(sqlite: Database, key: string): number | null {
  const r = stmt(sqlite, `SELECT value FROM live_state WHERE key = ?`).get(key) as { value: number } | null;
  return r ? r.value : null;
}

export function setState(sqlite: Database, key: string, value: number) {
  stmt(sqlite, `INSERT INTO live_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(key, value);
}

/**
 * Runs a bulk writer's writes (the scan's, the roll-up's) with the live feature's per-row
 * generation triggers skipping (src/db/schema-objects.sql: each tests in its WHEN that
 * live_bulk_write holds no row), then moves servers_gen and series_gen once: what the triggers
 * would have moved, once for all the rows. The row is written and deleted inside the caller's
 * transaction, so no other connection ever sees it, and a failure rolls it back with the rest;
 * no schema changes (a trigger dropped and made again was a new schema for every connection, its
 * prepared statements compiled again). A writer that reads servers_gen after its own writes (the
 * scan's snapshot) moves it again itself (writeModUsage does); one that writes mod lists sets
 * their versions itself (insertMods).
 */
export function withBulkWrite<T>(sqlite: Database, writer: string, write: () => T): T {
  if (!sqlite.inTransaction) throw new Error(`withBulkWrite(${writer}) outside a transaction`);
  stmt(sqlite, `INSERT INTO live_bulk_write (writer) VALUES (?)`).run(writer);
  let out: T;
  try {
    out = write();
  } finally {
    stmt(sqlite, `DELETE FROM live_bulk_write WHERE writer = ?`).run(writer);
  }
  bumpServersGen(sqlite);
  stmt(sqlite, `UPDATE live_state SET value = value + 1 WHERE key = 'series_gen'`).run();
  return out;
}

/** Moves live_state.servers_gen (the live snapshot's generation: snapshot/lifecycle.ts). */
export function bumpServersGen(sqlite: Database) {
  stmt(sqlite, `UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen'`).run();
}
