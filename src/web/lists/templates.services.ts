// Templates: a list's mods as a template others follow (/templates), and a list's followed
// templates (/lists/:id/template-links, /lists/:id/import-template/:tid).
import { api, get } from "../app/api";
import type { z } from "zod";
import type * as T from "../../features/templates/routes";

export type Template = z.infer<typeof T.templateOut>;
export interface TemplateLink {
  template_id: string;
  name: string;
  description: string;
  mod_count: number;
  created_at: string;
}
export const templates = (signal?: AbortSignal) => get<Template[]>("/templates", signal);
export const createTemplate = (list_id: string, name: string) => api<Template>("POST", "/templates", { body: { list_id, name } });
export const templateLinks = (id: string, signal?: AbortSignal) => get<TemplateLink[]>(`/lists/${id}/template-links`, signal);
export const applyTemplate = (id: string, tid: string) =>
  api<{ ok: boolean; added: number; removed: number; version_changed: number }>("POST", `/lists/${id}/import-template/${tid}`);
export const unsubscribe = (id: string, tid: string) => api<void>("DELETE", `/lists/${id}/template-links/${tid}`);
export const pushTemplate = (tid: string) =>
  api<{ ok: boolean; lists: number; results: { list_id: string; ok: boolean; added: number; removed: number; version_changed: number; error?: string }[] }>(
    "POST",
    `/templates/${tid}/push`,
  );
