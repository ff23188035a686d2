// Authentication as a named plugin with macros (docs/architecture.md "Auth"): routes say
// `{ auth: true }`, `{ optionalAuth: true }` or `{ admin: true }` and get `user`.
// JWT (Authorization: Bearer) and API keys (X-API-Key, or a Bearer value starting `lo_`)
// are accepted everywhere. Nothing per-request goes into `store`.
import type { Database, Statement } from "bun:sqlite";
import { Elysia } from "elysia";
import { jwt } from "@elysiajs/jwt";
import type { Deps } from "../deps";
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

const signers = new WeakMap<Deps, Signer>();

/**
 * The @elysiajs/jwt signer (HS256) for these deps' secret: login, OAuth state, tests.
 * Expiry is judged by `deps.clock`, the same clock that computed `exp` when signing (the
 * library would compare with the machine's clock, so a token signed by an injected clock
 * could expire or live on according to another clock than the one that issued it).
 */
export function signerFor(deps: Deps): Signer {
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
export async function authenticate(deps: Deps, signer: Signer, headers: Record<string, string | undefined>): Promise<AuthUser | null> {
  const authz = headers["authorization"];
  let apiKey = headers["x-api-key"];
  let token: string | undefined;
  if (authz) {
    const m = /^Bearer\s+(.+)$/i.exec(authz.trim());
    if (!m) throw new AppError(401, "unauthorized");
    if (m[1]!.startsWith(API_KEY_PREFIX)) apiKey = m[1];
    else token = m[1];
  }
  if (apiKey) return userByApiKey(deps, apiKey);
  if (!token) return null;
  const payload = await signer.verify(token);
  if (!payload || typeof payload.sub !== "string") throw new AppError(401, "unauthorized");
  const c = callerById(deps, payload.sub);
  if (!c) throw new AppError(401, "unauthorized"); // deleted user
  if (c.disabled) throw new AppError(401, DISABLED);
  // Issued before the password changed: that session is signed out.
  const issued = typeof payload.ts === "number" ? payload.ts : payload.iat;
  if (c.tokensValidFrom !== null && (typeof issued !== "number" || issued < c.tokensValidFrom)) throw new AppError(401, "unauthorized");
  return c.user;
}

const USER_COLS = "u.id, u.email, u.display_name, u.role, u.is_approved, u.disabled_at, u.tokens_valid_from";

/** A caller as kept: the user, whether an admin disabled the account, since when its tokens count. */
interface CallerRow {
  user: AuthUser;
  disabled: boolean;
  tokensValidFrom: number | null;
}

function toCaller(r: any): CallerRow {
  return {
    user: Object.freeze({ id: r.id, email: r.email, display_name: r.display_name, role: r.role, is_approved: !!r.is_approved }),
    disabled: r.disabled_at !== null && r.disabled_at !== undefined,
    tokensValidFrom: r.tokens_valid_from ?? null,
  };
}

/** A disabled account's credentials are refused, its tokens and keys alike. */
const DISABLED = "account disabled";

/**
 * Who credentials are, in memory: key hash → caller (with the key's last recorded use) and user
 * id → user, for every authenticated request. Dropped whole when auth_state.gen moves: triggers
 * move it on every write that can change a key's owner or a user's name, role or approval, and
 * on every deletion (src/db/custom/96_auth_gen.sql), so a revoked key or a demoted admin is
 * refused on the next request as before. Unknown credentials are never cached.
 */
interface Callers {
  gen: number;
  genStmt: Statement<{ value: number }, []>;
  keys: Map<string, { caller: CallerRow; keyId: string; lastUsed: number | null }>;
  users: Map<string, CallerRow>;
}
const callerCaches = new WeakMap<Database, Callers>();
const CALLERS_MAX = 20_000;

function callers(sqlite: Database): Callers {
  let c = callerCaches.get(sqlite);
  if (!c) {
    c = { gen: -1, genStmt: sqlite.prepare("SELECT value FROM auth_state WHERE key = 'gen'") as any, keys: new Map(), users: new Map() };
    callerCaches.set(sqlite, c);
  }
  const gen = c.genStmt.get()?.value ?? 0;
  if (gen !== c.gen || c.keys.size + c.users.size > CALLERS_MAX) {
    c.gen = gen;
    c.keys.clear();
    c.users.clear();
  }
  return c;
}

function callerById(deps: Pick<Deps, "sqlite">, id: string): CallerRow | null {
  const c = callers(deps.sqlite);
  const hit = c.users.get(id);
  if (hit) return hit;
  const r = deps.sqlite.query(`SELECT ${USER_COLS} FROM users u WHERE u.id = ?`).get(id);
  if (!r) return null;
  const caller = toCaller(r);
  c.users.set(id, caller);
  return caller;
}

export function userById(deps: Pick<Deps, "sqlite">, id: string): AuthUser | null {
  return callerById(deps, id)?.user ?? null;
}

function userByApiKey(deps: Deps, key: string): AuthUser {
  const hash = sha256Hex(key);
  const c = callers(deps.sqlite);
  let e = c.keys.get(hash);
  if (!e) {
    const r = deps.sqlite
      .query(`SELECT ${USER_COLS}, k.id AS key_id, k.last_used_at FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ?`)
      .get(hash) as any;
    if (!r) throw new AppError(401, "unauthorized");
    e = { caller: toCaller(r), keyId: r.key_id, lastUsed: r.last_used_at };
    c.keys.set(hash, e);
  }
  if (e.caller.disabled) throw new AppError(401, DISABLED);
  const now = deps.clock.now();
  // last_used_at at minute resolution: no write on every request.
  if (!e.lastUsed || now - e.lastUsed > 60_000) {
    deps.sqlite.query("UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(now, e.keyId);
    e.lastUsed = now;
  }
  return e.caller.user;
}

const requestCallers = new WeakMap<Request, Promise<AuthUser | null>>();

/**
 * The caller of a request, looked up once per request: the http plugin asks first (rate limit
 * per user, 401 before a body is read), the route's macro gets the same answer. Resolves null
 * without a credential; rejects with 401 for a bad one.
 */
export function callerOf(deps: Deps, request: Request): Promise<AuthUser | null> {
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

const plugins = new WeakMap<Deps, ReturnType<typeof buildAuthPlugin>>();

function buildAuthPlugin(deps: Deps) {
  return new Elysia({ name: "auth" }).macro({
      /** A signed-in user; mutations need an approved account. */
      auth: {
        resolve: async ({ request }) => {
          const user = await callerOf(deps, request);
          if (!user) throw new AppError(401, "unauthorized");
          if (!READ_METHODS.has(request.method) && !user.is_approved) throw new AppError(403, "account pending approval");
          return { user };
        },
      },
      /** A signed-in user, approved or not (for the few mutations an unapproved account may make, such as deleting itself). */
      authAny: {
        resolve: async ({ request }) => {
          const user = await callerOf(deps, request);
          if (!user) throw new AppError(401, "unauthorized");
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
          if (!user) throw new AppError(401, "unauthorized");
          if (user.role !== "admin") throw new AppError(403, "no permission");
          return { user };
        },
      },
    });
}

/** The auth plugin for these deps (one instance per app, so Elysia deduplicates it by name). */
export function authPlugin(deps: Deps) {
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
export async function issueToken(deps: Deps, user: { id: string; role: string }): Promise<string> {
  const signer = signerFor(deps);
  const iat = Math.floor(deps.clock.now() / 1000);
  return signer.sign({ sub: user.id, role: user.role, iat, ts: iat, exp: iat + deps.config.LOADOUT_JWT_TTL });
}
