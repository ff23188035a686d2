// RCON on a server, who is on and who was, and moderation (kick, ban, lift, the log, moderators):
// the only place these pages reach those parts of the API (docs/rcon.md).
import { api, get } from "../app/api";
import type { z } from "zod";
import type * as Mod from "../../features/servers/moderation/model";
import type * as R from "../../features/servers/rcon/model";
import type { Server } from "./my-servers.services";

export type Roster = z.infer<typeof R.playersView>;
export type RosterPlayer = Roster["players"][number];
export type PlayerSession = z.infer<typeof R.sessionView>;
export type PlayerHistory = z.infer<typeof R.playerView>;
export type Ban = z.infer<typeof Mod.banView>;
export type LogEntry = z.infer<typeof Mod.moderationLogView>;
export type Moderator = z.infer<typeof Mod.moderatorView>;
export type ModeratedServer = z.infer<typeof Mod.moderatedServerView>;
export type RconTest = z.infer<typeof R.rconTestView>;
export type RconSettings = z.input<typeof R.rconBody>;
export type RestartVia = Server["restart_via"];
export interface NewBan {
  uid?: string;
  player_id?: number;
  duration_s: number;
  reason: string;
  scope?: "server" | "all";
}

// ---- RCON settings (owner)
export const setRcon = (id: string, body: RconSettings) => api<Server>("PUT", `/servers/${id}/rcon`, { body });
export const deleteRcon = (id: string) => api<void>("DELETE", `/servers/${id}/rcon`);
export const testRcon = (id: string) => api<RconTest>("POST", `/servers/${id}/rcon/test`);
export const setRestartVia = (id: string, restart_via: RestartVia) => api<Server>("PUT", `/servers/${id}`, { body: { restart_via } });

// ---- who is on, who was on (owner and moderators)
export const roster = (id: string, signal?: AbortSignal) => get<Roster>(`/servers/${id}/players`, signal);
/** Sessions overlapping the last 24 hours (the API's default window), newest first. */
export const sessions = (id: string, signal?: AbortSignal) => get<PlayerSession[]>(`/servers/${id}/sessions`, signal);
export const player = (id: string, uid: string, signal?: AbortSignal) => get<PlayerHistory>(`/servers/${id}/players/${encodeURIComponent(uid)}`, signal);

// ---- moderation
export const kick = (id: string, playerId: number, reason: string) =>
  api<{ ok: true }>("POST", `/servers/${id}/players/${playerId}/kick`, { body: reason.trim() ? { reason } : {} });
export const ban = (id: string, body: NewBan) => api<Ban>("POST", `/servers/${id}/bans`, { body });
export const serverBans = (id: string, signal?: AbortSignal) => get<Ban[]>(`/servers/${id}/bans`, signal);
export const liftBan = (banId: string) => api<void>("DELETE", `/bans/${banId}`);
export const moderationLog = (id: string, signal?: AbortSignal) => get<LogEntry[]>(`/servers/${id}/moderation-log`, signal);
export const moderators = (id: string, signal?: AbortSignal) => get<Moderator[]>(`/servers/${id}/moderators`, signal);
export const addModerator = (id: string, email: string) => api<Moderator[]>("POST", `/servers/${id}/moderators`, { body: { email } });
export const removeModerator = (id: string, userId: string) => api<void>("DELETE", `/servers/${id}/moderators/${userId}`);
export const moderatedServers = (signal?: AbortSignal) => get<ModeratedServer[]>("/servers/moderated", signal);
