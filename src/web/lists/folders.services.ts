// Folders: a person's own filing of their lists (GET/POST/DELETE /folders, PATCH /lists/:id/folder).
import { api, get } from "../app/api";

export interface Folder {
  id: string;
  name: string;
  list_count: number;
  created_at: string;
}
export const folders = (signal?: AbortSignal) => get<Folder[]>("/folders", signal);
export const createFolder = (name: string) => api<Folder>("POST", "/folders", { body: { name } });
export const deleteFolder = (id: string) => api<void>("DELETE", `/folders/${id}`);
export const setFolder = (id: string, folder_id: string | null) => api<void>("PATCH", `/lists/${id}/folder`, { body: { folder_id } });
