// Permission groups (/groups: members, owners, community) and their assignment to a list with
// per-list overrides (/lists/:id/groups).
import { api, get } from "../app/api";
import type { z } from "zod";
import type * as C from "../../features/collaboration/model";
import type { Person } from "./lists.services";

export type Group = z.infer<typeof C.groupOut>;
export type ListGroup = z.infer<typeof C.listGroupOut>;
export type Flags = { can_add: boolean; can_remove: boolean; can_deploy: boolean };
export type Overrides = { can_add: boolean | null; can_remove: boolean | null; can_deploy: boolean | null };
export const groups = (signal?: AbortSignal) => get<{ groups: Group[] }>("/groups", signal).then((r) => r.groups);
export const createGroup = (body: { name: string; description: string } & Flags) => api<Group>("POST", "/groups", { body });
export const updateGroup = (gid: string, body: Partial<{ name: string; description: string } & Flags>) => api<Group>("PUT", `/groups/${gid}`, { body });
export const deleteGroup = (gid: string) => api<void>("DELETE", `/groups/${gid}`);
export const groupCommunity = (gid: string, community_id: string | null) => api<unknown>("POST", `/groups/${gid}/assign_community`, { body: { community_id } });
export const groupMembers = (gid: string, signal?: AbortSignal) => get<{ members: Person[] }>(`/groups/${gid}/members`, signal).then((r) => r.members);
export const addGroupMember = (gid: string, search: string) => api<Person>("POST", `/groups/${gid}/members`, { body: { search } });
export const removeGroupMember = (gid: string, userId: string) => api<void>("DELETE", `/groups/${gid}/members/${userId}`);
export const groupOwners = (gid: string, signal?: AbortSignal) => get<{ owners: Person[] }>(`/groups/${gid}/owners`, signal).then((r) => r.owners);
export const addGroupOwner = (gid: string, search: string) => api<Person>("POST", `/groups/${gid}/owners`, { body: { search } });
export const removeGroupOwner = (gid: string, userId: string) => api<void>("DELETE", `/groups/${gid}/owners/${userId}`);
export const listGroups = (id: string, signal?: AbortSignal) => get<{ groups: ListGroup[] }>(`/lists/${id}/groups`, signal).then((r) => r.groups);
export const assignGroup = (id: string, body: { group_id: string } & Overrides) => api<ListGroup>("POST", `/lists/${id}/groups`, { body });
export const setGroupOverrides = (id: string, gid: string, body: Overrides) => api<ListGroup>("PATCH", `/lists/${id}/groups/${gid}`, { body });
export const unassignGroup = (id: string, gid: string) => api<void>("DELETE", `/lists/${id}/groups/${gid}`);
