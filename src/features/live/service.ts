// The read side of live game servers (the list, one server's detail, mods and changelog, the top
// lists), community assignment and copy-from-server; the stat series are series.ts (re-exported
// here). Knows nothing of HTTP; throws AppError.
import type { Database } from "bun:sqlite";
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { toIso } from "../../shared/time";
import { requireListOwner, resolveListAccess, applyImport, listFull, MAX_MODS, createList } from "../lists";
import type { ListQuery, ServerEntry, ServerMod } from "./model";
import { ONLINE_WINDOW, toEntry } from "./entry";
import { onlineDetailBytes } from "./detail";
import { invalidateLiveSnapshot, liveSnapshot, onlineRow, onlineRowIndex, querySnapshot, querySnapshotBytes, type TopMod } from "./snapshot";
import { SnapshotSlot } from "./snapshot/types";
import { serverRow } from "./lookups";
import { DAY } from "./windows";
import { communitiesRepo, serversRepo, type ServerRow } from "./repository/servers";
import { serverModsRepo, type ChangeEntry, type ServerModRow } from "./repository/mod-lists";

export { ONLINE_WINDOW, toEntry, serverRow };
export * from "./series";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

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

const toMod = (r: ServerModRow): ServerMod => ({ ...r, in_catalog: !!r.in_catalog });

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
  const mods = serverModsRepo.all(sqlite, r.id).map(toMod);
  const mod_items = serverModsRepo.items(sqlite, r.id);
  return { server: serverOf(r, now), mods, mod_items };
}

const pagesOf = (total: number, limit: number) => Math.ceil(total / limit);

export function serverMods(deps: Pick<Deps, "sqlite">, id: string, page: number, limit: number) {
  serverRow(deps.sqlite, id);
  const agg = serverModsRepo.totals(deps.sqlite, id);
  const items = serverModsRepo.page(deps.sqlite, id, limit, (page - 1) * limit).map(toMod);
  return { items, total: agg.total, total_size_bytes: agg.size, page, pages: pagesOf(agg.total, limit), limit };
}

/**
 * A server's mod changelog, newest first: its game_server_mod_events rows (one per scan that
 * changed its list, a3_changelog_events.sql) newest first, each one's changes last to first; only
 * the rows on the page are read and parsed.
 */
export function modChangelog(deps: Pick<Deps, "sqlite">, id: string, page: number, limit: number) {
  const r = serverRow(deps.sqlite, id);
  const events = serverModsRepo.changelogRows(deps.sqlite, r.sid);
  let total = 0;
  for (const e of events) total += e[1];
  const items: ReturnType<typeof changeItem>[] = [];
  let skip = (page - 1) * limit;
  for (const [eventId, n] of events) {
    if (items.length >= limit) break;
    if (skip >= n) {
      skip -= n;
      continue;
    }
    const e = serverModsRepo.changelogRow(deps.sqlite, eventId);
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
// Top lists (precomputed: the 7-day average by roll-ups and scans, mod usage per scan).

type TopServer = { id: string; name: string; avg_players: number };
/**
 * Kept with the snapshot: the answer changes only when SQLite does (a new snapshot generation) or
 * when one of the ten leaves the 7-day window (as time passes rows only leave it, none enter), so
 * it is recomputed then and only then.
 */
const topServersKept = new SnapshotSlot<{ from: number; until: number; rows: TopServer[] }>();

export function topServers(deps: Pick<Deps, "sqlite" | "clock">): TopServer[] {
  const now = deps.clock.now();
  const snap = liveSnapshot(deps.sqlite, now);
  const c = topServersKept.peek(snap);
  if (c && now >= c.from && now <= c.until) return c.rows;
  const rows = serversRepo.topByAverage(deps.sqlite, now - 7 * DAY);
  const out = rows.map((r) => ({ id: r.id, name: r.name, avg_players: Math.round(r.avg_players_7d * 100) / 100 }));
  const kept = topServersKept.of(snap, () => ({ from: now, until: now, rows: out }));
  kept.from = now;
  kept.until = Math.min(Infinity, ...rows.map((r) => r.last_seen_at + 7 * DAY));
  kept.rows = out;
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
  const mine = (id: string) => communitiesRepo.isMember(deps.sqlite, id, userId);
  if (communityId) {
    if (!mine(communityId)) throw new AppError("community.not_found", "community not found");
  } else if (r.community_id && !mine(r.community_id)) {
    // Only a member of the community the server is in may take it out.
    throw new AppError("community.forbidden", "no permission");
  }
  serversRepo.setCommunity(deps.sqlite, serverId, communityId);
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
  const entries = serverModsRepo.all(deps.sqlite, serverId).map((m) => ({
    workshop_id: m.workshop_id,
    name: m.name || m.workshop_id,
    version: m.version ?? null,
  }));
  if (entries.length > MAX_MODS) throw listFull();
  if (input.list_id) {
    requireListOwner(resolveListAccess(deps, input.list_id, user));
    applyImport(deps, { listId: input.list_id, userId: user.id, entries, checkOrder: true, source: "copy-from-server" });
    return { list_id: input.list_id };
  }
  const name = (input.list_name ?? "").trim();
  if (name.length < 1 || name.length > 100) throw new AppError("request.invalid", "list_name: must be 1 to 100 characters");
  const created = createList(deps, user.id, { name, is_public: input.is_public ?? false });
  try {
    applyImport(deps, { listId: created.id, userId: user.id, entries, checkOrder: true, source: "copy-from-server" });
  } catch (err) {
    serverModsRepo.removeList(deps.sqlite, created.id);
    throw err;
  }
  return { list_id: created.id };
}
