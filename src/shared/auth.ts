// Authentication as a named plugin with macros (docs/architecture.md "Auth"): routes say
// `{ auth: true }`, `{ optionalAuth: true }` or `{ admin: true }` and get `user`.
// JWT (Authorization: Bearer) and API keys (X-API-Key, or a Bearer value starting `lo_`)
// are accepted everywhere. Nothing per-request goes into `store`.
import { Elysia } from "elysia";
import { jwt } from "@elysiajs/jwt";
import { AppError } from "./errors";
import { sha256Hex } from "./ids";

export interface AuthUser {
  id: string;
  email: string | null;
  display_name: string;
  role: "user" | "admin";
  is_approved: boolean;
}

export const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const API_KEY_PREFIX = "lo_";

export type Signer = {
  sign(p: Record<string, string | number>): Promise<string>;
  verify(t?: string): Promise<false | Record<string, unknown>>;
};

const signers = new WeakMap<AuthDeps, Signer>();

/**
 * The @elysiajs/jwt signer (HS256) for these deps' secret: login, OAuth state, tests.
 * Expiry is judged by `deps.clock`, the same clock that computed `exp` when signing (the
 * library would compare with the machine's clock, so a token signed by an injected clock
 * could expire or live on according to another clock than the one that issued it).
 */
export function signerFor(deps: AuthDeps): Signer {
  let s = signers.get(deps);
  if (!s) {
    const lib = (jwt({ name: "jwt", secret: deps.secrets.jwtSecret, alg: "HS256" }) as any).singleton.decorator.jwt as {
      sign: Signer["sign"];
      verify(t: string | undefined, options: { currentDate: Date }): Promise<false | Record<string, unknown>>;
    };
    s = {
      sign: (payload) => lib.sign(payload),
      verify: (token) => lib.verify(token, { currentDate: new Date(deps.clock.now()) }),
    };
    signers.set(deps, s);
  }
  return s;
}

/** Looks up the caller from the headers; null when no credential is sent; throws 401 for a bad one. */
export async function authenticate(deps: AuthDeps, signer: Signer, headers: Record<string, string | undefined>): Promise<AuthUser | null> {
  const authz = headers["authorization"];
  let apiKey = headers["x-api-key"];
  let token: string | undefined;
  if (authz) {
    const m = /^Bearer\s+(.+)$/i.exec(authz.trim());
    if (!m) throw new AppError("unauthorized", "unauthorized");
    if (m[1]!.startsWith(API_KEY_PREFIX)) apiKey = m[1];
    else token = m[1];
  }
  if (apiKey) return userByApiKey(deps, apiKey);
  if (!token) return null;
  const payload = await signer.verify(token);
  if (!payload || typeof payload.sub !== "string") throw new AppError("unauthorized", "unauthorized");
  const c = deps.callers.byId(payload.sub);
  if (!c) throw new AppError("unauthorized", "unauthorized"); // deleted user
  if (c.disabled) throw new AppError("unauthorized", DISABLED);
  // Issued before the password changed: that session is signed out.
  const issued = typeof payload.ts === "number" ? payload.ts : payload.iat;
  if (c.tokensValidFrom !== null && (typeof issued !== "number" || issued < c.tokensValidFrom)) throw new AppError("unauthorized", "unauthorized");
  return c.user;
}

/** A caller as kept: the user, whether an admin disabled the account, since when its tokens count. */
export interface CallerRow {
  user: AuthUser;
  disabled: boolean;
  /** Tokens issued before this (epoch seconds) are refused (a password change). */
  tokensValidFrom: number | null;
}

/** Who a credential is: the users feature's tables, read through `Deps.callers` (users/callers.ts). */
export interface CallerSource {
  byId(id: string): CallerRow | null;
  /** The caller of an API key's hash (its use recorded at `now`), or null. */
  byKeyHash(hash: string, now: number): CallerRow | null;
}

/** What the auth plugin needs of the service (Deps has it). */
export interface AuthDeps {
  config: { LOADOUT_JWT_TTL: number };
  clock: { now(): number };
  secrets: { jwtSecret: string };
  callers: CallerSource;
}

/** A disabled account's credentials are refused, its tokens and keys alike. */
const DISABLED = "account disabled";

export function userById(deps: Pick<AuthDeps, "callers">, id: string): AuthUser | null {
  return deps.callers.byId(id)?.user ?? null;
}

function userByApiKey(deps: AuthDeps, key: string): AuthUser {
  const c = deps.callers.byKeyHash(sha256Hex(key), deps.clock.now());
  if (!c) throw new AppError("unauthorized", "unauthorized");
  if (c.disabled) throw new AppError("unauthorized", DISABLED);
  return c.user;
}

const requestCallers = new WeakMap<Request, Promise<AuthUser | null>>();

/**
 * The caller of a request, looked up once per request: the http plugin asks first (rate limit
 * per user, 401 before a body is read), the route's macro gets the same answer. Resolves null
 * without a credential; rejects with 401 for a bad one.
 */
export function callerOf(deps: AuthDeps, request: Request): Promise<AuthUser | null> {
  let p = requestCallers.get(request);
  if (!p) {
    p = authenticate(deps, signerFor(deps), {
      authorization: request.headers.get("authorization") ?? undefined,
      "x-api-key": request.headers.get("x-api-key") ?? undefined,
    });
    p.catch(() => {}); // a bad credential is reported where it is awaited
    requestCallers.set(request, p);
  }
  return p;
}

const plugins = new WeakMap<AuthDeps, ReturnType<typeof buildAuthPlugin>>();

function buildAuthPlugin(deps: AuthDeps) {
  return new Elysia({ name: "auth" }).macro({
      /** A signed-in user; mutations need an approved account. */
      auth: {
        resolve: async ({ request }) => {
          const user = await callerOf(deps, request);
          if (!user) throw new AppError("unauthorized", "unauthorized");
          if (!READ_METHODS.has(request.method) && !user.is_approved) throw new AppError("user.pending_approval", "account pending approval");
          return { user };
        },
      },
      /** A signed-in user, approved or not (for the few mutations an unapproved account may make, such as deleting itself). */
      authAny: {
        resolve: async ({ request }) => {
          const user = await callerOf(deps, request);
          if (!user) throw new AppError("unauthorized", "unauthorized");
          return { user };
        },
      },
      /** The signed-in user or null; a bad credential is still 401. */
      optionalAuth: {
        resolve: async ({ request }) => {
          const user = await callerOf(deps, request);
          return { user: user as AuthUser | null };
        },
      },
      /** An admin. */
      admin: {
        resolve: async ({ request }) => {
          const user = await callerOf(deps, request);
          if (!user) throw new AppError("unauthorized", "unauthorized");
          if (user.role !== "admin") throw new AppError("auth.admin_only", "no permission");
          return { user };
        },
      },
    });
}

/** The auth plugin for these deps (one instance per app, so Elysia deduplicates it by name). */
export function authPlugin(deps: AuthDeps) {
  let p = plugins.get(deps);
  if (!p) {
    p = buildAuthPlugin(deps);
    plugins.set(deps, p);
  }
  return p;
}

/**
 * Issues a JWT for a user: claims sub, role, iat, exp (LOADOUT_JWT_TTL), and `ts`, the issue
 * time by `deps.clock` (the library writes `iat` from the machine's clock): what a password
 * change's tokens_valid_from is compared with.
 */
export async function issueToken(deps: AuthDeps, user: { id: string; role: string }): Promise<string> {
  const signer = signerFor(deps);
  const iat = Math.floor(deps.clock.now() / 1000);
  return signer.sign({ sub: user.id, role: user.role, iat, ts: iat, exp: iat + deps.config.LOADOUT_JWT_TTL });
}
