// live_state: the feature's counters and marks (watermarks, the last scan, the generation
// counters its read models follow), and how a scan sets the per-row generation triggers aside.
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
 * Runs `write` with the trigger `name` dropped, and creates it again from the text SQLite stored
 * for it (so it comes back exactly as its migration made it), all inside the caller's transaction:
 * DDL is transactional in SQLite, so other connections see the trigger throughout, and a failure
 * rolls the drop back with everything else. Only for a write that moves what the trigger would
 * have moved itself.
 */
export function withoutRowTrigger<T>(sqlite: Database, name: string, write: () => T): T {
  if (!sqlite.inTransaction) throw new Error(`withoutRowTrigger(${name}) outside a transaction`);
  const def = (stmt(sqlite, `SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = ?`).get(name) as { sql: string } | null)?.sql;
  if (!def) return write();
  sqlite.run(`DROP TRIGGER ${name}`);
  try {
    return write();
  } finally {
    sqlite.run(def);
  }
}

/**
 * The per-row generation triggers of game_servers (70_live_snapshot_gen.sql) that a scan sets
 * aside for its own writes (withoutServerTriggers): each moves servers_gen once per row written,
 * ~5,000 extra statements a scan (a fifth of a steady scan's server writes). The delete trigger
 * stays: a scan deletes no server.
 */
export const SERVER_ROW_TRIGGERS = ["game_servers_gen_ins", "game_servers_gen_upd"] as const;

/**
 * Runs a scan's writes with game_servers' per-row generation triggers set aside (withoutRowTrigger,
 * inside the caller's transaction), then moves servers_gen once, before they come back: what the
 * triggers would have moved, once for all the rows. Whatever `write` reads of servers_gen after
 * its own writes (the snapshot it builds) must move it itself (writeModUsage does).
 */
export function withoutServerTriggers<T>(sqlite: Database, write: () => T): T {
  const [ins, upd] = SERVER_ROW_TRIGGERS;
  return withoutRowTrigger(sqlite, ins, () =>
    withoutRowTrigger(sqlite, upd, () => {
      const out = write();
      bumpServersGen(sqlite);
      return out;
    }),
  );
}

/** Moves live_state.servers_gen (the live snapshot's generation: snapshot.ts). */
export function bumpServersGen(sqlite: Database) {
  stmt(sqlite, `UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen'`).run();
}
