// createTestApp(): the real app on a fresh SQLite file (migrations applied), with helpers to
// make requests and users. No mocks of our own code: outside systems are local fakes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testConfig } from "../src/config";
import { createDeps } from "../src/runtime";
import { createApp } from "../src/app";
import type { Deps } from "../src/deps";
import { createMemoryLogger } from "../src/shared/log";
import { createUser as createUserRow } from "../src/features/users/service";
import { issueToken } from "../src/shared/auth";
import { createApiKey } from "../src/features/users/service";
import { ERROR_CODES, type ErrorCode } from "../src/shared/errors";

/**
 * A clock tests can move. It starts at the real time (so the suite passes on any day) unless
 * a test gives it a start; everything the app signs or dates reads this clock (`deps.clock`).
 */
export class TestClock {
  constructor(public t = Date.now()) {}
  now = () => this.t;
  advance(ms: number) {
    this.t += ms;
  }
  set(ms: number) {
    this.t = ms;
  }
}

export interface TestUser {
  id: string;
  email: string;
  display_name: string;
  token: string;
  /** Authorization header for this user. */
  auth: { authorization: string };
}

export interface ReqOptions {
  body?: unknown;
  /** Sent as is (no JSON encoding). */
  raw?: string | Uint8Array;
  token?: string;
  user?: TestUser;
  apiKey?: string;
  headers?: Record<string, string>;
}

export interface TestResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/**
 * Every error answer carries a code of ERROR_CODES with that code's status (docs/architecture.md
 * "Errors"): checked on every answer a test gets through `req`, so a route that answers an error
 * without its code fails whichever test meets it.
 */
export function assertErrorCode(method: string, path: string, status: number, body: unknown) {
  if (status < 400 || !body || typeof body !== "object" || !("error" in body)) return;
  const code = (body as { code?: unknown }).code;
  const entry = typeof code === "string" ? ERROR_CODES[code as ErrorCode] : undefined;
  if (!entry) throw new Error(`${method} ${path} answered ${status} ${JSON.stringify(body)} without a listed error code`);
  if (entry.status !== status) throw new Error(`${method} ${path} answered ${status} with code ${code}, whose status is ${entry.status}`);
}

export async function createTestApp(opts: { env?: Record<string, string>; clock?: TestClock; fetch?: typeof fetch } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "loadout-test-"));
  const config = testConfig({ LOADOUT_DATA_DIR: dir, LOADOUT_REGISTRATION: "open", ...opts.env });
  const log = createMemoryLogger("debug");
  const clock = opts.clock ?? new TestClock();
  const deps: Deps = createDeps(config, { log, clock, fetch: opts.fetch });
  const app = createApp(deps);
  let n = 0;

  async function req<T = any>(method: string, path: string, o: ReqOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.user) headers.authorization = `Bearer ${o.user.token}`;
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.apiKey) headers["x-api-key"] = o.apiKey;
    let body: string | Uint8Array | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body: body as any }));
    // The bytes as text with a byte order mark kept (Response.text() drops it): what a client saving the file gets.
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text.replace(/^\ufeff/, "")) : null;
    } catch {}
    assertErrorCode(method, path, res.status, parsed);
    return { status: res.status, body: parsed, text, headers: res.headers };
  }

  /** Creates a user directly (no HTTP, no e-mail) and returns it with a valid JWT. */
  async function createUser(o: { email?: string; display_name?: string; role?: "user" | "admin"; approved?: boolean; password?: string } = {}): Promise<TestUser> {
    n++;
    const email = o.email ?? `user${n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const display_name = o.display_name ?? `User ${n}`;
    const id = await createUserRow(deps, {
      email,
      display_name,
      password: o.password,
      role: o.role ?? "user",
      is_approved: o.approved ?? true,
      email_verified: true,
    });
    const token = await issueToken(deps, { id, role: o.role ?? "user" });
    return { id, email, display_name, token, auth: { authorization: `Bearer ${token}` } };
  }

  const apiKeyFor = (user: TestUser, name = "test") => createApiKey(deps, user.id, name).key;

  async function close() {
    await deps.jobs.stop(1000);
    deps.sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }

  return { app, deps, config, log, clock, dir, req, createUser, apiKeyFor, close };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
