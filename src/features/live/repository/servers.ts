// The live servers' rows (game_servers) and the points a scan records: what the scan writes, what
// the reads of one server, the metrics and the community assignment read.
import type { Database } from "bun:sqlite";
import { insertRows, stmt } from "../../../db/statements";
import type { gameServers } from "../tables";
import type { LiveServer } from "../battlemetrics";

export interface ExistingServer {
  id: string;
  sid: number;
  host_address: string;
  mods_hash: string;
  players_sum_7d: number;
  samples_7d: number;
}

/**
 * What a scan writes of a reported server to its row (insertServer, updateServer): the source's
 * fields as the row stores them (flags as 0/1, tags as one string), and `now`, the scan's time.
 */
export type ServerFields = Pick<
  LiveServer,
  "source_id" | "name" | "ip" | "port" | "country" | "player_count" | "player_count_limit" | "queue_players_count" | "wait_time_estimation" | "scenario_name" | "game_version"
> & { password_protected: number; official: number; tags: string; search_text: string; now: number };

export const SERVER_COLUMNS = `g.id, g.sid, g.name, g.host_address, g.ip, g.port, g.country, g.player_count,
  g.player_count_limit, g.queue_players_count, g.wait_time_estimation, g.scenario_name, g.game_version,
  g.password_protected, g.official, g.tags, g.mods_count, g.mods_size_bytes, g.online, g.avg_players_7d,
  g.community_id, g.first_seen_at, g.last_seen_at`;

/** The SERVER_COLUMNS of game_servers as raw SQL reads them (the booleans as 0/1). */
export type ServerRow = Omit<
  Pick<
    typeof gameServers.$inferSelect,
    | "id" | "sid" | "name" | "host_address" | "ip" | "port" | "country" | "player_count" | "player_count_limit"
    | "queue_players_count" | "wait_time_estimation" | "scenario_name" | "game_version" | "password_protected"
    | "official" | "tags" | "mods_count" | "mods_size_bytes" | "online" | "avg_players_7d" | "community_id"
    | "first_seen_at" | "last_seen_at"
  >,
  "password_protected" | "official" | "online"
> & { password_protected: number; official: number; online: number };

export const serversRepo = {
  existingByAddress(sqlite: Database, addresses: string[]): ExistingServer[] {
    return stmt(
      sqlite,
      `SELECT id, sid, host_address, mods_hash, players_sum_7d, samples_7d FROM game_servers
       WHERE host_address IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(addresses)) as ExistingServer[];
  },

  maxSid(sqlite: Database): number {
    return (stmt(sqlite, `SELECT coalesce(max(sid), 0) AS m FROM game_servers`).get() as { m: number }).m;
  },

  /** A new server's row: its reported fields, and what the scan adds (positional values: binding ~28 named ones a row cost about twice as much). */
  insertServer(sqlite: Database, r: ServerFields, x: {
    id: string; sid: number; source: string; host_address: string; mods_count: number; mods_size_bytes: number; mods_hash: string;
    players_sum_7d: number; samples_7d: number; avg_players_7d: number;
  }) {
    stmt(
      sqlite,
      `INSERT INTO game_servers (id, sid, source, source_id, host_address, name, ip, port, country, player_count,
        player_count_limit, queue_players_count, wait_time_estimation, scenario_name, game_version,
        password_protected, official, tags, search_text, mods_count, mods_size_bytes, mods_hash, online,
        players_sum_7d, samples_7d, avg_players_7d, first_seen_at, last_seen_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, 1,
        ?23, ?24, ?25, ?26, ?26)`,
    ).run(
      x.id, x.sid, x.source, r.source_id, x.host_address, r.name, r.ip, r.port, r.country, r.player_count,
      r.player_count_limit, r.queue_players_count, r.wait_time_estimation, r.scenario_name, r.game_version,
      r.password_protected, r.official, r.tags, r.search_text, x.mods_count, x.mods_size_bytes, x.mods_hash,
      x.players_sum_7d, x.samples_7d, x.avg_players_7d, r.now,
    );
  },

  /** A known server's row seen again (positional values, as insertServer). */
  updateServer(sqlite: Database, r: ServerFields, id: string, playersSum7d: number, samples7d: number, avgPlayers7d: number) {
    stmt(
      sqlite,
      `UPDATE game_servers SET source_id = ?1, name = ?2, ip = ?3, port = ?4, country = ?5,
        player_count = ?6, player_count_limit = ?7,
        queue_players_count = ?8, wait_time_estimation = ?9,
        scenario_name = ?10, game_version = ?11, password_protected = ?12,
        official = ?13, tags = ?14, search_text = ?15, online = 1,
        players_sum_7d = ?16, samples_7d = ?17, avg_players_7d = ?18,
        last_seen_at = ?19
       WHERE id = ?20`,
    ).run(
      r.source_id, r.name, r.ip, r.port, r.country, r.player_count, r.player_count_limit, r.queue_players_count,
      r.wait_time_estimation, r.scenario_name, r.game_version, r.password_protected, r.official, r.tags, r.search_text,
      playersSum7d, samples7d, avgPlayers7d, r.now, id,
    );
  },

  /**
   * A server seen by A2S only: counts, name, map and version change; what only the list source
   * knows (mods, tags, country, source id) stays as it was.
   */
  updateServerFromA2s(sqlite: Database, row: {
    id: string; name: string; player_count: number; player_count_limit: number; scenario_name: string; game_version: string;
    password_protected: number; players_sum_7d: number; samples_7d: number; avg_players_7d: number; now: number; registered_server_id: string;
  }) {
    stmt(
      sqlite,
      `UPDATE game_servers SET name = $name, player_count = $player_count, player_count_limit = $player_count_limit,
        scenario_name = CASE WHEN $scenario_name = '' THEN scenario_name ELSE $scenario_name END,
        game_version = CASE WHEN $game_version = '' THEN game_version ELSE $game_version END,
        password_protected = $password_protected, online = 1, players_sum_7d = $players_sum_7d, samples_7d = $samples_7d,
        avg_players_7d = $avg_players_7d, last_seen_at = $now, registered_server_id = $registered_server_id
       WHERE id = $id`,
    ).run(row as any);
  },

  linkRegisteredByAddress(sqlite: Database, hostAddress: string, registeredServerId: string) {
    stmt(sqlite, `UPDATE game_servers SET registered_server_id = ? WHERE host_address = ?`).run(registeredServerId, hostAddress);
  },

  setRegisteredServer(sqlite: Database, id: string, registeredServerId: string) {
    stmt(sqlite, `UPDATE game_servers SET registered_server_id = ? WHERE id = ?`).run(registeredServerId, id);
  },

  /** Registered servers that did not answer A2S: offline now (their history stays). */
  markRegisteredOffline(sqlite: Database, registeredServerIds: string[]): number {
    if (registeredServerIds.length === 0) return 0;
    return stmt(
      sqlite,
      `UPDATE game_servers SET online = 0, player_count = 0, queue_players_count = 0, wait_time_estimation = 0
       WHERE online = 1 AND registered_server_id IN (SELECT value FROM json_each(?))`,
    ).run(JSON.stringify(registeredServerIds)).changes;
  },

  /** Raw stat points: [sid, time, players, queue, wait] (a page's in a few statements). */
  insertRawPoints(sqlite: Database, rows: [number, number, number, number, number][]) {
    insertRows(sqlite, `INSERT OR REPLACE INTO game_server_stats_raw (sid, time, players, queue, wait)`, 5, rows);
  },

  setModSummary(sqlite: Database, id: string, count: number, size: number, hash: string) {
    stmt(sqlite, `UPDATE game_servers SET mods_count = ?, mods_size_bytes = ?, mods_hash = ? WHERE id = ?`).run(
      count,
      size,
      hash,
      id,
    );
  },

  /** Servers not in the completed scan are offline now: no players, not listed. */
  markVanished(sqlite: Database, scanTime: number): number {
    return stmt(
      sqlite,
      `UPDATE game_servers SET online = 0, player_count = 0, queue_players_count = 0, wait_time_estimation = 0
       WHERE online = 1 AND last_seen_at < ?`,
    ).run(scanTime).changes;
  },

  insertGlobalRaw(sqlite: Database, time: number, players: number, queue: number, servers: number) {
    stmt(sqlite, `INSERT OR REPLACE INTO live_global_stats_raw (time, players, queue, servers) VALUES (?, ?, ?, ?)`).run(
      time,
      players,
      queue,
      servers,
    );
  },

  /**
   * One raw point per community that has servers assigned (zeros when none is online). The
   * communities come from the covering community index and the sums from the servers seen at
   * `time` through the last-seen index (rows the scan has just written, in the page cache): one
   * GROUP BY over every assigned server read each one's row (~4,750 at full scale, scattered over
   * the table's ~7,000 pages), ~0.1 s of every scan.
   */
  insertCommunityRaw(sqlite: Database, time: number) {
    stmt(
      sqlite,
      `INSERT OR REPLACE INTO live_community_stats_raw (community_id, time, players, queue, servers)
       SELECT c.community_id, $time, coalesce(s.players, 0), coalesce(s.queue, 0), coalesce(s.servers, 0)
       FROM (SELECT DISTINCT community_id FROM game_servers WHERE community_id IS NOT NULL) c
       LEFT JOIN (
         SELECT community_id, sum(player_count) AS players, sum(queue_players_count) AS queue, count(*) AS servers
         FROM game_servers INDEXED BY game_servers_seen_idx
         WHERE last_seen_at = $time AND community_id IS NOT NULL GROUP BY community_id
       ) s ON s.community_id = c.community_id`,
    ).run({ time });
  },

  // ---------- one server, its community, the top list ----------

  /** A server's row (SERVER_COLUMNS) by id, or null. */
  row(sqlite: Database, id: string): ServerRow | null {
    return stmt(sqlite, `SELECT ${SERVER_COLUMNS} FROM game_servers g WHERE g.id = ?`).get(id) as ServerRow | null;
  },

  /** A server's series key (`sid`) by id, or null. */
  sid(sqlite: Database, id: string): number | null {
    const r = stmt(sqlite, "SELECT sid FROM game_servers WHERE id = ?").values(id) as [number][];
    return r.length === 0 ? null : r[0]![0];
  },

  /** The ten servers seen since `since` with the highest 7-day average (ties by id), with their last sighting. */
  topByAverage(sqlite: Database, since: number): { id: string; name: string; avg_players_7d: number; last_seen_at: number }[] {
    return stmt(
      sqlite,
      `SELECT id, name, avg_players_7d, last_seen_at FROM game_servers
       WHERE avg_players_7d > 0 AND last_seen_at >= ? ORDER BY avg_players_7d DESC, id LIMIT 10`,
    ).all(since) as { id: string; name: string; avg_players_7d: number; last_seen_at: number }[];
  },

  setCommunity(sqlite: Database, serverId: string, communityId: string | null) {
    stmt(sqlite, `UPDATE game_servers SET community_id = ? WHERE id = ?`).run(communityId, serverId);
  },

  /** The metrics path's columns of one server, or null. */
  metricsRow(sqlite: Database, id: string): ServerMetricsRow | null {
    return stmt(
      sqlite,
      `SELECT id, name, host_address, scenario_name, game_version, official, password_protected, player_count,
         queue_players_count, wait_time_estimation, player_count_limit, mods_count, mods_size_bytes, last_seen_at
       FROM game_servers WHERE id = ?`,
    ).get(id) as ServerMetricsRow | null;
  },

  /** The registered servers (the servers feature's table) with what an A2S query needs, oldest first. */
  registeredServers(sqlite: Database): { id: string; name: string; connection_type: "panel" | "sftp"; query_address: string | null }[] {
    return stmt(sqlite, "SELECT id, name, connection_type, query_address FROM servers ORDER BY created_at").all() as {
      id: string;
      name: string;
      connection_type: "panel" | "sftp";
      query_address: string | null;
    }[];
  },
};

/** What the metrics path shows of a server. */
export type ServerMetricsRow = Pick<
  ServerRow,
  | "id" | "name" | "host_address" | "scenario_name" | "game_version" | "official" | "password_protected" | "player_count"
  | "queue_players_count" | "wait_time_estimation" | "player_count_limit" | "mods_count" | "mods_size_bytes" | "last_seen_at"
>;

/** The communities (the communities feature's table) as the live feature reads them. */
export const communitiesRepo = {
  byId(sqlite: Database, id: string): { id: string; slug: string; name: string } | null {
    return stmt(sqlite, `SELECT id, slug, name FROM communities WHERE id = ?`).get(id) as { id: string; slug: string; name: string } | null;
  },

  bySlug(sqlite: Database, slug: string): { id: string; slug: string; name: string } | null {
    return stmt(sqlite, `SELECT id, slug, name FROM communities WHERE slug = ?`).get(slug) as { id: string; slug: string; name: string } | null;
  },

  /** Whether the user owns or belongs to the community. */
  isMember(sqlite: Database, communityId: string, userId: string): boolean {
    return (
      stmt(
        sqlite,
        `SELECT 1 FROM communities c WHERE c.id = $c AND (c.owner_id = $u OR EXISTS
          (SELECT 1 FROM community_members m WHERE m.community_id = c.id AND m.user_id = $u))`,
      ).get({ c: communityId, u: userId }) !== null
    );
  },

  /**
   * A community's servers: all, those seen since `since` (online) with their players and queue,
   * and the times the online set changes at (the oldest online sighting, the newest older one).
   */
  serverSums(sqlite: Database, id: string, since: number): { total: number; online: number; players: number; queue: number; oldest_online: number | null; newest_offline: number | null } {
    return stmt(
      sqlite,
      `SELECT count(*) AS total,
         count(CASE WHEN last_seen_at >= $since THEN 1 END) AS online,
         coalesce(sum(CASE WHEN last_seen_at >= $since THEN player_count END), 0) AS players,
         coalesce(sum(CASE WHEN last_seen_at >= $since THEN queue_players_count END), 0) AS queue,
         min(CASE WHEN last_seen_at >= $since THEN last_seen_at END) AS oldest_online,
         max(CASE WHEN last_seen_at < $since THEN last_seen_at END) AS newest_offline
       FROM game_servers WHERE community_id = $id`,
    ).get({ id, since }) as { total: number; online: number; players: number; queue: number; oldest_online: number | null; newest_offline: number | null };
  },

  /** The community's public lists (the lists feature's table). */
  publicLists(sqlite: Database, id: string): number {
    return (stmt(sqlite, `SELECT count(*) AS n FROM lists WHERE community_id = ? AND is_public = 1`).get(id) as { n: number }).n;
  },
};
