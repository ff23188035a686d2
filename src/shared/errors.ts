/**
 * The stable machine codes an error body may carry beside its message (`{error, code}`), for the
 * errors a client reacts to. The message stays for people and may change; a code does not.
 * The list is also in docs/architecture.md (Errors).
 */
export const ERROR_CODES = {
  unauthorized: "401: not signed in, or the token or key is no longer valid (every 401 but a failed sign-in)",
  invalid_credentials: "401: sign-in with a wrong e-mail or password",
  invalid_workshop_id: "400: a workshop ID that is not 16 hexadecimal characters",
  mod_not_found: "404: the catalog has no such mod",
  list_full: "409: the change would take the list over its 1000 mods",
  mod_in_list: "409: the mod is already in the list",
  mod_too_old: "422: the list's age rule (max_mod_age_days) refuses the mod",
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** The one error type of the service: rendered as `{error: message}` (plus `code` when set) with `status`. */
export class AppError extends Error {
  readonly headers?: Record<string, string>;
  readonly code?: ErrorCode;
  /** More fields of the body beside `error` (a 409 carrying its findings). */
  readonly body?: Record<string, unknown>;
  constructor(
    readonly status: number,
    message: string,
    opts: { headers?: Record<string, string>; code?: ErrorCode; body?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.headers = opts.headers;
    this.code = opts.code;
    this.body = opts.body;
  }
}

export const tooManyRequests = (retryAfterSeconds: number, message = "too many requests") =>
  new AppError(429, message, { headers: { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
