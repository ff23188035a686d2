// Communities: the groups a list can be filed under (/communities, PATCH /lists/:id/community).
import { api, get } from "../app/api";

export interface Community {
  id: string;
  community_id: string;
  name: string;
  slug: string;
  description: string;
  owner_id: string;
  role: string;
  created_at: string;
}
export const communities = (signal?: AbortSignal) => get<Community[]>("/communities", signal);
export const createCommunity = (name: string, description: string) => api<Community>("POST", "/communities", { body: { name, description } });
export const setCommunity = (id: string, community_id: string | null) => api<void>("PATCH", `/lists/${id}/community`, { body: { community_id } });
