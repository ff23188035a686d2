// What a live server looks like in the API, and the orders of GET /game-servers: shared by the
// SQL path (service.ts) and the in-memory snapshot (snapshot.ts).
import { toIso } from "../../shared/time";
import type { ListQuery, ServerEntry, ServerEntryBase } from "./model";
import type { ServerRow } from "./repository/servers";
import { ONLINE_WINDOW } from "./windows";

export { ONLINE_WINDOW };

/** The columns every server answer starts with (`serverEntryBase`). */
export type ServerBaseRow = Pick<
  ServerRow,
  "id" | "name" | "host_address" | "player_count" | "player_count_limit" | "queue_players_count" | "scenario_name" | "game_version" | "password_protected" | "official" | "last_seen_at"
>;

/** `serverEntryBase` of a row, field by field: the live list's entries and the catalog's "servers using this mod". */
export function serverBase(r: ServerBaseRow): ServerEntryBase {
  return {
    id: r.id,
    name: r.name,
    host_address: r.host_address,
    player_count: r.player_count,
    player_count_limit: r.player_count_limit,
    queue_players_count: r.queue_players_count,
    scenario_name: r.scenario_name,
    game_version: r.game_version,
    password_protected: !!r.password_protected,
    official: !!r.official,
    last_updated: lastUpdated(r.last_seen_at),
  };
}

/**
 * toIso of a last sighting, the last one given kept: a snapshot build formats ~15,000 (its
 * entries and the usage's), nearly all of one scan's time.
 */
function lastUpdated(ms: number): string {
  if (ms !== isoOf) {
    isoText = toIso(ms);
    isoOf = ms;
  }
  return isoText;
}
let isoOf: number = Number.NaN;
let isoText = "";

export function toEntry(r: ServerRow): ServerEntry {
  return {
    ...serverBase(r),
    country: r.country,
    tags: r.tags.split(",").filter((t) => t !== ""),
    mods_count: r.mods_count,
    mods_size_bytes: r.mods_size_bytes,
    avg_players_7d: Math.round(r.avg_players_7d * 100) / 100,
    community_id: r.community_id,
  };
}

export const ORDER: Record<ListQuery["sort_by"], string> = {
  recent: "g.last_seen_at DESC, g.first_seen_at DESC, g.player_count DESC, g.id",
  popularity: "g.avg_players_7d DESC, g.player_count DESC, g.id",
  players_desc: "g.player_count DESC, g.name COLLATE NOCASE, g.id",
  players_asc: "g.player_count ASC, g.name COLLATE NOCASE, g.id",
  mod_size_desc: "g.mods_size_bytes DESC, g.player_count DESC, g.id",
  mod_size_asc: "g.mods_size_bytes ASC, g.player_count DESC, g.id",
  name_asc: "g.name COLLATE NOCASE ASC, g.id",
  name_desc: "g.name COLLATE NOCASE DESC, g.id",
};

