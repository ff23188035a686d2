import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../test/helpers";
import { until } from "../../test/until";
import { RateLimiter } from "./rate-limit";
import { pathOf } from "./http";

describe("HTTP conventions", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  test("unknown route → 404 {error: not found}", async () => {
    const r = await t.req("GET", "/api/v1/definitely/not/here");
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: "not found", code: "request.route_not_found" });
  });

  test("bad JSON → 400 invalid JSON", async () => {
    const r = await t.req("POST", "/api/v1/auth/login", { raw: '{"email": ', headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "invalid JSON", code: "request.invalid_json" });
  });

  test("wrong types → 400 naming the first failing field", async () => {
    const r = await t.req("POST", "/api/v1/auth/register", { body: { email: "a@example.com", password: 12345678, display_name: "A" } });
    expect(r.status).toBe(400);
    expect(r.body.error).toStartWith("password: ");
    const q = await t.req("GET", "/api/v1/jobs?limit=abc", { user: await t.createUser({ role: "admin" }) });
    expect(q.status).toBe(400);
    expect(q.body.error).toStartWith("limit: ");
  });

  test("unknown JSON properties are ignored", async () => {
    const u = await t.createUser();
    const r = await t.req("POST", "/api/v1/api-keys", { user: u, body: { name: "k", surprise: true } });
    expect(r.status).toBe(200);
    expect(r.body.surprise).toBeUndefined();
  });

  test("body over 1 MiB → 413, with or without Content-Length", async () => {
    const big = JSON.stringify({ email: "a@example.com", password: "x".repeat(1024 * 1024), display_name: "A" });
    const r = await t.req("POST", "/api/v1/auth/register", { raw: big, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: "request body too large", code: "request.too_large" });
    // Chunked (no Content-Length): the parser counts the bytes itself.
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const res = await t.app.handle(new Request("http://localhost/api/v1/auth/register", { method: "POST", headers: { "content-type": "application/json" }, body: stream, duplex: "half" } as any));
    expect(res.status).toBe(413);
  });

  test("every response carries a request id and security headers; a given X-Request-Id is echoed", async () => {
    const r = await t.req("GET", "/api/v1/health", { headers: { "x-request-id": "abc-123" } });
    expect(r.headers.get("x-request-id")).toBe("abc-123");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    const e = await t.req("GET", "/nope");
    expect(e.headers.get("x-request-id")).toBeTruthy();
    expect(e.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("one JSON log line per request with method, path, status and request id", async () => {
    const before = t.log.lines.length;
    await t.req("GET", "/api/v1/health", { headers: { "x-request-id": "log-me" } });
    // The line is written after the response is sent; lines go out in order, so once a later
    // request's line is there, every line of this one is too.
    await t.req("GET", "/api/v1/health", { headers: { "x-request-id": "log-me-after" } });
    const logged = () => t.log.lines.slice(before).map((l) => JSON.parse(l)).filter((l) => l.msg === "request");
    await until("the later request's line", () => logged().some((l) => l.request_id === "log-me-after"));
    const lines = logged().filter((l) => l.request_id === "log-me");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: "GET", path: "/api/v1/health", status: 200, request_id: "log-me" });
  });

  test("CORS: preflight answered, origin allowed", async () => {
    const r = await t.req("OPTIONS", "/api/v1/auth/me", { headers: { origin: "https://panel.example.org", "access-control-request-method": "GET" } });
    expect(r.status).toBeLessThan(300);
    expect(r.headers.get("access-control-allow-origin")).toBeTruthy();
  });

  test("health answers {status, version, db} without authentication", async () => {
    const r = await t.req("GET", "/api/v1/health");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "ok", db: "ok" });
    expect(typeof r.body.version).toBe("string");
  });

  test("OpenAPI JSON documents the routes with their zod schemas; the UI is served with its own bundle", async () => {
    const doc = await t.req("GET", "/swagger/json");
    expect(doc.status).toBe(200);
    const register = doc.body.paths["/api/v1/auth/register"].post;
    expect(register.requestBody.content["application/json"].schema.properties.email).toBeDefined();
    const ui = await t.req("GET", "/swagger");
    expect(ui.status).toBe(200);
    expect(ui.text).toContain("/swagger/assets/scalar.js");
    expect(ui.text).not.toContain("cdn.jsdelivr.net");
    const bundle = await t.app.handle(new Request("http://localhost/swagger/assets/scalar.js"));
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  test("an unhandled error is a plain 500 internal error, logged with the request id, never echoed", async () => {
    const { Elysia } = await import("elysia");
    const { httpPlugin } = await import("./http");
    const app = new Elysia().use(httpPlugin(t.deps)).get("/boom", () => {
      throw new Error("secret database detail");
    });
    const res = await app.handle(new Request("http://localhost/boom", { headers: { "x-request-id": "boom-1" } }));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: "internal error", code: "internal" });
    expect(text).not.toContain("secret");
    expect(t.log.lines.some((l) => l.includes("boom-1") && l.includes("secret database detail"))).toBe(true);
  });
});

describe("global rate limit", () => {
  test("300 requests a minute per IP without credentials, then 429 with Retry-After; exempt paths never limited", async () => {
    const t = await createTestApp({ env: { LOADOUT_TRUST_PROXY: "true" } });
    try {
      const h = { "x-forwarded-for": "203.0.113.5" };
      for (let i = 0; i < 300; i++) {
        const r = await t.req("GET", "/api/v1/users/search?q=ab", { headers: h });
        expect(r.status).toBe(401);
      }
      const limited = await t.req("GET", "/api/v1/users/search?q=ab", { headers: h });
      expect(limited.status).toBe(429);
      expect(limited.body.error).toBe("too many requests");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await t.req("GET", "/metrics", { headers: h })).status).toBe(200);
      expect((await t.req("GET", "/api/v1/users/search?q=ab", { headers: { "x-forwarded-for": "203.0.113.6" } })).status).toBe(401);
      t.clock.advance(61_000);
      expect((await t.req("GET", "/api/v1/users/search?q=ab", { headers: h })).status).toBe(401);
    } finally {
      await t.close();
    }
  });

  test("1200 a minute per credential", async () => {
    const t = await createTestApp();
    try {
      const u = await t.createUser();
      let last = 0;
      for (let i = 0; i < 1201; i++) last = (await t.req("GET", "/api/v1/auth/me", { user: u })).status;
      expect(last).toBe(429);
      const other = await t.createUser();
      expect((await t.req("GET", "/api/v1/auth/me", { user: other })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe("RateLimiter", () => {
  test("memory stays bounded however many client keys appear", () => {
    const rl = new RateLimiter(10, 60_000, () => 0, 1000);
    for (let i = 0; i < 50_000; i++) rl.hit("ip:" + i);
    expect(rl.size).toBeLessThanOrEqual(1000);
    // The newest keys are kept and still counted.
    rl.hit("ip:49999");
    expect(rl.peek("ip:49999").remaining).toBe(8);
  });

  test("fixed window: limit, remaining, retryAfter, reset after the window", () => {
    let now = 0;
    const rl = new RateLimiter(3, 10_000, () => now);
    expect(rl.hit("k").remaining).toBe(2);
    rl.hit("k");
    expect(rl.hit("k").allowed).toBe(true);
    const r = rl.hit("k");
    expect(r.allowed).toBe(false);
    expect(r.retryAfter).toBe(10);
    now = 4000;
    expect(rl.hit("k").retryAfter).toBe(6);
    expect(rl.hit("other").allowed).toBe(true);
    now = 10_000;
    expect(rl.hit("k").allowed).toBe(true);
    expect(() => {
      rl.consume("k");
      rl.consume("k");
      rl.consume("k");
    }).toThrow("too many requests");
  });

  test("over counts as hit does: 0 while allowed, then what hit's retryAfter says, in step with a limiter driven by hit", () => {
    let now = 0;
    const a = new RateLimiter(3, 10_000, () => now, 50);
    const b = new RateLimiter(3, 10_000, () => now, 50);
    for (let i = 0; i < 400; i++) {
      now += 97 * (i % 7);
      const key = "k" + (i % 60); // more keys than the bound: evictions too
      const r = b.hit(key);
      expect(a.over(key)).toBe(r.allowed ? 0 : r.retryAfter);
      expect(a.peek(key)).toEqual(b.peek(key));
      expect(a.size).toBe(b.size);
    }
  });
});

describe("query strings", () => {
  test("values with commas or brackets reach the route as the strings they are", async () => {
    const t = await createTestApp();
    try {
      const a = await t.req("GET", "/api/v1/mods?search=rhs,%20status%20quo");
      expect(a.status).toBe(200);
      const b = await t.req("GET", "/api/v1/mods?search=%5Bweapons%5D");
      expect(b.status).toBe(200);
      const c = await t.req("GET", "/api/v1/mods/autocomplete?q=a,b");
      expect(c.status).toBe(200);
      const d = await t.req("GET", "/api/v1/game-servers?search=a%2Cb&mod_ids=5965550F24A0C152,5965550F24A0C153");
      expect(d.status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe("pathOf", () => {
  test("the same path as new URL(url).pathname, cut out of plain URLs and parsed otherwise", () => {
    const urls = [
      "http://localhost/api/v1/mods",
      "http://localhost/api/v1/mods?search=a,b#x",
      "http://127.0.0.1:3000/api/v1/mods/autocomplete?q=tac",
      "http://[::1]:8080/api/v1/game-servers/019ab778-35e0-77af-bce6-571c3145386d",
      "https://user:pw@example.org/mod/5D645908A5B2AB95/metrics",
      "http://localhost/",
      "http://localhost",
      "http://localhost?q=1",
      "http://localhost/a/../metrics",
      "http://localhost/a/%2e%2e/metrics",
      "http://localhost/api/v1/./health",
      "http://localhost/assets/index-abc.js",
      "http://localhost/caf%C3%A9/x y",
      "http://localhost/a\\b",
      "http://localhost//double//slash/",
      "http://localhost/~user/a_b-c",
      "http://localhost/a#frag/b?c",
      "HTTP://LOCALHOST/Upper/Case",
    ];
    for (const u of urls) {
      const expected = new URL(u).pathname;
      expect(pathOf(u)).toBe(expected);
      expect(pathOf(new Request(u).url)).toBe(expected);
    }
  });
});
