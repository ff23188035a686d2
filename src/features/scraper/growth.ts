// Growth snapshots of every mod: one bucket per 3 hours, 180 days kept. Stored compactly: a
// mod gets a row only when its values differ from its previous row (readers carry values
// forward), so idle mods cost nothing after their first snapshot. One transaction per run.
import type { Database } from "bun:sqlite";
import { growthStatements } from "./repository";

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

const stmts = growthStatements;

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
