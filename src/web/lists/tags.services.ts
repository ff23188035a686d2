// Tags: a person's own labels on lists (/tags/mine, /lists/:id/tags).
import { api, get } from "../app/api";

export interface Tag {
  id: string;
  name: string;
  color: string;
}
export const myTags = (signal?: AbortSignal) => get<Tag[]>("/tags/mine", signal);
export const createTag = (name: string, color: string) => api<Tag>("POST", "/tags/mine", { body: { name, color } });
export const deleteTag = (id: string) => api<void>("DELETE", `/tags/mine/${id}`);
export const tagList = (id: string, tag_id: string) => api<Tag>("POST", `/lists/${id}/tags`, { body: { tag_id } });
export const untagList = (id: string, tagId: string) => api<void>("DELETE", `/lists/${id}/tags/${tagId}`);
