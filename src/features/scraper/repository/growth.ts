// The growth roll-up's statements (scraper/growth.ts): the current values of every catalog entry
// compared with its last row, the rows written, the buckets, the 180-day retention.
import type { Database } from "bun:sqlite";
import { statementSet } from "../../../db/statements";

function prepare(sqlite: Database) {
  return {
    hasBucket: sqlite.prepare<{ bucket: number }, [number]>("SELECT bucket FROM mod_growth_buckets WHERE bucket = ?"),
    // Current values of every scraped mod, into a temp table (compared twice below).
    dropCur: () => sqlite.prepare("DROP TABLE IF EXISTS temp.mod_growth_cur"),
    makeCur: () => sqlite.prepare(`
      CREATE TEMP TABLE mod_growth_cur AS
      WITH usage AS (
        SELECT gsm.workshop_id, count(*) AS u, sum(gs.player_count) AS p
        FROM game_server_mods_by_sid gsm JOIN game_servers gs ON gs.sid = gsm.server_sid
        WHERE gs.last_seen_at >= $since GROUP BY gsm.workshop_id),
      fwd AS (SELECT workshop_id, count(*) AS n FROM mod_dependencies GROUP BY workshop_id),
      rev AS (SELECT depends_on_id AS workshop_id, count(*) AS n FROM mod_dependencies GROUP BY depends_on_id)
      SELECT c.workshop_id, c.u, c.p, c.d, c.r FROM (
        SELECT m.workshop_id, coalesce(u.u, 0) AS u, coalesce(u.p, 0) AS p, coalesce(f.n, 0) AS d, coalesce(r.n, 0) AS r
        FROM mods m
        LEFT JOIN usage u ON u.workshop_id = m.workshop_id
        LEFT JOIN fwd f ON f.workshop_id = m.workshop_id
        LEFT JOIN rev r ON r.workshop_id = m.workshop_id
        WHERE m.state != 'unknown') c
      LEFT JOIN mod_growth_latest l ON l.workshop_id = c.workshop_id
      WHERE l.workshop_id IS NULL OR l.used_by_servers != c.u OR l.players_using != c.p
         OR l.dependencies != c.d OR l.dependents != c.r`),
    write: () => sqlite.prepare(`
      INSERT INTO mod_growth (workshop_id, bucket, used_by_servers, players_using, dependencies, dependents)
      SELECT workshop_id, $bucket, u, p, d, r FROM temp.mod_growth_cur WHERE true
      ON CONFLICT(workshop_id, bucket) DO UPDATE SET used_by_servers = excluded.used_by_servers,
        players_using = excluded.players_using, dependencies = excluded.dependencies, dependents = excluded.dependents`),
    latest: () => sqlite.prepare(`
      INSERT INTO mod_growth_latest (workshop_id, bucket, used_by_servers, players_using, dependencies, dependents)
      SELECT workshop_id, $bucket, u, p, d, r FROM temp.mod_growth_cur WHERE true
      ON CONFLICT(workshop_id) DO UPDATE SET bucket = excluded.bucket, used_by_servers = excluded.used_by_servers,
        players_using = excluded.players_using, dependencies = excluded.dependencies, dependents = excluded.dependents`),
    oldestBucket: sqlite.prepare<{ b: number | null }, []>("SELECT min(bucket) AS b FROM mod_growth_buckets"),
    addBucket: sqlite.prepare("INSERT OR IGNORE INTO mod_growth_buckets (bucket, created_at) VALUES (?, ?)"),
    firstKept: sqlite.prepare<{ b: number | null }, [number]>("SELECT min(bucket) AS b FROM mod_growth_buckets WHERE bucket >= ?"),
    // Retention: a mod's last row before the cut-off moves to the first kept bucket (unless it
    // has a row there), so carried-forward values survive; then older rows go.
    carry: sqlite.prepare(`
      INSERT OR IGNORE INTO mod_growth (workshop_id, bucket, used_by_servers, players_using, dependencies, dependents)
      SELECT g.workshop_id, $first, g.used_by_servers, g.players_using, g.dependencies, g.dependents
      FROM mod_growth_latest l JOIN mod_growth g ON g.workshop_id = l.workshop_id
        AND g.bucket = (SELECT max(bucket) FROM mod_growth g2 WHERE g2.workshop_id = l.workshop_id AND g2.bucket < $cutoff)
      WHERE true`),
    prune: sqlite.prepare("DELETE FROM mod_growth WHERE workshop_id IN (SELECT workshop_id FROM mod_growth_latest) AND bucket < ?"),
    pruneBuckets: sqlite.prepare("DELETE FROM mod_growth_buckets WHERE bucket < ?"),
  };
}

/** The growth job's statements on this connection (prepared once, held by the connection: db/statements.ts statementSet). */
export const growthStatements = statementSet(prepare);

