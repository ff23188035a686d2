// Raw SQL read-backs the live tests share: rows, one row, and the live generation the snapshot
// and the server details key on (live_state.servers_gen).
import type { Database } from "bun:sqlite";

export function liveSql(db: () => Database) {
  const q = (sql: string, ...args: any[]) => db().query(sql).all(...args) as any[];
  const one = (sql: string, ...args: any[]) => db().query(sql).get(...args) as any;
  const gen = () => one(`SELECT value FROM live_state WHERE key = 'servers_gen'`).value as number;
  return { q, one, gen };
}
