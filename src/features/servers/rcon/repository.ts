// The queries of who is on a community's own servers (docs/rcon.md "Who is on"): the roster of the
// last poll (server_players), each stay (player_sessions) and the names a uid went by
// (player_names). One poll's roster is applied in one transaction.
import type { Database } from "bun:sqlite";

export interface RosterPlayer {
  player_id: number;
  uid: string;
  name: string;
}

export interface OnPlayer extends RosterPlayer {
  joined_at: number;
}

/** The servers with RCON settings: what the manager keeps a connection to. */
export function serversWithRcon(sqlite: Database): { id: string }[] {
  return sqlite.query("SELECT id FROM servers WHERE rcon_host IS NOT NULL AND rcon_password IS NOT NULL ORDER BY id").all() as { id: string }[];
}

/** Servers with RCON whose roster was read at or after `since`, with how many players it listed. */
export function freshRosterCounts(sqlite: Database, since: number): { server_id: string; name: string; players: number }[] {
  return sqlite
    .query(
      `SELECT s.id AS server_id, s.name, (SELECT COUNT(*) FROM server_players p WHERE p.server_id = s.id) AS players
       FROM servers s WHERE s.rcon_host IS NOT NULL AND s.players_fetched_at IS NOT NULL AND s.players_fetched_at >= ? ORDER BY s.id`,
    )
    .all(since) as { server_id: string; name: string; players: number }[];
}

export function roster(sqlite: Database, serverId: string): OnPlayer[] {
  return sqlite.query("SELECT player_id, uid, name, joined_at FROM server_players WHERE server_id = ? ORDER BY joined_at, player_id").all(serverId) as OnPlayer[];
}

/**
 * Applies a roster read at `at`: a uid not on before opens a session, one no longer listed closes
 * its session; names seen are kept with when they were first and last seen. Returns who joined
 * and who left. One transaction.
 */
export function applyRoster(sqlite: Database, serverId: string, players: readonly RosterPlayer[], at: number): { joined: RosterPlayer[]; left: OnPlayer[] } {
  return sqlite.transaction(() => {
    const before = new Map(roster(sqlite, serverId).map((p) => [p.uid, p]));
    const now = new Map<string, RosterPlayer>();
    for (const p of players) if (!now.has(p.uid)) now.set(p.uid, p);
    const joined: RosterPlayer[] = [];
    const left: OnPlayer[] = [];
    const insertOn = sqlite.query("INSERT INTO server_players (server_id, uid, player_id, name, joined_at) VALUES (?, ?, ?, ?, ?)");
    const updateOn = sqlite.query("UPDATE server_players SET player_id = ?, name = ? WHERE server_id = ? AND uid = ?");
    const openSession = sqlite.query("INSERT INTO player_sessions (server_id, uid, name, joined_at) VALUES (?, ?, ?, ?)");
    const renameSession = sqlite.query("UPDATE player_sessions SET name = ? WHERE server_id = ? AND uid = ? AND left_at IS NULL");
    const closeSession = sqlite.query("UPDATE player_sessions SET left_at = ? WHERE server_id = ? AND uid = ? AND left_at IS NULL");
    const removeOn = sqlite.query("DELETE FROM server_players WHERE server_id = ? AND uid = ?");
    const seenName = sqlite.query(
      `INSERT INTO player_names (server_id, uid, name, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (server_id, uid, name) DO UPDATE SET last_seen = excluded.last_seen`,
    );
    for (const p of now.values()) {
      const was = before.get(p.uid);
      if (!was) {
        insertOn.run(serverId, p.uid, p.player_id, p.name, at);
        openSession.run(serverId, p.uid, p.name, at);
        joined.push(p);
      } else if (was.player_id !== p.player_id || was.name !== p.name) {
        updateOn.run(p.player_id, p.name, serverId, p.uid);
        if (was.name !== p.name) renameSession.run(p.name, serverId, p.uid);
      }
      seenName.run(serverId, p.uid, p.name, at, at);
    }
    for (const [uid, p] of before) {
      if (now.has(uid)) continue;
      removeOn.run(serverId, uid);
      closeSession.run(at, serverId, uid);
      left.push(p);
    }
    sqlite.query("UPDATE servers SET players_fetched_at = ? WHERE id = ?").run(at, serverId);
    return { joined, left };
  })();
}

/** Closes every open session of a server (its RCON settings were removed: nobody is known to be on). */
export function closeAllSessions(sqlite: Database, serverId: string, at: number): void {
  sqlite.transaction(() => {
    sqlite.query("UPDATE player_sessions SET left_at = ? WHERE server_id = ? AND left_at IS NULL").run(at, serverId);
    sqlite.query("DELETE FROM server_players WHERE server_id = ?").run(serverId);
    sqlite.query("UPDATE servers SET players_fetched_at = NULL WHERE id = ?").run(serverId);
  })();
}

export interface SessionRow {
  uid: string;
  name: string;
  joined_at: number;
  left_at: number | null;
}

/** Sessions overlapping [from, to], newest first, optionally of one uid. */
export function sessions(sqlite: Database, serverId: string, o: { from: number; to: number; uid?: string; limit: number }): SessionRow[] {
  return sqlite
    .query(
      `SELECT uid, name, joined_at, left_at FROM player_sessions
       WHERE server_id = $server AND joined_at <= $to AND (left_at IS NULL OR left_at >= $from) AND ($uid IS NULL OR uid = $uid)
       ORDER BY joined_at DESC, id DESC LIMIT $limit`,
    )
    .all({ $server: serverId, $from: o.from, $to: o.to, $uid: o.uid ?? null, $limit: o.limit }) as SessionRow[];
}

export function playerNames(sqlite: Database, serverId: string, uid: string): { name: string; first_seen: number; last_seen: number }[] {
  return sqlite
    .query("SELECT name, first_seen, last_seen FROM player_names WHERE server_id = ? AND uid = ? ORDER BY last_seen DESC, name")
    .all(serverId, uid) as { name: string; first_seen: number; last_seen: number }[];
}

/** The name the player was last seen with on the server, null when never seen. */
export const lastNameOf = (sqlite: Database, serverId: string, uid: string) =>
  (sqlite.query("SELECT name FROM player_names WHERE server_id = ? AND uid = ? ORDER BY last_seen DESC LIMIT 1").get(serverId, uid) as { name: string } | null)?.name ?? null;

/** Seconds a player spent on the server over all kept sessions (an open one counted to `now`). */
export function totalSeconds(sqlite: Database, serverId: string, uid: string, now: number): number {
  const r = sqlite
    .query("SELECT COALESCE(SUM(COALESCE(left_at, ?) - joined_at), 0) AS ms FROM player_sessions WHERE server_id = ? AND uid = ?")
    .get(now, serverId, uid) as { ms: number };
  return Math.max(0, Math.round(r.ms / 1000));
}

/** Drops sessions that ended (and names last seen) before `before`: the retention schedule. */
export function pruneSessions(sqlite: Database, before: number): { sessions: number; names: number } {
  return sqlite.transaction(() => ({
    sessions: sqlite.query("DELETE FROM player_sessions WHERE left_at IS NOT NULL AND left_at < ?").run(before).changes,
    names: sqlite
      .query(
        `DELETE FROM player_names WHERE last_seen < ?1
         AND NOT EXISTS (SELECT 1 FROM server_players p WHERE p.server_id = player_names.server_id AND p.uid = player_names.uid)`,
      )
      .run(before).changes,
  }))();
}

/** Whether a deploy of this server is restarting it now (its own restart is not a lost connection). */
export function deployRestarting(sqlite: Database, serverId: string): boolean {
  return (
    sqlite
      .query("SELECT 1 FROM deployments WHERE server_id = ? AND status = 'running' AND phase IN ('restarting', 'verifying', 'rolling_back') LIMIT 1")
      .get(serverId) !== null
  );
}
