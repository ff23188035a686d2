// HTTP conventions for every route, present and future: request id, one JSON log line per
// request, security headers, body limits, the global rate limit, and the one error renderer
// that turns everything into {error} with the statuses of the spec's Errors table.
import { Elysia } from "elysia";
import type { Server } from "bun";
import type { Deps } from "../deps";
import { AppError } from "./errors";
import { BARE_MESSAGES } from "./schemas";
import { RateLimiter, isRateLimitExempt } from "./rate-limit";

export const BODY_LIMIT = 1024 * 1024;
export const IMPORT_BODY_LIMIT = 5 * 1024 * 1024;
/** Import endpoints take up to 5 MiB and receive the raw body text (shape 3 is not JSON). */
export const isImportPath = (path: string) => /\/import-(preview|apply)$/.test(path);

interface RequestMeta {
  id: string;
  start: number;
}
const meta = new WeakMap<Request, RequestMeta>();

/** Client IP: the socket address, or the first X-Forwarded-For hop when LOADOUT_TRUST_PROXY is on. */
export function clientIp(deps: Pick<Deps, "config">, request: Request, server?: Server<any> | null): string {
  if (deps.config.LOADOUT_TRUST_PROXY) {
    const xff = request.headers.get("x-forwarded-for");
    if (xff) return xff.split(",")[0]!.trim();
  }
  return server?.requestIP(request)?.address ?? "unknown";
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

const SECURITY_HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
};

function validationMessage(error: any): string {
  const issue = (error.all as { path: string; message: string }[] | undefined)?.[0];
  if (!issue) return "invalid request";
  const message = issue.message || "invalid value";
  if (BARE_MESSAGES.has(message) || !issue.path || issue.path === "root") return message;
  return `${issue.path}: ${message}`;
}

export function httpPlugin(deps: Deps) {
  const anonLimiter = new RateLimiter(300, 60_000, () => deps.clock.now());
  const userLimiter = new RateLimiter(1200, 60_000, () => deps.clock.now());

  return new Elysia({ name: "http" })
    .onRequest(({ request, set, server }) => {
      const id = request.headers.get("x-request-id")?.slice(0, 100) || crypto.randomUUID();
      meta.set(request, { id, start: performance.now() });
      set.headers["x-request-id"] = id;
      Object.assign(set.headers, SECURITY_HEADERS);
      const path = new URL(request.url).pathname;

      const len = Number(request.headers.get("content-length") ?? 0);
      if (len > (isImportPath(path) ? IMPORT_BODY_LIMIT : BODY_LIMIT)) {
        return json(413, { error: "request body too large" }, { "x-request-id": id });
      }

      if (!isRateLimitExempt(path)) {
        const cred = request.headers.get("authorization") ?? request.headers.get("x-api-key");
        const r = cred
          ? userLimiter.hit("c:" + Bun.hash(cred).toString(36))
          : anonLimiter.hit("ip:" + clientIp(deps, request, server));
        if (!r.allowed) {
          return json(429, { error: "too many requests" }, { "retry-after": String(r.retryAfter), "x-request-id": id });
        }
      }
    })
    .onTransform({ as: "global" }, (ctx) => {
      // Elysia's query parser for standard (zod) schemas splits any value containing a comma
      // (even %2C) into an array and JSON-parses values in [] or {}: `search=a,b` or
      // `q=[x]` would then fail validation. Rebuild the query from the URL (repeated keys
      // still become arrays) whenever such a value is present; routes split lists themselves.
      const url = ctx.request.url;
      const qi = url.indexOf("?");
      if (qi === -1 || !/,|%2c|\[|%5b|\{|%7b/i.test(url.slice(qi + 1))) return;
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of new URLSearchParams(url.slice(qi + 1))) {
        const cur = out[k];
        out[k] = cur === undefined ? v : Array.isArray(cur) ? [...cur, v] : [cur, v];
      }
      ctx.query = out as any;
    })
    .onParse({ as: "global" }, async ({ request, contentType, path }) => {
      // Our own JSON parser: enforces the body limit on chunked bodies too, and answers
      // `invalid JSON` for anything unparsable. Import paths get the raw text.
      const importPath = isImportPath(path);
      if (!importPath && !contentType?.startsWith("application/json")) return;
      const text = await request.text();
      if (Buffer.byteLength(text) > (importPath ? IMPORT_BODY_LIMIT : BODY_LIMIT)) {
        throw new AppError(413, "request body too large");
      }
      if (importPath) return text;
      if (text.trim() === "") return {};
      try {
        return JSON.parse(text);
      } catch {
        throw new AppError(400, "invalid JSON");
      }
    })
    .onError({ as: "global" }, ({ code, error, request, set }) => {
      const rid = meta.get(request)?.id;
      const headers: Record<string, string> = { ...SECURITY_HEADERS };
      if (rid) headers["x-request-id"] = rid;
      const cors = set.headers["access-control-allow-origin"];
      if (typeof cors === "string") headers["access-control-allow-origin"] = cors;
      // Elysia wraps what a parser throws in a ParseError; ours throws AppError (413, invalid JSON).
      const appError = error instanceof AppError ? error : (error as any)?.cause instanceof AppError ? ((error as any).cause as AppError) : null;
      if (appError) return json(appError.status, { error: appError.message }, { ...headers, ...appError.headers });
      switch (code) {
        case "VALIDATION": {
          if ((error as any).type === "response") {
            deps.log.error("response failed its schema", { request_id: rid, path: new URL(request.url).pathname, error: validationMessage(error) });
            return json(500, { error: "internal error" }, headers);
          }
          return json(400, { error: validationMessage(error) }, headers);
        }
        case "PARSE":
          return json(400, { error: "invalid JSON" }, headers);
        case "NOT_FOUND":
          return json(404, { error: "not found" }, headers);
      }
      if (typeof code === "number") {
        const body = (error as any)?.response;
        return json(code, typeof body === "object" && body && "error" in body ? body : { error: String(body ?? "error") }, headers);
      }
      deps.log.error("unhandled error", { request_id: rid, method: request.method, path: new URL(request.url).pathname, error });
      return json(500, { error: "internal error" }, headers);
    })
    .onAfterResponse({ as: "global" }, ({ request, set, response }) => {
      const m = meta.get(request);
      const status = response instanceof Response ? response.status : typeof set.status === "number" ? set.status : 200;
      deps.log.info("request", {
        request_id: m?.id,
        method: request.method,
        path: new URL(request.url).pathname,
        status,
        ms: m ? Math.round((performance.now() - m.start) * 10) / 10 : undefined,
      });
    });
}
