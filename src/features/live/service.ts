// The read side of live game servers and global statistics, community assignment and
// copy-from-server. Knows nothing of HTTP; throws AppError.
import type { Database } from "bun:sqlite";
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { toIso } from "../../shared/time";
import { requireListOwner, resolveListAccess, applyImport, listFull, MAX_MODS, createList } from "../lists";
import type { ListQuery, ServerEntry, ServerMod } from "./model";
import { ONLINE_WINDOW, toEntry } from "./entry";
import { onlineDetailBytes } from "./detail";
import { invalidateLiveSnapshot, liveSnapshot, onlineRow, onlineRowIndex, querySnapshot, querySnapshotBytes, type LiveSnapshot, type TopMod } from "./snapshot";

export { ONLINE_WINDOW, toEntry };
import { cachedSeriesJson, cachedSeriesText, type SeriesText } from "./series-cache";
import { PointsWriter, avg } from "./series-days";
import { DAY, HOUR, RAW_WINDOW, SERVER_COLUMNS, THREE_HOURS, liveRepo, stmt, type ChangeEntry, type ServerRow } from "./repository";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const notFound = () => new AppError(404, "game server not found");

/**
 * GET /game-servers: live servers (in the latest scan and seen within the last hour), filtered and
 * sorted, from the in-memory snapshot of the last scan (snapshot.ts). Search (search.ts): words
 * match word starts of the name or scenario, address-like pieces the address; names holding the
 * whole query first.
 */
export function listServers(deps: Pick<Deps, "sqlite" | "clock">, q: ListQuery): ServerEntry[] {
  return querySnapshot(liveSnapshot(deps.sqlite, deps.clock.now()), q, deps.clock.now() - ONLINE_WINDOW);
}

/** The same page as UTF-8 JSON copied from entries encoded once per snapshot (what the route sends). */
export function listServersBytes(deps: Pick<Deps, "sqlite" | "clock">, q: ListQuery): Uint8Array {
  return querySnapshotBytes(liveSnapshot(deps.sqlite, deps.clock.now()), q, deps.clock.now() - ONLINE_WINDOW);
}

/** The same page as JSON text: the bytes the route sends, decoded. */
export const listServersJson = (deps: Pick<Deps, "sqlite" | "clock">, q: ListQuery): string => decoder.decode(listServersBytes(deps, q));

export function serverRow(sqlite: Database, id: string): ServerRow {
  const r = stmt(sqlite, `SELECT ${SERVER_COLUMNS} FROM game_servers g WHERE g.id = ?`).get(id) as ServerRow | null;
  if (!r) throw notFound();
  return r;
}

/** A server's series key (`sid`) by its id; 404 for an unknown server. */
function serverSid(sqlite: Database, id: string): number {
  const r = stmt(sqlite, "SELECT sid FROM game_servers WHERE id = ?").values(id) as [number][];
  if (r.length === 0) throw notFound();
  return r[0]![0];
}

const MOD_SELECT = `SELECT gm.workshop_id, coalesce(nullif(gm.name, ''), m.name, '') AS name, gm.version, gm.position,
    coalesce(m.size_bytes, 0) AS size_bytes, m.image_url, nullif(m.version, '') AS latest_version,
    (m.workshop_id IS NOT NULL) AS in_catalog
  FROM game_server_mods gm LEFT JOIN mods m ON m.workshop_id = gm.workshop_id
  WHERE gm.server_id = $id ORDER BY gm.position`;

const toMod = (r: any): ServerMod => ({ ...r, in_catalog: !!r.in_catalog });

/**
 * GET /game-servers/:id as UTF-8 JSON (what the route sends). An online server's answer is built
 * from per-mod item fragments and kept per live snapshot and catalog generation (detail.ts); an
 * offline server (history) is read from SQLite on every request.
 */
export function serverDetailBytes(deps: Pick<Deps, "sqlite" | "clock">, id: string): Uint8Array {
  const now = deps.clock.now();
  const snap = liveSnapshot(deps.sqlite, now);
  const i = onlineRowIndex(snap, id, now - ONLINE_WINDOW);
  if (i < 0) return encoder.encode(JSON.stringify(detailOf(deps.sqlite, serverRow(deps.sqlite, id), now)));
  const r = snap.rows[i]!;
  return onlineDetailBytes(deps.sqlite, snap, r, i, r.last_seen_at >= now - ONLINE_WINDOW, () => detailOf(deps.sqlite, r, now));
}

/** The same answer as JSON text. */
export const serverDetailJson = (deps: Pick<Deps, "sqlite" | "clock">, id: string): string => decoder.decode(serverDetailBytes(deps, id));

/** The same answer as an object: the online server's row from the snapshot, the rest from SQLite. */
export function serverDetail(deps: Pick<Deps, "sqlite" | "clock">, id: string) {
  const now = deps.clock.now();
  const r = onlineRow(liveSnapshot(deps.sqlite, now), id, now - ONLINE_WINDOW) ?? serverRow(deps.sqlite, id);
  return detailOf(deps.sqlite, r, now);
}

/** The detail's `server`: the list entry and the address, wait estimate, online flag and first sighting. */
const serverOf = (r: ServerRow, now: number) => ({
  ...toEntry(r),
  ip: r.ip,
  port: r.port,
  wait_time_estimation: r.wait_time_estimation,
  online: r.last_seen_at >= now - ONLINE_WINDOW,
  first_seen_at: toIso(r.first_seen_at),
});

/**
 * A server's detail answer from its row (from the snapshot or SQLite) and SQLite: the SQL path
 * (offline servers, the strict test app) and the truth detail.ts's text is checked against. Items
 * are ordered by position, type and name, then path and key (a total order: mod_items' key is
 * (workshop_id, version, item_key)), so a server's items are its mods' items in their order.
 */
export function detailOf(sqlite: Database, r: ServerRow, now: number) {
  const id = r.id;
  const mods = (stmt(sqlite, MOD_SELECT).all({ id }) as any[]).map(toMod);
  // Items of the version the server runs when it was scanned, else of the catalog's latest.
  const mod_items = stmt(
    sqlite,
    `SELECT gm.workshop_id, coalesce(nullif(gm.name, ''), m.name, '') AS mod_name, i.version, i.item_type AS type,
        i.name, i.path, i.guid
     FROM game_server_mods gm
     LEFT JOIN mods m ON m.workshop_id = gm.workshop_id
     JOIN mod_items i ON i.workshop_id = gm.workshop_id AND i.version = coalesce(
       (SELECT s.version FROM mod_item_scans s WHERE s.workshop_id = gm.workshop_id AND s.version = gm.version), m.version)
     WHERE gm.server_id = $id
     ORDER BY gm.position, i.item_type, i.name, i.path, i.item_key`,
  ).all({ id }) as any[];
  return { server: serverOf(r, now), mods, mod_items };
}

const pagesOf = (total: number, limit: number) => Math.ceil(total / limit);

export function serverMods(deps: Pick<Deps, "sqlite">, id: string, page: number, limit: number) {
  serverRow(deps.sqlite, id);
  const agg = stmt(
    deps.sqlite,
    `SELECT count(*) AS total, coalesce(sum(m.size_bytes), 0) AS size FROM game_server_mods gm
     LEFT JOIN mods m ON m.workshop_id = gm.workshop_id WHERE gm.server_id = ?`,
  ).get(id) as { total: number; size: number };
  const items = (stmt(deps.sqlite, `${MOD_SELECT} LIMIT $limit OFFSET $offset`).all({ id, limit, offset: (page - 1) * limit }) as any[]).map(
    toMod,
  );
  return { items, total: agg.total, total_size_bytes: agg.size, page, pages: pagesOf(agg.total, limit), limit };
}

/**
 * A server's mod changelog, newest first: its game_server_mod_events rows (one per scan that
 * changed its list, a3_changelog_events.sql) newest first, each one's changes last to first; only
 * the rows on the page are read and parsed.
 */
export function modChangelog(deps: Pick<Deps, "sqlite">, id: string, page: number, limit: number) {
  const r = serverRow(deps.sqlite, id);
  const events = stmt(deps.sqlite, `SELECT id, n FROM game_server_mod_events WHERE server_sid = ? ORDER BY id DESC`).values(r.sid) as [
    number,
    number,
  ][];
  let total = 0;
  for (const e of events) total += e[1];
  // A first sighting held by reference reads in full through game_server_mod_first_changes
  // (a7_first_sight_changelog.sql), the view its triggers copy from.
  const read = stmt(
    deps.sqlite,
    `SELECT e.time, coalesce((SELECT f.changes FROM game_server_mod_first_changes f WHERE f.id = e.id), e.changes) AS changes
     FROM game_server_mod_events e WHERE e.id = ?`,
  );
  const items: ReturnType<typeof changeItem>[] = [];
  let skip = (page - 1) * limit;
  for (const [eventId, n] of events) {
    if (items.length >= limit) break;
    if (skip >= n) {
      skip -= n;
      continue;
    }
    const e = read.get(eventId) as { time: number; changes: string };
    const changes = JSON.parse(e.changes) as ChangeEntry[];
    const timestamp = toIso(e.time);
    for (let k = changes.length - 1 - skip; k >= 0 && items.length < limit; k--) items.push(changeItem(timestamp, changes[k]!));
    skip = 0;
  }
  return { items, total, page, pages: pagesOf(total, limit), limit };
}

const changeItem = (timestamp: string, [action, workshop_id, mod_name, old_version, new_version, size_bytes]: ChangeEntry) => ({
  timestamp,
  action,
  workshop_id,
  mod_name,
  old_version,
  new_version,
  size_bytes,
});

// ---------------------------------------------------------------------------------------------
// Stat series. Every series (server, global, community) has a raw table and hourly and 3-hour
// bucket tables; a reader combines buckets before the roll-up watermarks with an aggregate of
// the newer rows, so the latest hour shows before it is rolled, and raw points older than 24 h
// are never read. Columns are normalised to (time, n, ps, pm, qs, xs): x is wait time for
// servers and the online-server count for the global and community series.

interface SeriesDef {
  raw: string;
  hourly: string;
  threeHour: string;
  key: string | null;
  x: { raw: string; bucket: string };
  xMaxBucket: string;
}

const SERVER_SERIES: SeriesDef = {
  raw: "game_server_stats_raw",
  hourly: "game_server_stats_hourly",
  threeHour: "game_server_stats_3h",
  key: "sid",
  x: { raw: "wait", bucket: "wait_sum" },
  xMaxBucket: "0",
};
const GLOBAL_SERIES: SeriesDef = {
  raw: "live_global_stats_raw",
  hourly: "live_global_stats_hourly",
  threeHour: "live_global_stats_3h",
  key: null,
  x: { raw: "servers", bucket: "servers_sum" },
  xMaxBucket: "servers_max",
};
const COMMUNITY_SERIES: SeriesDef = { ...GLOBAL_SERIES, raw: "live_community_stats_raw", hourly: "live_community_stats_hourly", threeHour: "live_community_stats_3h", key: "community_id" };

export interface SeriesRow {
  time: number;
  n: number;
  ps: number;
  pm: number;
  qs: number;
  xs: number;
}

export function resolutionFor(days: number): "raw" | "hourly" | "3h" {
  if (days <= 1) return "raw";
  if (days <= 14) return "hourly";
  return "3h";
}

/**
 * Two statements per read: the bucket table before its watermark, straight from the primary
 * key in time order (no sort), and the small tail (newer hourly buckets and raw points)
 * aggregated into buckets of the resolution. Their times never overlap.
 */
function seriesSql(d: SeriesDef, res: "raw" | "hourly" | "3h"): { head: string | null; tail: string } {
  const k = d.key ? `${d.key} = $key AND ` : "";
  const raw = `SELECT time, 1 AS n, players AS ps, players AS pm, queue AS qs, ${d.x.raw} AS xs FROM ${d.raw}`;
  if (res === "raw") return { head: null, tail: `${raw} WHERE ${k}time >= $rawFrom ORDER BY time` };
  const bucket = (t: string) => `SELECT time, n, players_sum AS ps, players_max AS pm, queue_sum AS qs, ${d.x.bucket} AS xs FROM ${t}`;
  const step = res === "hourly" ? HOUR : THREE_HOURS;
  const parts: string[] = [];
  let head: string;
  if (res === "3h") {
    head = `${bucket(d.threeHour)} WHERE ${k}time >= $since AND time < $w3 ORDER BY time`;
    parts.push(`${bucket(d.hourly)} WHERE ${k}time >= max($since, $w3) AND time < $w1`);
  } else {
    head = `${bucket(d.hourly)} WHERE ${k}time >= $since AND time < $w1 ORDER BY time`;
  }
  parts.push(`${raw} WHERE ${k}time >= max($since, $w1, $rawFrom)`);
  const tail = `SELECT (time / ${step}) * ${step} AS time, sum(n) AS n, sum(ps) AS ps, max(pm) AS pm, sum(qs) AS qs, sum(xs) AS xs
    FROM (${parts.join(" UNION ALL ")}) GROUP BY 1 ORDER BY 1`;
  return { head, tail };
}

/**
 * The series at `now`, and the clock times `from`..`until` (inclusive) at which the same read
 * gives the same rows while nothing is written: the clock enters a read only through the start of
 * its range (the bucket `since`, the same for a whole step) and the raw cut (now − 24 h), which
 * drops raw points as it passes them (series-cache.ts keeps answers by these times).
 */
function readSeriesAt(sqlite: Database, now: number, d: SeriesDef, key: string | number | null, days: number): { rows: SeriesRow[]; from: number; until: number } {
  const res = resolutionFor(days);
  const step = res === "3h" ? THREE_HOURS : HOUR;
  const params: Record<string, string | number> = { rawFrom: now - RAW_WINDOW };
  if (d.key) params.key = key!;
  if (res !== "raw") {
    params.since = Math.floor((now - days * DAY) / step) * step;
    params.w1 = liveRepo.getState(sqlite, "hourly_until") ?? 0;
    if (res === "3h") params.w3 = liveRepo.getState(sqlite, "3h_until") ?? 0;
  }
  const { head, tail } = seriesSql(d, res);
  const tailRows = stmt(sqlite, tail).all(tailParams(params, res)) as SeriesRow[];
  if (!head) {
    // Raw points from now − 24 h: the same while the cut has not reached the first of them (and
    // has not moved back before this read's cut).
    return { rows: tailRows, from: now, until: tailRows.length ? tailRows[0]!.time + RAW_WINDOW : Infinity };
  }
  const headRows = stmt(sqlite, head).all(headParams(params, res)) as SeriesRow[];
  const rows = tailRows.length === 0 ? headRows : headRows.concat(tailRows);
  // The same bucket start for a whole step; raw points are read from max(since, w1, cut), which
  // is max(since, w1) while the cut stays at or before it.
  const since = params.since as number;
  const rawFloor = Math.max(since, params.w1 as number);
  return { rows, from: since + days * DAY, until: Math.min(since + days * DAY + step - 1, rawFloor + RAW_WINDOW) };
}

// bun:sqlite (strict) rejects bindings a statement does not use: pass each only its own.
function headParams(p: Record<string, string | number>, res: string) {
  const out: Record<string, string | number> = { since: p.since! };
  if (p.key !== undefined) out.key = p.key;
  if (res === "3h") out.w3 = p.w3!;
  else out.w1 = p.w1!;
  return out;
}
function tailParams(p: Record<string, string | number>, res: string) {
  if (res === "raw") return p.key !== undefined ? { key: p.key, rawFrom: p.rawFrom! } : { rawFrom: p.rawFrom! };
  const out: Record<string, string | number> = { since: p.since!, w1: p.w1!, rawFrom: p.rawFrom! };
  if (p.key !== undefined) out.key = p.key;
  if (res === "3h") out.w3 = p.w3!;
  return out;
}

function oldestOf(deps: Pick<Deps, "sqlite">, d: SeriesDef, key: string | number | null): string | null {
  const k = d.key ? `WHERE ${d.key} = $key` : "";
  const r = stmt(
    deps.sqlite,
    `SELECT min(t) AS t FROM (SELECT min(time) AS t FROM ${d.threeHour} ${k} UNION ALL SELECT min(time) FROM ${d.hourly} ${k}
      UNION ALL SELECT min(time) FROM ${d.raw} ${k})`,
  ).get(d.key ? { key: key! } : {}) as { t: number | null };
  return r.t == null ? null : toIso(r.t);
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
// and the object functions parse that same text (the test app's strict response schemas check it).

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
const RAW_POINTS_SQL = `SELECT time, players, queue, wait FROM ${SERVER_SERIES.raw} WHERE sid = $key AND time >= $rawFrom ORDER BY time`;

export function serverStatsText(sqlite: Database, now: number, sid: number, days: number): SeriesText | null {
  const res = resolutionFor(days);
  const { tail } = seriesSql(SERVER_SERIES, res);
  const params: Record<string, string | number> = { rawFrom: now - RAW_WINDOW, key: sid };
  const w = new PointsWriter();
  if (res === "raw") {
    // The raw points as (time, players, queue, wait): the four columns the points need, not the
    // six of the tail's shape (bun:sqlite's cost is per cell: ~90 µs against ~130 for 288 points).
    const rows = stmt(sqlite, RAW_POINTS_SQL).values({ key: sid, rawFrom: params.rawFrom! }) as number[][];
    w.rawRows(rows);
    return { body: w.body(), from: now, until: rows.length ? rows[0]![0]! + RAW_WINDOW : Infinity };
  }
  const step = res === "3h" ? THREE_HOURS : HOUR;
  const since = Math.floor((now - days * DAY) / step) * step;
  params.since = since;
  params.w1 = liveRepo.getState(sqlite, "hourly_until") ?? 0;
  if (res === "3h") params.w3 = liveRepo.getState(sqlite, "3h_until") ?? 0;
  const headTo = (res === "3h" ? params.w3 : params.w1) as number;
  if (since < headTo) {
    const text = (
      stmt(sqlite, `SELECT group_concat(day || points, '/') FROM ${res === "3h" ? "game_server_stats_3h_days" : "game_server_stats_hourly_days"} WHERE sid = $sid AND day >= $d0 AND day <= $d1`).values({
        sid,
        d0: Math.floor(since / DAY),
        d1: Math.floor((headTo - 1) / DAY),
      }) as [string | null][]
    )[0]![0];
    if (text != null && !w.days(text, step, since, headTo)) return null;
  }
  w.rows(stmt(sqlite, tail).values(tailParams(params, res)) as number[][]);
  const rawFloor = Math.max(since, params.w1 as number);
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

function requireCommunity(sqlite: Database, id: string) {
  const c = stmt(sqlite, `SELECT id, slug, name FROM communities WHERE id = ?`).get(id);
  if (!c) throw new AppError(404, "community not found");
  return c as { id: string; slug: string; name: string };
}

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

// ---------------------------------------------------------------------------------------------
// Top lists (precomputed: the 7-day average by roll-ups and scans, mod usage per scan).

type TopServer = { id: string; name: string; avg_players: number };
/**
 * Kept per snapshot: the answer changes only when SQLite does (a new snapshot generation) or when
 * one of the ten leaves the 7-day window (as time passes rows only leave it, none enter), so it is
 * recomputed then and only then.
 */
const topServersCache = new WeakMap<LiveSnapshot, { from: number; until: number; rows: TopServer[] }>();

export function topServers(deps: Pick<Deps, "sqlite" | "clock">): TopServer[] {
  const now = deps.clock.now();
  const snap = liveSnapshot(deps.sqlite, now);
  const c = topServersCache.get(snap);
  if (c && now >= c.from && now <= c.until) return c.rows;
  const rows = stmt(
    deps.sqlite,
    `SELECT id, name, avg_players_7d, last_seen_at FROM game_servers
     WHERE avg_players_7d > 0 AND last_seen_at >= ? ORDER BY avg_players_7d DESC, id LIMIT 10`,
  ).all(now - 7 * DAY) as { id: string; name: string; avg_players_7d: number; last_seen_at: number }[];
  const out = rows.map((r) => ({ id: r.id, name: r.name, avg_players: Math.round(r.avg_players_7d * 100) / 100 }));
  topServersCache.set(snap, { from: now, until: Math.min(Infinity, ...rows.map((r) => r.last_seen_at + 7 * DAY)), rows: out });
  return out;
}

/** GET /stats/top-mods: live_mod_usage's top 10, held by the live snapshot. */
export function topMods(deps: Pick<Deps, "sqlite" | "clock">): TopMod[] {
  return liveSnapshot(deps.sqlite, deps.clock.now()).topMods as TopMod[];
}

// ---------------------------------------------------------------------------------------------
// Community assignment and copy-from-server.

/** Assigns the server to one of the caller's communities (owner or member), or unassigns it. */
export function assignCommunity(deps: Pick<Deps, "sqlite">, userId: string, serverId: string, communityId: string | null) {
  const r = serverRow(deps.sqlite, serverId);
  const mine = (id: string) =>
    stmt(
      deps.sqlite,
      `SELECT 1 FROM communities c WHERE c.id = $c AND (c.owner_id = $u OR EXISTS
        (SELECT 1 FROM community_members m WHERE m.community_id = c.id AND m.user_id = $u))`,
    ).get({ c: id, u: userId });
  if (communityId) {
    if (!mine(communityId)) throw new AppError(404, "community not found");
  } else if (r.community_id && !mine(r.community_id)) {
    // Only a member of the community the server is in may take it out.
    throw new AppError(403, "no permission");
  }
  stmt(deps.sqlite, `UPDATE game_servers SET community_id = ? WHERE id = ?`).run(communityId, serverId);
  invalidateLiveSnapshot(deps.sqlite);
}

export interface CopyInput {
  list_id?: string;
  list_name?: string;
  is_public?: boolean;
}

/** Copies the server's current mods (order and versions as reported) into a new or an owned list. */
export function copyFromServer(deps: Deps, user: { id: string }, serverId: string, input: CopyInput): { list_id: string } {
  serverRow(deps.sqlite, serverId);
  const entries = (stmt(deps.sqlite, MOD_SELECT).all({ id: serverId }) as any[]).map((m) => ({
    workshop_id: m.workshop_id as string,
    name: (m.name as string) || (m.workshop_id as string),
    version: (m.version as string | null) ?? null,
  }));
  if (entries.length > MAX_MODS) throw listFull();
  if (input.list_id) {
    requireListOwner(resolveListAccess(deps, input.list_id, user));
    applyImport(deps, { listId: input.list_id, userId: user.id, entries, checkOrder: true, source: "copy-from-server" });
    return { list_id: input.list_id };
  }
  const name = (input.list_name ?? "").trim();
  if (name.length < 1 || name.length > 100) throw new AppError(400, "list_name: must be 1 to 100 characters");
  const created = createList(deps, user.id, { name, is_public: input.is_public ?? false });
  try {
    applyImport(deps, { listId: created.id, userId: user.id, entries, checkOrder: true, source: "copy-from-server" });
  } catch (err) {
    deps.sqlite.query("DELETE FROM lists WHERE id = ?").run(created.id);
    throw err;
  }
  return { list_id: created.id };
}

export { readSeriesAt, SERVER_SERIES, GLOBAL_SERIES, COMMUNITY_SERIES };
