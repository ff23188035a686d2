// Roll-ups (hourly job): raw 5-minute points → hourly buckets → 3-hour buckets, for servers,
// the global total and communities; retention deletes; the exact 7-day player average behind
// `popularity` and top-servers; and mod-size sums refreshed from the catalog. Each transaction is
// a bulk write (repository/state.ts withBulkWrite): the per-row generation triggers skip and
// servers_gen and series_gen move once at its end.
//
// Watermarks in live_state: `hourly_until` (every complete hour before it is rolled) and
// `3h_until`. Each run re-rolls the last rolled bucket too (INSERT OR REPLACE), so points that
// arrived late are counted; a run is idempotent. Readers combine buckets before the watermark
// with an on-the-fly aggregate of the newer data (never raw points older than 24 h).
import type { Deps } from "../../deps";
import { DAY, HOUR, THREE_HOURS } from "./windows";
import { liveRepo, withBulkWrite } from "./repository";
import { rollupRepo } from "./repository/rollup";
import { rebuildLiveSnapshot } from "./snapshot";

export const RAW_RETENTION = DAY;
export const HOURLY_RETENTION = 14 * DAY;
export const THREE_HOUR_RETENTION = 365 * DAY;
export const CHANGELOG_RETENTION = 365 * DAY;

const floorTo = (t: number, step: number) => Math.floor(t / step) * step;

export interface RollupResult {
  hours_rolled: number;
  blocks_rolled: number;
  averages?: "recomputed" | "advanced";
  deleted: { raw: number; hourly: number; three_hour: number; changelog: number };
}

/** Runs every roll-up step for `now`. Idempotent. */
export function runRollups(deps: Pick<Deps, "sqlite" | "clock">, now = deps.clock.now()): RollupResult {
  const { sqlite } = deps;
  const result: RollupResult = { hours_rolled: 0, blocks_rolled: 0, deleted: { raw: 0, hourly: 0, three_hour: 0, changelog: 0 } };
  const hourNow = floorTo(now, HOUR);
  const blockNow = floorTo(now, THREE_HOURS);

  // 1. Raw → hourly, one transaction per hour (bounded by raw retention: at most 25 hours).
  const hw = liveRepo.getState(sqlite, "hourly_until");
  const rawOldest = Math.min(rollupRepo.oldest(sqlite, "game_server_stats_raw") ?? Infinity, rollupRepo.oldest(sqlite, "live_global_stats_raw") ?? Infinity);
  let h = hw != null ? hw - HOUR : Number.isFinite(rawOldest) ? floorTo(rawOldest, HOUR) : hourNow;
  // Never re-roll an hour whose raw points retention may already have cut.
  h = Math.max(h, floorTo(now - RAW_RETENTION, HOUR) + HOUR);
  for (; h < hourNow; h += HOUR) {
    const hour = h;
    sqlite.transaction(() => withBulkWrite(sqlite, "rollup", () => rollupRepo.rollHour(sqlite, hour))).immediate();
    result.hours_rolled++;
  }
  liveRepo.setState(sqlite, "hourly_until", hourNow);

  // 2. Hourly → 3-hour, one transaction per block (bounded by hourly retention).
  const bw = liveRepo.getState(sqlite, "3h_until");
  const hourlyOldest = Math.min(
    rollupRepo.oldest(sqlite, "game_server_stats_hourly") ?? Infinity,
    rollupRepo.oldest(sqlite, "live_global_stats_hourly") ?? Infinity,
  );
  let b = bw != null ? bw - THREE_HOURS : Number.isFinite(hourlyOldest) ? floorTo(hourlyOldest, THREE_HOURS) : blockNow;
  b = Math.max(b, floorTo(now - HOURLY_RETENTION, THREE_HOURS) + THREE_HOURS);
  for (; b < blockNow; b += THREE_HOURS) {
    const block = b;
    sqlite.transaction(() => withBulkWrite(sqlite, "rollup", () => rollupRepo.rollBlock(sqlite, block))).immediate();
    result.blocks_rolled++;
  }
  liveRepo.setState(sqlite, "3h_until", blockNow);

  // 3. Retention. Rows exactly at the boundary are kept.
  sqlite
    .transaction(() => {
      result.deleted = withBulkWrite(sqlite, "rollup", () =>
        rollupRepo.deleteExpired(sqlite, {
          raw: now - RAW_RETENTION,
          hourly: now - HOURLY_RETENTION,
          block: now - THREE_HOUR_RETENTION,
          changelog: now - CHANGELOG_RETENTION,
        }),
      );
    })
    .immediate();

  // 4. 7-day averages: the window is the hourly buckets in [hourNow - 7 d, hourNow) plus the raw
  //    points after hourNow (scans add those as they come). Moving the window by an hour only
  //    subtracts the buckets that fell out of it (~5,000 rows); once a day, and on the first
  //    run, everything is recomputed exactly from the buckets (~1 s at 5,000 servers).
  //    Then mod-size sums from the catalog (sizes arrive after a mod is first seen).
  sqlite
    .transaction(() =>
      withBulkWrite(sqlite, "rollup", () => {
        const windowStart = hourNow - 7 * DAY;
        const prev = liveRepo.getState(sqlite, "avg7_from");
        if (prev == null || Math.floor(prev / DAY) !== Math.floor(windowStart / DAY) || windowStart < prev) {
          rollupRepo.recomputeAverages(sqlite, windowStart, hourNow);
          result.averages = "recomputed";
        } else if (windowStart > prev) {
          rollupRepo.advanceAverages(sqlite, prev, windowStart);
          result.averages = "advanced";
        }
        liveRepo.setState(sqlite, "avg7_from", windowStart);
        rollupRepo.refreshSizes(sqlite, now - HOUR);
        liveRepo.refreshModUsage(sqlite, now);
      }),
    )
    .immediate();
  // Averages and download sizes moved: readers switch to a snapshot of them after the commit.
  rebuildLiveSnapshot(sqlite, deps.clock.now());
  return result;
}
