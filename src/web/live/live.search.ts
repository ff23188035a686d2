// The live pages' search params: the browser's filters, sort and page; a chart's range; a
// server's pages of mods and changes.
import * as z from "zod/mini";
import { oneOf, positiveInt, text } from "../app/search";

export const LIVE_SORTS = ["players_desc", "players_asc", "popularity", "recent", "mod_size_desc", "mod_size_asc", "name_asc", "name_desc"] as const;
export const liveSearch = z.object({
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
export type LiveSearch = z.infer<typeof liveSearch>;

export const CHART_RANGES = ["24h", "14d", "365d"] as const;
export type ChartRange = (typeof CHART_RANGES)[number];
export const rangeSearch = z.object({ range: oneOf(CHART_RANGES) });
export const liveServerSearch = z.extend(rangeSearch, { mods_page: positiveInt(), changes_page: positiveInt() });
