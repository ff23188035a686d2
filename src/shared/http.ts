// HTTP conventions for every route, present and future: request id, one JSON log line per
// request, security headers, body limits, the global rate limit, and the one error renderer
// that turns everything into {error} with the statuses of the spec's Errors table.
import { Elysia } from "elysia";
import type { Server } from "bun";
import type { Config } from "../config";
import type { Logger } from "./log";
import { AppError, ERROR_CODES, type ErrorCode } from "./errors";
import { decodeTextFile } from "./text-file";
import { issueMessage, requestRefusal } from "./request-validation";
import { RateLimiter, isPageLoad, isRateLimitExempt, refusesWithPage } from "./rate-limit";
import { isForbiddenAddress } from "./url-safety";
import { READ_METHODS, callerOf, type AuthDeps } from "./auth";

/** What the conventions plugin needs of the service (Deps has it). */
export interface HttpDeps extends AuthDeps {
  config: Config;
  log: Logger;
}

/** The content type of the Prometheus text format (/metrics and the per-mod, per-server, per-community metrics). */
export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export const BODY_LIMIT = 1024 * 1024;
export const IMPORT_BODY_LIMIT = 5 * 1024 * 1024;
/** Bun.serve's maxRequestBodySize: far above every route limit, so the app's JSON 413 answers first. */
export const SOCKET_BODY_CAP = 1024 * 1024 * 1024;
/**
 * Request headers (names and values) the app takes: 16 KiB, Bun's own default cap. Beyond it the
 * answer is our 431 `{error}`; beyond the runtime's raised cap (RUNTIME_HEADER_CAP, 64 KiB, in
 * src/shared/runtime-flags.ts) Bun's bare 431 answers before any of our code runs.
 */
export const HEADER_LIMIT = 16 * 1024;
const headerBytes = (headers: Headers) => {
  let n = 0;
  headers.forEach((value, name) => {
    n += name.length + value.length + 4; // "name: value\r\n"
  });
  return n;
};

/**
 * The path of an absolute request URL, as `new URL(url).pathname` gives it. A path of letters,
 * digits and `_ ~ / -` is one the URL parser keeps as it is (nothing to percent-encode, no dot
 * segment, no backslash), so it is cut out of the text; any other goes through the parser.
 * Parsing the URL twice a request (limits, then the log line) was ~1 µs of the fixed cost.
 */
const PLAIN_PATH = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(\/[\w~/-]*)(?:[?#]|$)/i;
export function pathOf(url: string): string {
  return PLAIN_PATH.exec(url)?.[1] ?? new URL(url).pathname;
}
/** Import endpoints take up to 5 MiB and receive the raw body text (shape 3 is not JSON). */
export const isImportPath = (path: string) => /\/import-(preview|apply)$/.test(path);

/**
 * The only mutating routes open without a credential (the spec's "public" rows). Every other
 * POST/PUT/PATCH/DELETE answers 401 before its body is read; test/http-limits.test.ts checks
 * this list against every route the app has.
 */
export const PUBLIC_MUTATIONS = new Set([
  "POST /api/v1/auth/register",
  "POST /api/v1/auth/login",
  "POST /api/v1/auth/magic",
  "POST /api/v1/jobs/scraper/detail",
]);

/** Deepest nesting of arrays and objects a request body may have (beyond it: 400 before parsing). */
export const MAX_JSON_DEPTH = 64;
export const TOO_DEEP = `JSON nested deeper than ${MAX_JSON_DEPTH} levels`;

/**
 * Most values a request body may hold in its arrays and objects, over all of them (beyond it: 400
 * before parsing). A list holds at most 1000 mods (a full server.json with 1000 entries has about
 * 5,000); a body of a million `0,` cost JSON.parse and every walk after it seconds, and an object
 * of 100,000 keys half a second for JSON.parse alone.
 */
export const MAX_JSON_ARRAY_ELEMENTS = 20_000;
export const TOO_MANY_ELEMENTS = `JSON with more than ${MAX_JSON_ARRAY_ELEMENTS} array elements and object members`;

/**
 * What is wrong with the shape of the JSON text in `bytes` before it is parsed, or null: nesting
 * deeper than `maxDepth`, or more than `maxElements` array elements and object members in all.
 * One pass counting `[` `{` `]` `}` and commas outside strings (a backslash escapes the next byte),
 * stopping at the first limit passed: a body of 100,000 `[` answers after 65 bytes. Bytes, not
 * characters: every byte of a multi-byte UTF-8 character is 0x80 or above, so none reads as a
 * bracket, a comma, a quote or a backslash. Whether the text is JSON at all is JSON.parse's call.
 */
export function jsonShapeRefusal(bytes: Uint8Array, maxDepth = MAX_JSON_DEPTH, maxElements = MAX_JSON_ARRAY_ELEMENTS): string | null {
  let depth = 0;
  let inString = false;
  let elements = 0;
  let empty = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c) i++; // \x: the escaped byte is content
      else if (b === 0x22) inString = false;
      continue;
    }
    if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) continue;
    if (empty) {
      // The first element of an array, or the first member of an object.
      if (b !== 0x5d && b !== 0x7d && ++elements > maxElements) return TOO_MANY_ELEMENTS;
    }
    empty = false;
    if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > maxDepth) return TOO_DEEP;
      empty = true;
    } else if ((b === 0x5d || b === 0x7d) && depth > 0) depth--;
    else if (b === 0x2c && depth > 0 && ++elements > maxElements) return TOO_MANY_ELEMENTS;
  }
  return null;
}

/** Whether the JSON text in `bytes` nests arrays and objects deeper than `max` (see jsonShapeRefusal). */
export const jsonNestsDeeperThan = (bytes: Uint8Array, max: number) => jsonShapeRefusal(bytes, max, Infinity) === TOO_DEEP;

const isJsonType = (contentType: string) => /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType);
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a body as a stream and stops at `limit` bytes with 413, so a chunked body (no
 * Content-Length) is never buffered past the route's limit.
 */
async function readBounded(request: Request, limit: number): Promise<Uint8Array> {
  const body = request.body;
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw new AppError("request.too_large", "request body too large");
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * What the hooks of one request share, kept on its `set` (the one object Elysia hands every hook
 * of a request, under a symbol Response init never reads) rather than in WeakMaps keyed by the
 * request: four weak-map operations a request, and weak entries the GC must sweep, for a record
 * that lives exactly as long as the request.
 */
interface RequestMeta {
  id?: string;
  start?: number;
  path?: string;
  /** The log line was written when the request was refused early (see `early`). */
  loggedEarly?: boolean;
  /** Status of the error response rendered (Elysia's afterResponse does not see it). */
  errorStatus?: number;
}
const META = Symbol("request meta");
type WithMeta = { [META]?: RequestMeta };
const metaOf = (set: object): RequestMeta | undefined => (set as WithMeta)[META];

/** Client IP: the socket address, or the first X-Forwarded-For hop when LOADOUT_TRUST_PROXY is on. */
export function clientIp(deps: Pick<HttpDeps, "config">, request: Request, server?: Server<any> | null): string {
  if (deps.config.LOADOUT_TRUST_PROXY) {
    const xff = request.headers.get("x-forwarded-for");
    if (xff) return xff.split(",")[0]!.trim();
  }
  return server?.requestIP(request)?.address ?? "unknown";
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

/** An error answer: `{error, code}` with the code's status (and any more fields of `extra`). */
const errorResponse = (code: ErrorCode, message: string, headers: Record<string, string>, extra?: Record<string, unknown>) =>
  json(ERROR_CODES[code].status, { ...extra, error: message, code }, headers);

/**
 * The global limit's refusal: `{error: "too many requests"}` on API paths; on a page path (a
 * person in a browser) a small page that says how long to wait and reloads itself then.
 */
function tooManyRequests(path: string, retryAfter: number, requestId: string): Response {
  const headers = { ...SECURITY_HEADERS, "retry-after": String(retryAfter), "x-request-id": requestId };
  if (!refusesWithPage(path)) return errorResponse("request.rate_limited", "too many requests", headers);
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${retryAfter}"><title>Too many requests · Loadout</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:15vh auto;padding:0 1rem;color:#1d2430;background:#f6f7f9}@media(prefers-color-scheme:dark){body{color:#e4e8ee;background:#14181f}}h1{font-size:1.4rem}</style>
</head><body><main><h1>Too many requests</h1>
<p>This address has sent more requests in the last minute than Loadout answers. Please wait ${retryAfter} second${retryAfter === 1 ? "" : "s"}; this page reloads by itself then.</p>
</main></body></html>
`;
  return new Response(page, {
    status: 429,
    headers: { ...headers, "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'" },
  });
}

/** The line logged once when a proxy's X-Forwarded-For is ignored. */
export const UNTRUSTED_PROXY_WARNING =
  "requests carry X-Forwarded-For from a loopback or private address, but LOADOUT_TRUST_PROXY is off: every visitor behind that proxy counts as one client (one rate limit, one login limit). If the proxy sets or overwrites X-Forwarded-For, set LOADOUT_TRUST_PROXY=true (docs/operations.md, 'Behind a reverse proxy')";

const SECURITY_HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
};

/** Elysia's ValidationError (only response schemas still raise it: request schemas throw AppError). */
const validationMessage = (error: any): string => issueMessage((error.all as { path: string; message: string }[] | undefined)?.[0]);

/**
 * `server` gives the listening server (client addresses): `() => app.server` of the app this
 * plugin is used in. Asked for rather than read from the request context: a global hook that
 * names `server` makes Elysia define a `server` getter on the context of every request.
 * Without one (an app that is only ever `handle`d, as in tests) the address is "unknown".
 */
export function httpPlugin(deps: HttpDeps, server: () => Server<any> | null | undefined = () => null) {
  // Anonymous requests and bad credentials count against the client IP; valid credentials
  // against the user, all their API keys and tokens together. 0 turns a limit off.
  const { LOADOUT_RATE_LIMIT_ANON: anonLimit, LOADOUT_RATE_LIMIT_USER: userLimit } = deps.config;
  const anonLimiter = anonLimit > 0 ? new RateLimiter(anonLimit, 60_000, () => deps.clock.now()) : null;
  const userLimiter = userLimit > 0 ? new RateLimiter(userLimit, 60_000, () => deps.clock.now()) : null;
  // Until warned once: a request with X-Forwarded-For from a proxy-like peer while the header is not trusted.
  let watchForProxy = !deps.config.LOADOUT_TRUST_PROXY;

  return new Elysia({ name: "http" })
    // Every answer's security headers, as the app's default headers: Elysia copies those into each
    // request's `set.headers` when it creates the context (it does already for CORS's), instead of
    // a second copy in the hook below.
    .headers(SECURITY_HEADERS)
    // Synchronous but for a request with a credential (whose caller is looked up first): an async
    // hook made a promise a request. Elysia awaits what it returns either way.
    .onRequest(({ request, set }) => {
      const id = request.headers.get("x-request-id")?.slice(0, 100) || crypto.randomUUID();
      const path = pathOf(request.url);
      (set as WithMeta)[META] = { id, start: performance.now(), path };
      set.headers["x-request-id"] = id;

      if (headerBytes(request.headers) > HEADER_LIMIT) {
        return early(request, set, errorResponse("request.headers_too_large", "request headers too large", { ...SECURITY_HEADERS, "x-request-id": id }));
      }

      const len = Number(request.headers.get("content-length") ?? 0);
      if (len > (isImportPath(path) ? IMPORT_BODY_LIMIT : BODY_LIMIT)) {
        return early(request, set, errorResponse("request.too_large", "request body too large", { ...SECURITY_HEADERS, "x-request-id": id }));
      }

      if (watchForProxy && request.headers.has("x-forwarded-for")) {
        const peer = server()?.requestIP(request)?.address;
        if (peer && isForbiddenAddress(peer)) {
          watchForProxy = false;
          deps.log.warn(UNTRUSTED_PROXY_WARNING, { peer });
        }
      }

      if ((anonLimiter || userLimiter) && !isRateLimitExempt(path) && !isPageLoad(request.method, path)) {
        if (request.headers.has("authorization") || request.headers.has("x-api-key")) return limitCaller(request, set, path, id);
        return limitAddress(request, set, path, id);
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
      // Our own body parser, run before any byte is read: a route that needs a credential and
      // has none (or a bad one) is 401 here; then only JSON is JSON (415 otherwise), the body is
      // read as a stream up to the route's limit (413), may nest at most 64 levels (counted
      // before JSON.parse), must be UTF-8 and parse. Import paths
      // take any text up to 5 MiB (shape 3 is not JSON).
      if (!PUBLIC_MUTATIONS.has(`${request.method} ${path}`)) {
        const caller = await callerOf(deps, request); // rejects with 401 for a bad credential
        if (!caller) throw new AppError("unauthorized", "unauthorized");
      }
      const importPath = isImportPath(path);
      if (!importPath && contentType && !isJsonType(contentType)) {
        throw new AppError("request.unsupported_media_type", "content type must be application/json");
      }
      const bytes = await readBounded(request, importPath ? IMPORT_BODY_LIMIT : BODY_LIMIT);
      // Import bodies are server.json too (or a text shape, whose brackets never nest this deep
      // nor hold this many elements).
      const refusal = jsonShapeRefusal(bytes);
      if (refusal) throw new AppError("request.too_complex", refusal);
      if (importPath) {
        // An uploaded server.json: UTF-8 (a BOM dropped) or UTF-16 with its BOM, as Windows
        // tools save it.
        const decoded = decodeTextFile(bytes);
        if (!decoded) throw new AppError("request.bad_encoding", "the file is neither UTF-8 nor UTF-16 with a byte order mark; save it as UTF-8");
        return decoded.text;
      }
      let text: string;
      try {
        text = utf8.decode(bytes);
      } catch {
        throw new AppError("request.invalid_json", "invalid JSON");
      }
      if (text.trim() === "") return {};
      try {
        return JSON.parse(text);
      } catch {
        throw new AppError("request.invalid_json", "invalid JSON");
      }
    })
    // Destructured: a hook that takes the whole context (or hands it on) makes Elysia's static
    // analysis assume it reads everything, and every route then parses cookies it never uses.
    .onError({ as: "global" }, ({ code, error, request, set }) => {
      const res = renderError({ code, error, request, set });
      ((set as WithMeta)[META] ??= {}).errorStatus = res.status; // the log line records what was sent
      return res;
    })
    .onAfterResponse({ as: "global" }, ({ request, set, response }) => {
      const m = metaOf(set);
      if (m?.loggedEarly) return;
      logRequest(request, m, m?.errorStatus ?? (response instanceof Response ? response.status : typeof set.status === "number" ? set.status : 200));
    });

  /** The global limit for a request with a credential: its user's when valid, else its address's. */
  async function limitCaller(request: Request, set: object, path: string, id: string): Promise<Response | undefined> {
    const caller = await callerOf(deps, request).catch(() => null);
    if (!caller) return limitAddress(request, set, path, id);
    const retryAfter = userLimiter?.over("u:" + caller.id) ?? 0;
    if (retryAfter > 0) return early(request, set, tooManyRequests(path, retryAfter, id));
  }

  function limitAddress(request: Request, set: object, path: string, id: string): Response | undefined {
    const retryAfter = anonLimiter?.over("ip:" + clientIp(deps, request, server())) ?? 0;
    if (retryAfter > 0) return early(request, set, tooManyRequests(path, retryAfter, id));
  }

  function logRequest(request: Request, m: RequestMeta | undefined, status: number) {
    deps.log.info("request", {
      request_id: m?.id,
      method: request.method,
      path: m?.path ?? pathOf(request.url),
      status,
      ms: m?.start !== undefined ? Math.round((performance.now() - m.start) * 10) / 10 : undefined,
    });
  }

  /**
   * A refusal answered from onRequest (431, 413, 429), logged here: Elysia runs no afterResponse
   * hook for an answer returned that early, so these lines were missing from the log (rate-limit
   * refusals included). `loggedEarly` keeps it to one line should a later Elysia run the hook.
   */
  function early(request: Request, set: object, response: Response): Response {
    const m = ((set as WithMeta)[META] ??= {});
    m.loggedEarly = true;
    logRequest(request, m, response.status);
    return response;
  }

  function renderError({ code, error, request, set }: { code: unknown; error: unknown; request: Request; set: { headers: Record<string, unknown> } }): Response {
      const rid = metaOf(set)?.id;
      const headers: Record<string, string> = { ...SECURITY_HEADERS };
      if (rid) headers["x-request-id"] = rid;
      const cors = set.headers["access-control-allow-origin"];
      if (typeof cors === "string") headers["access-control-allow-origin"] = cors;
      // Elysia wraps what a parser throws in a ParseError; ours throws AppError (413, invalid JSON).
      // A request schema Elysia checked itself (not through request-validation.ts) gets the same 400.
      const requestInvalid = code === "VALIDATION" && (error as any).type !== "response";
      const appError =
        error instanceof AppError
          ? error
          : (error as any)?.cause instanceof AppError
            ? ((error as any).cause as AppError)
            : requestInvalid
              ? requestRefusal((error as any).all?.[0])
              : null;
      if (appError) return errorResponse(appError.code, appError.message, { ...headers, ...appError.headers }, appError.body);
      switch (code) {
        case "VALIDATION":
          // Only a response schema gets here (a request's is the 400 above): our bug, a plain 500.
          deps.log.error("response failed its schema", { request_id: rid, path: new URL(request.url).pathname, error: validationMessage(error) });
          return errorResponse("internal", "internal error", headers);
        case "PARSE":
          return errorResponse("request.invalid_json", "invalid JSON", headers);
        case "NOT_FOUND":
          return errorResponse("request.route_not_found", "not found", headers);
      }
      deps.log.error("unhandled error", { request_id: rid, method: request.method, path: new URL(request.url).pathname, error });
      return errorResponse("internal", "internal error", headers);
  }
}
