// The stat series' answers (docs/live.md "Series and roll-ups"): GET /game-servers/:id/stats,
// /stats/global-players and /stats/community-players, their ranges, read from SQLite
// (repository/series.ts) and kept as UTF-8 JSON (series-cache.ts). The *Read functions read SQLite
// every time (the cache's source and the tests' truth), the *Body functions are what production
// sends (the bytes as kept), and the object functions parse that same text (the test app's strict
// response schemas check it).
import type { Database } from "bun:sqlite";
import type { Deps } from "../../deps";
import { toIso } from "../../shared/time";
import { cachedSeriesJson, cachedSeriesText, type SeriesText } from "./series-cache";
import { PointsWriter, avg } from "./series-days";
import { DAY, HOUR, RAW_WINDOW, THREE_HOURS } from "./windows";
import { getState } from "./repository/state";
import { requireCommunity, serverRow, serverSid } from "./lookups";
import { COMMUNITY_SERIES, GLOBAL_SERIES, SERVER_SERIES, seriesRepo, type Resolution, type SeriesDef, type SeriesParams, type SeriesRow } from "./repository/series";

export { COMMUNITY_SERIES, GLOBAL_SERIES, SERVER_SERIES, type SeriesRow };

const decoder = new TextDecoder();

export function resolutionFor(days: number): Resolution {
  if (days <= 1) return "raw";
  if (days <= 14) return "hourly";
  return "3h";
}

/**
 * The series at `now`, and the clock times `from`..`until` (inclusive) at which the same read
 * gives the same rows while nothing is written: the clock enters a read only through the start of
 * its range (the bucket `since`, the same for a whole step) and the raw cut (now − 24 h), which
 * drops raw points as it passes them (series-cache.ts keeps answers by these times).
 */
export function readSeriesAt(sqlite: Database, now: number, d: SeriesDef, key: string | number | null, days: number): { rows: SeriesRow[]; from: number; until: number } {
  const res = resolutionFor(days);
  const step = res === "3h" ? THREE_HOURS : HOUR;
  const params: SeriesParams = { rawFrom: now - RAW_WINDOW };
  if (d.key) params.key = key!;
  if (res !== "raw") {
    params.since = Math.floor((now - days * DAY) / step) * step;
    params.w1 = getState(sqlite, "hourly_until") ?? 0;
    if (res === "3h") params.w3 = getState(sqlite, "3h_until") ?? 0;
  }
  const tailRows = seriesRepo.tail(sqlite, d, res, params);
  const headRows = seriesRepo.head(sqlite, d, res, params);
  if (!headRows) {
    // Raw points from now − 24 h: the same while the cut has not reached the first of them (and
    // has not moved back before this read's cut).
    return { rows: tailRows, from: now, until: tailRows.length ? tailRows[0]!.time + RAW_WINDOW : Infinity };
  }
  const rows = tailRows.length === 0 ? headRows : headRows.concat(tailRows);
  // The same bucket start for a whole step; raw points are read from max(since, w1, cut), which
  // is max(since, w1) while the cut stays at or before it.
  const since = params.since!;
  const rawFloor = Math.max(since, params.w1!);
  return { rows, from: since + days * DAY, until: Math.min(since + days * DAY + step - 1, rawFloor + RAW_WINDOW) };
}

function oldestOf(deps: Pick<Deps, "sqlite">, d: SeriesDef, key: string | number | null): string | null {
  const t = seriesRepo.oldest(deps.sqlite, d, key);
  return t == null ? null : toIso(t);
}

/**
 * toIso of series times: bucket and scan times are the same for every server (a year of 3-hour
 * buckets is 2,920 times), and formatting them was a third of an uncached 365-day read. At most
 * 20,000 kept (~2 MB), then cleared.
 */
const isoOfTime = new Map<number, string>();
function seriesIso(t: number): string {
  let s = isoOfTime.get(t);
  if (s === undefined) {
    if (isoOfTime.size >= 20_000) isoOfTime.clear();
    isoOfTime.set(t, (s = toIso(t)));
  }
  return s;
}

// Each series answer is read once per database state and clock step and kept as its UTF-8 JSON
// (series-cache.ts); the *Read functions read SQLite every time (the cache's source and the tests'
// truth), the *Body functions are what production sends (the bytes as kept),

/** A server's series from SQLite (404 for an unknown server). */
export function serverStatsRead(deps: Pick<Deps, "sqlite">, id: string, days: number, now: number) {
  const r = serverRow(deps.sqlite, id);
  const s = readSeriesAt(deps.sqlite, now, SERVER_SERIES, r.sid, days);
  const points = s.rows.map((p) => ({
    time: seriesIso(p.time),
    player_count: avg(p.ps, p.n),
    queue_players_count: avg(p.qs, p.n),
    wait_time_estimation: avg(p.xs, p.n),
    player_count_max: p.pm,
  }));
  return { points, from: s.from, until: s.until };
}


/**
 * The same answer as JSON text, written from the server's day rows (series-days.ts: one statement
 * for the buckets before the watermark, then the tail as in readSeriesAt) without the point
 * objects; the same clock window as readSeriesAt. Null when a day row is not of the compact form
 * (a bucket value that is not an integer, a time off the step): the caller reads the bucket rows.
 */
export function serverStatsText(sqlite: Database, now: number, sid: number, days: number): SeriesText | null {
  const res = resolutionFor(days);
  const params: SeriesParams = { rawFrom: now - RAW_WINDOW, key: sid };
  const w = new PointsWriter();
  if (res === "raw") {
    const rows = seriesRepo.rawPoints(sqlite, sid, params.rawFrom);
    w.rawRows(rows);
    return { body: w.body(), from: now, until: rows.length ? rows[0]![0]! + RAW_WINDOW : Infinity };
  }
  const step = res === "3h" ? THREE_HOURS : HOUR;
  const since = Math.floor((now - days * DAY) / step) * step;
  params.since = since;
  params.w1 = getState(sqlite, "hourly_until") ?? 0;
  if (res === "3h") params.w3 = getState(sqlite, "3h_until") ?? 0;
  const headTo = (res === "3h" ? params.w3 : params.w1)!;
  if (since < headTo) {
    const text = seriesRepo.dayText(sqlite, res, sid, Math.floor(since / DAY), Math.floor((headTo - 1) / DAY));
    if (text != null && !w.days(text, step, since, headTo)) return null;
  }
  w.rows(seriesRepo.tailValues(sqlite, SERVER_SERIES, res, params));
  const rawFloor = Math.max(since, params.w1);
  return { body: w.body(), from: since + days * DAY, until: Math.min(since + days * DAY + step - 1, rawFloor + RAW_WINDOW) };
}

export function serverStatsBody(deps: Pick<Deps, "sqlite" | "clock">, id: string, days: number): Uint8Array {
  const now = deps.clock.now();
  return cachedSeriesText(deps.sqlite, `server ${id} ${days}`, now, () => {
    const a = serverStatsText(deps.sqlite, now, serverSid(deps.sqlite, id), days);
    if (a) return a;
    const s = serverStatsRead(deps, id, days, now);
    return { body: JSON.stringify(s.points), from: s.from, until: s.until };
  });
}

export const serverStats = (deps: Pick<Deps, "sqlite" | "clock">, id: string, days: number) =>
  JSON.parse(decoder.decode(serverStatsBody(deps, id, days))) as ReturnType<typeof serverStatsRead>["points"];

export function serverStatsRange(deps: Pick<Deps, "sqlite">, id: string) {
  const r = serverRow(deps.sqlite, id);
  return { oldest: oldestOf(deps, SERVER_SERIES, r.sid) };
}

/** The global series from SQLite. */
export function globalPlayersRead(deps: Pick<Deps, "sqlite">, days: number, now: number) {
  const s = readSeriesAt(deps.sqlite, now, GLOBAL_SERIES, null, days);
  const points = s.rows.map((p) => ({
    time: seriesIso(p.time),
    total_players: avg(p.ps, p.n),
    total_servers_online: avg(p.xs, p.n),
    total_players_max: p.pm,
  }));
  return { points, from: s.from, until: s.until };
}

export function globalPlayersBody(deps: Pick<Deps, "sqlite" | "clock">, days: number): Uint8Array {
  const now = deps.clock.now();
  return cachedSeriesJson(deps.sqlite, `global ${days}`, now, () => globalPlayersRead(deps, days, now));
}

export const globalPlayers = (deps: Pick<Deps, "sqlite" | "clock">, days: number) =>
  JSON.parse(decoder.decode(globalPlayersBody(deps, days))) as ReturnType<typeof globalPlayersRead>["points"];

export const globalPlayersRange = (deps: Pick<Deps, "sqlite">) => ({ oldest: oldestOf(deps, GLOBAL_SERIES, null) });

/** A community's series from SQLite (404 for an unknown community). */
export function communityPlayersRead(deps: Pick<Deps, "sqlite">, communityId: string, days: number, now: number) {
  requireCommunity(deps.sqlite, communityId);
  const s = readSeriesAt(deps.sqlite, now, COMMUNITY_SERIES, communityId, days);
  const points = s.rows.map((p) => ({
    time: seriesIso(p.time),
    total_players: avg(p.ps, p.n),
    total_queue: avg(p.qs, p.n),
    online_servers: avg(p.xs, p.n),
    total_players_max: p.pm,
  }));
  return { points, from: s.from, until: s.until };
}

export function communityPlayersBody(deps: Pick<Deps, "sqlite" | "clock">, communityId: string, days: number): Uint8Array {
  const now = deps.clock.now();
  return cachedSeriesJson(deps.sqlite, `community ${communityId} ${days}`, now, () => communityPlayersRead(deps, communityId, days, now));
}

export const communityPlayers = (deps: Pick<Deps, "sqlite" | "clock">, communityId: string, days: number) =>
  JSON.parse(decoder.decode(communityPlayersBody(deps, communityId, days))) as ReturnType<typeof communityPlayersRead>["points"];

export function communityPlayersRange(deps: Pick<Deps, "sqlite">, communityId: string) {
  requireCommunity(deps.sqlite, communityId);
  return { oldest: oldestOf(deps, COMMUNITY_SERIES, communityId) };
}

