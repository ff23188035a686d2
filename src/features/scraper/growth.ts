// Growth snapshots of every mod: one bucket per 3 hours, 180 days kept. Stored compactly: a
// mod gets a row only when its values differ from its previous row (readers carry values
// forward), so idle mods cost nothing after their first snapshot. One transaction per run.
import type { Database } from "bun:sqlite";
import { statementSet } from "../../db/statements";

export const BUCKET_MS = 3 * 3_600_000;
export const RETENTION_DAYS = 180;
export const RETENTION_BUCKETS = (RETENTION_DAYS * 86_400_000) / BUCKET_MS; // 1440
/** The live-usage window of the spec: servers seen in the last hour. */
export const LIVE_WINDOW_MS = 3_600_000;

export const bucketOf = (ms: number) => Math.floor(ms / BUCKET_MS);
export const bucketTime = (bucket: number) => bucket * BUCKET_MS;

export interface RollupResult {
  bucket: number;
  skipped: boolean;
  written: number;
  pruned: number;
}

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
const stmts = statementSet(prepare);

/**
 * Writes the snapshot of the 3-hour bucket containing `now` (idempotent: a bucket already
 * written is skipped) and applies the 180-day retention.
 */
export function rollupGrowth(sqlite: Database, now: number): RollupResult {
  const s = stmts(sqlite);
  const bucket = bucketOf(now);
  if (s.hasBucket.get(bucket)) return { bucket, skipped: true, written: 0, pruned: 0 };
  return sqlite.transaction(() => {
    // Prepared per run: these statements refer to a temp table that exists only during the run.
    s.dropCur().run();
    s.makeCur().run({ since: now - LIVE_WINDOW_MS });
    const written = s.write().run({ bucket }).changes;
    s.latest().run({ bucket });
    s.dropCur().run();
    s.addBucket.run(bucket, now);
    const pruned = pruneGrowth(sqlite, bucket);
    return { bucket, skipped: false, written, pruned };
  }).immediate();
}

/** Drops snapshots older than 180 days before `currentBucket` (values carried to the first kept bucket). */
export function pruneGrowth(sqlite: Database, currentBucket: number): number {
  const s = stmts(sqlite);
  const cutoff = currentBucket - RETENTION_BUCKETS + 1;
  const oldest = s.oldestBucket.get()?.b ?? null;
  if (oldest === null || oldest >= cutoff) return 0; // nothing older than the window
  const first = s.firstKept.get(cutoff)?.b ?? null;
  if (first !== null) s.carry.run({ first, cutoff });
  const pruned = s.prune.run(cutoff).changes;
  s.pruneBuckets.run(cutoff);
  return pruned;
}
