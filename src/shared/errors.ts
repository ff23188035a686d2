/** The one error type of the service: rendered as `{error: message}` with `status`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = "unauthorized") => new AppError(401, message);
export const forbidden = (message = "no permission") => new AppError(403, message);
export const notFound = (message = "not found") => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooManyRequests = (retryAfterSeconds: number, message = "too many requests") =>
  new AppError(429, message, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
