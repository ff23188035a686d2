// Account calls (the only place the account pages reach the API).
import { api, get } from "../app/api";
import type { ApiKey, AuthOptions } from "../app/types";

export const authOptions = () => get<AuthOptions>("/auth/options");
export const login = (email: string, password: string) =>
  api<{ token: string; user: { user_id: string; display_name: string } }>("POST", "/auth/login", { body: { email, password }, quiet401: true });
export const register = (email: string, password: string, display_name: string) =>
  api<{ user_id: string; role: "user" | "admin"; is_approved: boolean }>("POST", "/auth/register", { body: { email, password, display_name } });
export const requestMagicLink = (email: string) => api<unknown>("POST", "/auth/magic", { body: { email } });
export const verifyMagic = (token: string) => get<{ token: string }>(`/auth/magic/verify?token=${encodeURIComponent(token)}`);
export const verifyEmail = (token: string) => get<{ ok: boolean }>(`/auth/email-verify?token=${encodeURIComponent(token)}`);
export const setDisplayName = (display_name: string) => api<void>("PUT", "/settings/display-name", { body: { display_name } });
export const listKeys = () => get<ApiKey[]>("/api-keys");
export const createKey = (name: string) => api<{ id: string; key: string; name: string }>("POST", "/api-keys", { body: { name } });
export const revokeKey = (id: string) => api<void>("DELETE", `/api-keys/${id}`);
export const deleteAccount = () => api<void>("DELETE", "/settings/account");
/** A new password, given with the current one: every other session is signed out; this one gets a fresh token. */
export const changePassword = (current_password: string, new_password: string) =>
  api<{ token: string }>("POST", "/settings/password", { body: { current_password, new_password } });
