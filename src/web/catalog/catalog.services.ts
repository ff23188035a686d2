// Catalog calls: the only place the catalog pages reach the API.
import { api, get, qs } from "../app/api";
import type {
  Autocomplete,
  ModDependencies,
  GrowthPoint,
  ItemDiff,
  Items,
  ItemVersion,
  LiveStats,
  Missions,
  ModDetail,
  ModList,
  ModServer,
  ModSort,
  Screenshot,
  VersionEntry,
} from "../app/types";

export const TAGS = ["VEHICLES", "WEAPONS", "STRUCTURES", "CHARACTERS", "ANIMALS", "VEGETATION", "PROPS", "COMPOSITIONS", "SCENARIOS_SP", "SCENARIOS_MP", "TERRAINS", "SYSTEMS", "EFFECTS", "MISC"];

export const SORT_LABELS: Record<ModSort, string> = {
  updated_desc: "Recently updated",
  name_asc: "Name, A to Z",
  name_desc: "Name, Z to A",
  size_desc: "Largest first",
};

export { PAGE_SIZE } from "./catalog.search";
import { PAGE_SIZE } from "./catalog.search";

export const listMods = (p: { q?: string; tag?: string; sort?: ModSort; page?: number }, signal?: AbortSignal) =>
  get<ModList>(`/mods${qs({ search: p.q, tag: p.tag, sort: p.sort, page: p.page, limit: PAGE_SIZE })}`, signal);
export const autocomplete = (q: string, signal?: AbortSignal) => get<Autocomplete[]>(`/mods/autocomplete${qs({ q })}`, signal);
export const modDetail = (id: string, signal?: AbortSignal) => get<ModDetail>(`/mods/${id}`, signal);
export const modDeps = (id: string, signal?: AbortSignal) => get<ModDependencies>(`/mods/${id}/deps`, signal);
export const modVersions = (id: string, signal?: AbortSignal) => get<VersionEntry[]>(`/mods/${id}/versions`, signal);
export const modScreenshots = (id: string, signal?: AbortSignal) => get<Screenshot[]>(`/mods/${id}/screenshots`, signal);
export const modMissions = (id: string, signal?: AbortSignal) => get<Missions>(`/mods/${id}/missions`, signal);
export const modItemVersions = (id: string, signal?: AbortSignal) => get<ItemVersion[]>(`/mods/${id}/item-versions`, signal);
export const modItems = (id: string, version: string | undefined, signal?: AbortSignal) => get<Items>(`/mods/${id}/items${qs({ version })}`, signal);
export const modDiff = (id: string, from: string, to: string, signal?: AbortSignal) => get<ItemDiff>(`/mods/${id}/diff${qs({ from, to })}`, signal);
export const modStats = (id: string, signal?: AbortSignal) => get<LiveStats>(`/mods/${id}/stats`, signal);
export const modGrowth = (id: string, days: number, signal?: AbortSignal) => get<GrowthPoint[]>(`/mods/${id}/stats/growth${qs({ days })}`, signal);
export const modServers = (id: string, signal?: AbortSignal) => get<ModServer[]>(`/mods/${id}/servers`, signal);
export const requestScrape = (workshop_id: string) => api<{ job_id: string }>("POST", "/jobs/scraper/detail", { body: { workshop_id } });
