// What the live snapshot is built from (snapshot/build.ts): the servers seen within the online
// window, through the last-seen index, all in the caller's one read transaction.
import type { Database } from "bun:sqlite";
import { stmt } from "../../../db/statements";
import { ORDER, type ServerBaseRow } from "../entry";
import type { ListQuery } from "../model";
import { SERVER_COLUMNS, type ServerRow } from "./servers";

const ONLINE = `FROM game_servers g INDEXED BY game_servers_seen_idx WHERE g.last_seen_at >= $cut AND g.online = 1`;
const RECENT = `FROM game_servers g INDEXED BY game_servers_seen_idx WHERE g.last_seen_at >= $cut`;

export const snapshotRepo = {
  /** The online servers seen since `cut`, in id order (BINARY), with their search text. */
  onlineRows(sqlite: Database, cut: number): (ServerRow & { search_text: string })[] {
    return stmt(sqlite, `SELECT ${SERVER_COLUMNS}, g.search_text ${ONLINE} ORDER BY g.id`).all({ cut }) as (ServerRow & { search_text: string })[];
  },

  /** The same servers' sids in the order of `sort` as SQLite gives it (when a value is not one the snapshot's own sort mirrors). */
  onlineSidsInOrder(sqlite: Database, cut: number, sort: ListQuery["sort_by"]): [number][] {
    return stmt(sqlite, `SELECT g.sid ${ONLINE} ORDER BY ${ORDER[sort]}`).values({ cut }) as [number][];
  },

  /**
   * Every server seen since `cut`, online or not, in /mods/:id/servers's order: sid, online (1/0),
   * id and mod-list version (null: it never had mod rows).
   */
  usedServers(sqlite: Database, cut: number): [sid: number, online: number, id: string, ver: number | null][] {
    return stmt(
      sqlite,
      `SELECT g.sid, g.online IS 1, g.id, (SELECT v.ver FROM game_server_mods_ver v WHERE v.sid = g.sid)
       ${RECENT} ORDER BY g.player_count DESC, g.name COLLATE NOCASE, g.id`,
    ).values({ cut }) as [number, number, string, number | null][];
  },

  /** The columns of the servers seen since `cut` that are not online (the usage answers them). */
  goneRows(sqlite: Database, cut: number): (ServerBaseRow & { sid: number })[] {
    return stmt(
      sqlite,
      `SELECT g.sid, g.id, g.name, g.host_address, g.player_count, g.player_count_limit, g.queue_players_count, g.scenario_name,
         g.game_version, g.password_protected, g.official, g.last_seen_at
       ${RECENT} AND g.online IS NOT 1`,
    ).all({ cut }) as (ServerBaseRow & { sid: number })[];
  },
};
