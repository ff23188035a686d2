// Live servers and statistics: the only place these pages reach the API (all public).
import { api, get, qs } from "../app/api";
import type { z } from "zod";
import type * as M from "../../features/live/model";

export type LiveServer = z.infer<typeof M.serverEntry>;
export type ServerDetail = z.infer<typeof M.serverDetail>;
export type ServerModsPage = z.infer<typeof M.serverModsPage>;
export type ChangelogPage = z.infer<typeof M.changelogPage>;
export type ServerStatPoint = z.infer<typeof M.serverStatPoint>;
export type GlobalStatPoint = z.infer<typeof M.globalStatPoint>;
export type CommunityStatPoint = z.infer<typeof M.communityStatPoint>;
export type TopServer = z.infer<typeof M.topServer>;
export type TopMod = z.infer<typeof M.topMod>;
export type Sort = (typeof M.SERVER_SORTS)[number];
export const SORTS: { value: Sort; label: string }[] = [
  { value: "players_desc", label: "Most players" },
  { value: "players_asc", label: "Fewest players" },
  { value: "popularity", label: "Busiest this week" },
  { value: "recent", label: "Most recently seen" },
  { value: "mod_size_desc", label: "Largest download" },
  { value: "mod_size_asc", label: "Smallest download" },
  { value: "name_asc", label: "Name A–Z" },
  { value: "name_desc", label: "Name Z–A" },
];

export interface BrowseQuery {
  search?: string;
  sort_by?: Sort;
  mod_ids?: string;
  min_players?: number;
  max_mod_size?: number;
  official?: boolean;
  password_protected?: boolean;
  tags?: string;
  offset?: number;
  community_id?: string;
}
export const PAGE = 50;
export const liveServers = (q: BrowseQuery, signal?: AbortSignal) => get<LiveServer[]>(`/game-servers${qs({ ...q, limit: PAGE })}`, signal);
export const liveServer = (id: string, signal?: AbortSignal) => get<ServerDetail>(`/game-servers/${id}`, signal);
export const serverMods = (id: string, page: number, limit: number, signal?: AbortSignal) => get<ServerModsPage>(`/game-servers/${id}/mods${qs({ page, limit })}`, signal);
export const changelog = (id: string, page: number, signal?: AbortSignal) => get<ChangelogPage>(`/game-servers/${id}/mod-changelog${qs({ page, limit: 20 })}`, signal);
export const serverStats = (id: string, days: number, signal?: AbortSignal) => get<ServerStatPoint[]>(`/game-servers/${id}/stats${qs({ days })}`, signal);
export const globalPlayers = (days: number, signal?: AbortSignal) => get<GlobalStatPoint[]>(`/stats/global-players${qs({ days })}`, signal);
export const communityPlayers = (id: string, days: number, signal?: AbortSignal) => get<CommunityStatPoint[]>(`/stats/community-players/${id}${qs({ days })}`, signal);
export const topServers = (signal?: AbortSignal) => get<TopServer[]>("/stats/top-servers", signal);
export const topMods = (signal?: AbortSignal) => get<TopMod[]>("/stats/top-mods", signal);
export const copyToNewList = (serverId: string, list_name: string) => api<{ list_id: string }>("POST", `/modlists/copy-from-server/${serverId}`, { body: { list_name, is_public: false } });

/** The chart ranges and the resolution the API answers them in (raw 5 min, hourly, 3-hourly). */
export const RANGES = [
  { key: "24h", label: "24 hours", days: 1, step: 300 },
  { key: "14d", label: "14 days", days: 14, step: 3600 },
  { key: "365d", label: "365 days", days: 365, step: 3 * 3600 },
] as const;
export type RangeKey = (typeof RANGES)[number]["key"];

export interface CommunityPage {
  id: string;
  community_id: string;
  name: string;
  slug: string;
  description: string;
  member_count: number;
  created_at: string;
}
export const communityPage = (id: string, signal?: AbortSignal) => get<CommunityPage>(`/communities/${id}`, signal);
export const communityServers = (id: string, signal?: AbortSignal) => get<LiveServer[]>(`/game-servers${qs({ community_id: id, limit: 200 })}`, signal);
/** A few servers by name (copying a server's mods into a list). */
export const findLiveServers = (search: string, signal?: AbortSignal) => get<LiveServer[]>(`/game-servers${qs({ search, limit: "10" })}`, signal);
