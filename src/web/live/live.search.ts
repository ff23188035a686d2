// The live pages' search params: the browser's filters, sort and page; a chart's range; a
// server's pages of mods and changes.
import { oneOf, positiveInt, search, text, type SearchType } from "../app/search";
import { namesOf } from "../app/types";
import type { SERVER_SORTS } from "../../features/live/model";

/** GET /game-servers' sort names (live/model.ts SERVER_SORTS), in the order the browser offers them. */
export const LIVE_SORTS = namesOf<(typeof SERVER_SORTS)[number]>()(["players_desc", "players_asc", "popularity", "recent", "mod_size_desc", "mod_size_asc", "name_asc", "name_desc"]);
export const liveSearch = search({
  q: text(),
  sort: oneOf(LIVE_SORTS),
  /** Comma-separated workshop ids. */
  mods: text(),
  min_players: positiveInt(),
  max_mod_size_mb: positiveInt(),
  official: oneOf(["yes", "no"]),
  password: oneOf(["yes", "no"]),
  tags: text(),
  page: positiveInt(),
});
export type LiveSearch = SearchType<typeof liveSearch>;

export const CHART_RANGES = ["24h", "14d", "365d"] as const;
export type ChartRange = (typeof CHART_RANGES)[number];
export const rangeSearch = search({ range: oneOf(CHART_RANGES) });
export const liveServerSearch = search({ ...rangeSearch.shape, mods_page: positiveInt(), changes_page: positiveInt() });
