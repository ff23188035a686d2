// The SQL truth paths of the live feature's answers: the same pages, detail and top lists
// straight from SQLite, which the property tests check the in-memory snapshot against.
// No production code imports this file.
import type { Deps } from "../../src/deps";
import { parseServerSearch } from "../../src/features/live/search";
import type { ListQuery, ServerEntry } from "../../src/features/live/model";
import { ONLINE_WINDOW, ORDER, toEntry } from "../../src/features/live/entry";
import type { Database } from "bun:sqlite";
import { DAY, HOUR, SERVER_COLUMNS, stmt, TOP_MODS, type ServerRow } from "../../src/features/live/repository";
import { detailOf, serverRow } from "../../src/features/live/service";

/** Escapes LIKE wildcards (ESCAPE '\'). */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** GET /game-servers straight from SQLite: the truth the snapshot is checked against. */
export function listServersSql(deps: Pick<Deps, "sqlite" | "clock">, q: ListQuery): ServerEntry[] {
  const where = ["g.online = 1", "g.last_seen_at >= $since"];
  const params: Record<string, string | number> = { since: deps.clock.now() - ONLINE_WINDOW, limit: q.limit, offset: q.offset };
  const search = parseServerSearch(q.search);
  search.words.forEach((w, i) => {
    where.push(`instr(g.search_text, $w${i}) > 0`);
    params[`w${i}`] = w;
  });
  search.address.forEach((a, i) => {
    where.push(`instr(lower(g.host_address), $a${i}) > 0`);
    params[`a${i}`] = a;
  });
  // A server whose name (the search text before its \u0001) holds the whole query comes first.
  let rank = "";
  if (search.phrase) {
    rank = "(instr(substr(g.search_text, 1, instr(g.search_text, char(1))), $phrase) > 0) DESC, ";
    params.phrase = search.phrase;
  }
  if (q.official !== undefined) {
    where.push("g.official = $official");
    params.official = q.official ? 1 : 0;
  }
  if (q.password_protected !== undefined) {
    where.push("g.password_protected = $pw");
    params.pw = q.password_protected ? 1 : 0;
  }
  if (q.min_players !== undefined) {
    where.push("g.player_count >= $minp");
    params.minp = q.min_players;
  }
  if (q.max_mod_size !== undefined) {
    where.push("g.mods_size_bytes <= $maxsize");
    params.maxsize = q.max_mod_size;
  }
  if (q.community_id !== undefined) {
    where.push("g.community_id = $community");
    params.community = q.community_id;
  }
  (q.tags ?? []).slice(0, 20).forEach((t, i) => {
    where.push(`g.tags LIKE $t${i} ESCAPE '\\'`);
    params[`t${i}`] = `%,${likeEscape(t)},%`;
  });
  const modIds = [...new Set(q.mod_ids ?? [])];
  if (modIds.length > 0) {
    // Counted per live server (primary-key probes into its mods) rather than grouping every
    // server that ever ran a popular mod (docs/performance.md, finding 5).
    where.push(
      `(SELECT count(*) FROM game_server_mods gm WHERE gm.server_id = g.id
          AND gm.workshop_id IN (SELECT value FROM json_each($mods))) = $modn`,
    );
    params.mods = JSON.stringify(modIds);
    params.modn = modIds.length;
  }
  // INDEXED BY: the live set (~5,000 of ~95,000 rows) comes from the last-seen index; an index
  // that only serves the ORDER BY (popularity) would walk every known server.
  const sql = `SELECT ${SERVER_COLUMNS} FROM game_servers g INDEXED BY game_servers_seen_idx WHERE ${where.join(" AND ")}
    ORDER BY ${rank}${ORDER[q.sort_by]} LIMIT $limit OFFSET $offset`;
  return (stmt(deps.sqlite, sql).all(params) as ServerRow[]).map(toEntry);
}

/** GET /game-servers/:id straight from SQLite: the truth the snapshot's text is checked against. */
export function serverDetailSql(deps: Pick<Deps, "sqlite" | "clock">, id: string) {
  return detailOf(deps.sqlite, serverRow(deps.sqlite, id), deps.clock.now());
}

/** The two top lists straight from SQLite (what the snapshot is checked against). */
export function topServersSql(deps: Pick<Deps, "sqlite" | "clock">) {
  const rows = stmt(
    deps.sqlite,
    `SELECT id, name, avg_players_7d FROM game_servers
     WHERE avg_players_7d > 0 AND last_seen_at >= ? ORDER BY avg_players_7d DESC, id LIMIT 10`,
  ).all(deps.clock.now() - 7 * DAY) as { id: string; name: string; avg_players_7d: number }[];
  return rows.map((r) => ({ id: r.id, name: r.name, avg_players: Math.round(r.avg_players_7d * 100) / 100 }));
}

/**
 * Every mod run by a server seen since `since`, counted from the mod rows (each (server, mod) row
 * once), with the name live_mod_usage gives a mod: the catalog's, else the name of its row with
 * the smallest sid among those with one (any server, seen or not), else ''.
 */
const MOD_USAGE_SQL = `SELECT u.workshop_id, coalesce(nullif(m.name, ''), (SELECT x.name FROM game_server_mods_by_sid x
       WHERE x.workshop_id = u.workshop_id AND x.name != '' ORDER BY x.server_sid LIMIT 1), '') AS name,
       u.server_count, u.player_count
     FROM (SELECT gm.workshop_id, count(*) AS server_count, sum(g.player_count) AS player_count
           FROM game_servers g JOIN game_server_mods_by_sid gm ON gm.server_sid = g.sid
           WHERE g.last_seen_at >= $since GROUP BY gm.workshop_id) u
     LEFT JOIN mods m ON m.workshop_id = u.workshop_id`;
type ModUsageRow = { workshop_id: string; name: string; server_count: number; player_count: number };

/** MOD_USAGE_SQL's mods, by workshop id. */
export function modUsageSql(sqlite: Database, since: number) {
  return stmt(sqlite, `${MOD_USAGE_SQL} ORDER BY u.workshop_id`).all({ since }) as ModUsageRow[];
}

/**
 * live_mod_usage as the last usage count (a scan's, or the roll-up's: live_state.mod_usage_at)
 * leaves it: the TOP_MODS mods with the most servers seen in the hour before it, ties by workshop
 * id as SQLite orders them, with their players and names (MOD_USAGE_SQL). Empty before any count.
 */
export function modUsageTopSql(sqlite: Database) {
  const at = (stmt(sqlite, `SELECT value FROM live_state WHERE key = 'mod_usage_at'`).get() as { value: number } | null)?.value;
  if (at === undefined) return [];
  return stmt(sqlite, `${MOD_USAGE_SQL} ORDER BY u.server_count DESC, u.workshop_id LIMIT $top`).all({ since: at - HOUR, top: TOP_MODS }) as ModUsageRow[];
}

/** GET /stats/top-mods from SQLite: modUsageTopSql's mods, their names and server counts. */
export function topModsSql(deps: Pick<Deps, "sqlite">) {
  return modUsageTopSql(deps.sqlite).map(({ workshop_id, name, server_count }) => ({ workshop_id, name, server_count }));
}
