/** The one error type of the service: rendered as `{error: message}` with `status`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers?: Record<string, string>,
    /** More fields of the body beside `error` (a 409 carrying its findings). */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const tooManyRequests = (retryAfterSeconds: number, message = "too many requests") =>
  new AppError(429, message, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
