// The deploy part's SQL statements written by hand (the servers, credentials and deployments it
// reads and writes through drizzle are in ../repository.ts): what the pre-flight reads of the
// catalog's tables and of the live source's game_servers (public tables: docs/architecture.md
// "Features and their public faces"; the servers feature is below live, so it cannot call it),
// the items scan's servers and a server's deployed versions, and the queued auto-deploy job. Each
// is `sqlite.query`, compiled once per connection and kept by bun:sqlite under its text.
import type { Database } from "bun:sqlite";

// ---- the pre-flight (preflight.ts, game-version.ts)

/**
 * The game version the live source last reported for the address: the entry at `hostPort`
 * first, else the last seen at `host`'s IP; null when it has none.
 */
export const liveGameVersion = (sqlite: Database, hostPort: string, host: string) =>
  (
    sqlite
      .query(
        `SELECT game_version FROM game_servers WHERE (host_address = ?1 OR ip = ?2) AND game_version <> ''
       ORDER BY host_address = ?1 DESC, last_seen_at DESC LIMIT 1`,
      )
      .get(hostPort, host) as { game_version: string } | null
  )?.game_version ?? null;

/** Every version the catalog knows of these mods, newest first per mod. */
export const versionRows = (sqlite: Database, ids: readonly string[]) =>
  sqlite
    .query(
      `SELECT v.workshop_id, v.version, v.game_version, v.size_bytes, v.created_at FROM mod_versions v
       WHERE v.workshop_id IN (SELECT value FROM json_each(?)) ORDER BY v.workshop_id, v.created_at DESC`,
    )
    .all(JSON.stringify(ids)) as { workshop_id: string; version: string; game_version: string | null; size_bytes: number; created_at: number | null }[];

/** One row per id: the catalog's name, latest version, its game version and size (defaults for a mod it lacks). */
export const modRows = (sqlite: Database, ids: readonly string[]) =>
  sqlite
    .query(
      `SELECT j.value AS workshop_id, COALESCE(NULLIF(m.name, ''), j.value) AS name, COALESCE(m.version, '') AS version,
              m.game_version, COALESCE(m.size_bytes, 0) AS size_bytes
       FROM json_each(?) j LEFT JOIN mods m ON m.workshop_id = j.value`,
    )
    .all(JSON.stringify(ids)) as { workshop_id: string; name: string; version: string; game_version: string | null; size_bytes: number }[];

/**
 * The mods that provide the scenario: by its whole id, or by the resource GUID (`guid`, null when
 * the id has none) at its start; the most subscribed first.
 */
export const scenarioProviders = (sqlite: Database, scenarioId: string, guid: string | null) =>
  sqlite
    .query(
      `SELECT s.workshop_id, MAX(s.name) AS scenario_name, COALESCE(NULLIF(m.name, ''), s.workshop_id) AS mod_name
           FROM mod_scenarios s LEFT JOIN mods m ON m.workshop_id = s.workshop_id
           WHERE s.game_id = ?1 COLLATE NOCASE OR (?2 IS NOT NULL AND upper(substr(s.game_id, 1, 18)) = '{' || ?2 || '}')
           GROUP BY s.workshop_id ORDER BY m.subscriber_count DESC, s.workshop_id`,
    )
    .all(scenarioId, guid) as { workshop_id: string; scenario_name: string; mod_name: string }[];

/** The resource paths (lower case) read from these mods' data.pak, each with its version and when that was read (0: unknown). */
export const itemPathRows = (sqlite: Database, ids: readonly string[]) =>
  sqlite
    .query(
      `SELECT i.workshop_id, i.version, lower(i.path) AS path, COALESCE(s.scanned_at, 0) AS scanned_at
       FROM mod_items i LEFT JOIN mod_item_scans s ON s.workshop_id = i.workshop_id AND s.version = i.version
       WHERE i.workshop_id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(ids)) as { workshop_id: string; version: string; path: string; scanned_at: number }[];

// ---- the items scan (addons-over-sftp.ts)

/** The snapshot (JSON of {modId, version}) of the server's last successful deploy; null when none or it kept none. */
export const lastDeployedSnapshot = (sqlite: Database, serverId: string) =>
  (
    sqlite
      .query("SELECT snapshot_json FROM deployments WHERE server_id = ? AND kind = 'deploy' AND status = 'success' ORDER BY finished_at DESC LIMIT 1")
      .get(serverId) as { snapshot_json: string | null } | null
  )?.snapshot_json ?? null;

/** The SFTP servers with credentials: all, only `serverId`, and/or only those whose items are scanned on schedule. */
export const sftpServerIds = (sqlite: Database, opts: { serverId?: string; scheduledOnly?: boolean }) =>
  (
    sqlite
      .query(
        `SELECT s.id FROM servers s JOIN server_credentials c ON c.server_id = s.id
       WHERE s.connection_type = 'sftp' ${opts.serverId ? "AND s.id = $id" : ""} ${opts.scheduledOnly ? "AND s.items_scan = 1" : ""}`,
      )
      .all(opts.serverId ? { id: opts.serverId } : {}) as { id: string }[]
  ).map((r) => r.id);

// ---- auto-deploy (jobs.ts)

/** The queued job of `type` for the list (its payload's list_id), null when none is queued. */
export const queuedJobForList = (sqlite: Database, type: string, listId: string) =>
  (
    sqlite
      .query("SELECT id FROM jobs WHERE type = ? AND status = 'queued' AND json_extract(payload, '$.list_id') = ? LIMIT 1")
      .get(type, listId) as { id: string } | null
  )?.id ?? null;
