// The one place that calls the API: the same /api/v1 every other client uses. Types come from
// the features' zod schemas (src/features/*/model.ts, imported as types only, so nothing of
// the server reaches the bundle): a changed response schema breaks the web build.
// Errors carry the API's own {error} text, shown where the action was taken, and its stable
// `code` when it sends one: a page that reacts to an error checks the code, never the text.
import { getToken, clearToken } from "./auth-store";
import type { ErrorCode } from "../../shared/errors";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The API's stable `code` beside `error`, when it gives one. */
    readonly code?: ErrorCode,
  ) {
    super(message);
  }
}

/** 0 = the server could not be reached (offline, restarting). */
export const isOffline = (e: unknown) => e instanceof ApiError && e.status === 0;

/**
 * What may mend by itself when asked again: the network, the service's own failure (`internal`),
 * or a gateway's 5xx in front of it (a proxy's answer has no code). Every other error is an
 * answer about the request, which asking again does not change.
 */
export const isRetryable = (e: unknown) => !(e instanceof ApiError) || e.status === 0 || e.code === "internal" || (e.code === undefined && e.status >= 500);

let onUnauthorized: (() => void) | null = null;
/** The router registers how to go to sign-in (and back) when a session expires. */
export function setUnauthorizedHandler(fn: () => void) {
  onUnauthorized = fn;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is, as text/plain (server.json imports). */
  text?: string;
  /** Do not redirect to sign-in on 401 (the sign-in form itself). */
  quiet401?: boolean;
  signal?: AbortSignal;
}

/** A JSON call: the answer's body (undefined for a 204). */
export const api = <T>(method: string, path: string, o: RequestOptions = {}): Promise<T> => send(method, path, o).then((r) => r.data as T);

/** A call whose answer matters beyond its body: the body and the response headers. */
export async function send(method: string, path: string, o: RequestOptions = {}): Promise<{ data: unknown; headers: Headers }> {
  const headers: Record<string, string> = { accept: "application/json" };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (o.text !== undefined) {
    body = o.text;
    headers["content-type"] = "text/plain";
  } else if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers["content-type"] = "application/json";
  }
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, { method, headers, body, signal: o.signal });
  } catch (e) {
    if ((e as Error).name === "AbortError") throw e;
    throw new ApiError(0, "The server cannot be reached. Check your connection and try again.");
  }
  if (res.status === 204) return { data: undefined, headers: res.headers };
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const message = data && typeof data.error === "string" ? data.error : `request failed (HTTP ${res.status})`;
    if (res.status === 401 && token && !o.quiet401) {
      clearToken();
      onUnauthorized?.();
    }
    const code = data && typeof data.code === "string" ? (data.code as ErrorCode) : undefined;
    throw new ApiError(res.status, res.status >= 500 ? `The server had a problem (${message}). Try again in a moment.` : message, code);
  }
  return { data, headers: res.headers };
}

export const get = <T>(path: string, signal?: AbortSignal) => api<T>("GET", path, { signal });

/** Query string from an object, leaving out empty values. */
export function qs(params: Record<string, string | number | boolean | null | undefined>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : "";
}
