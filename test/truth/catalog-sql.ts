// The SQL truth paths of the catalog's answers, for the property tests (and anyone comparing):
// GET /mods without the orders in memory, and a mod's live usage from SQLite alone (the service
// answers usage from the live snapshot). No production code imports this file.
import type { Database } from "bun:sqlite";
import { catalogStatements, ftsQuery, getDependencyCounts, type AcRow, type ModSummaryRow } from "../../src/features/catalog/repository";
import { listModsUncached, type ListModsParams } from "../../src/features/catalog/list";

/** The SQL path of GET /mods, whatever the orders in memory. */
export function listModsSql(sqlite: Database, p: ListModsParams): { rows: ModSummaryRow[]; total: number } {
  return listModsUncached(sqlite, p, "sql");
}

/**
 * The SQL path of GET /mods/autocomplete (as it was answered before it was ranked in memory): names
 * starting with the text from the name index, then FTS5's `name : (…)` query by rank and rowid.
 */
export function autocompleteSql(sqlite: Database, text: string): AcRow[] {
  const t = text.trim().normalize("NFKC");
  if (!t) return [];
  const st = catalogStatements(sqlite);
  const out = st.acStarts.all({ lo: t, hi: t + "\u{10FFFF}" });
  const words = out.length >= 10 ? null : ftsQuery(t);
  if (words && /[\p{L}\p{N}]{2}/u.test(t)) {
    const seen = new Set(out.map((r) => r.workshop_id));
    for (const r of st.autocomplete.all({ q: `name : (${words})` })) {
      if (out.length >= 10) break;
      if (!seen.has(r.workshop_id)) out.push(r);
    }
  }
  return out.map((r) => ({ workshop_id: r.workshop_id, name: r.name, image_url: r.image_url }));
}

export interface ServerUsingRow {
  id: string;
  name: string;
  host_address: string;
  player_count: number;
  player_count_limit: number;
  queue_players_count: number;
  scenario_name: string;
  game_version: string;
  password_protected: number;
  official: number;
  last_seen_at: number;
}

function usageStatements(sqlite: Database) {
    // Live usage: servers seen in the last hour (live feature's tables).
    const usage = sqlite.query<{ servers: number; players: number }, [string, number]>(`
      SELECT count(*) AS servers, coalesce(sum(gs.player_count), 0) AS players
      FROM game_server_mods gsm JOIN game_servers gs ON gs.id = gsm.server_id
      WHERE gsm.workshop_id = ?1 AND gs.last_seen_at >= ?2`);
    const SERVER_COLS = `gs.id, gs.name, gs.host_address, gs.player_count, gs.player_count_limit, gs.queue_players_count,
             gs.scenario_name, gs.game_version, gs.password_protected, gs.official, gs.last_seen_at`;
    // Two join orders for the same rows: from the mod's rows (cheap for most mods), or from the
    // live servers, probing each one's mods (bounded by the ~5,000 live servers; wins for mods
    // that thousands of servers, live and gone, have run). serversUsingSql picks by usage.
    const servers = sqlite.query<ServerUsingRow, [string, number]>(`
      SELECT ${SERVER_COLS}
      FROM game_server_mods gsm JOIN game_servers gs ON gs.id = gsm.server_id
      WHERE gsm.workshop_id = ?1 AND gs.last_seen_at >= ?2
      ORDER BY gs.player_count DESC, gs.name COLLATE NOCASE, gs.id`);
    const serversOnlineFirst = sqlite.query<ServerUsingRow, [string, number]>(`
      SELECT ${SERVER_COLS}
      FROM game_servers gs CROSS JOIN game_server_mods gsm ON gsm.server_id = gs.id AND gsm.workshop_id = ?1
      WHERE gs.last_seen_at >= ?2
      ORDER BY gs.player_count DESC, gs.name COLLATE NOCASE, gs.id`);
  return { usage, servers, serversOnlineFirst };
}

/** Live usage and dependency counts from SQLite alone (the service answers usage from the live snapshot). */
export function liveStatsSql(sqlite: Database, id: string, since: number) {
  const s = usageStatements(sqlite);
  const c = getDependencyCounts(sqlite, id);
  const u = s.usage.get(id, since)!;
  return {
    used_by_servers_count: u.servers,
    players_using_count: u.players,
    dependencies_count: c.deps,
    dependents_count: c.dependents,
  };
}

/** Live servers above which starting from the live servers is cheaper (measured at full scale). */
const ONLINE_FIRST_ABOVE = 500;

export function serversUsingSql(sqlite: Database, id: string, since: number, plan: "auto" | "mod-first" | "online-first" = "auto") {
  const s = usageStatements(sqlite);
  const onlineFirst = plan === "online-first" || (plan === "auto" && s.usage.get(id, since)!.servers > ONLINE_FIRST_ABOVE);
  return (onlineFirst ? s.serversOnlineFirst : s.servers).all(id, since);
}
