// Hardening of the HTTP edge (issue 12): bodies bounded before they are buffered, 401 before a
// body is read, only JSON is JSON, rate limits that count the client, names without control
// characters. In-process against the real app; the socket-level cap and RSS are measured
// against a real listening server in test/e2e/limits.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers";
import { PUBLIC_MUTATIONS } from "../src/shared/http";

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** A chunked body of `total` bytes (no Content-Length) that counts how much the server pulled. */
function countingBody(total: number, fill = 0x20) {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= total) return c.close();
      const n = Math.min(CHUNK, total - sent);
      sent += n;
      c.enqueue(new Uint8Array(n).fill(fill));
    },
  });
  return { stream, pulled: () => sent };
}

async function postStream(t: TestApp, path: string, body: ReadableStream, headers: Record<string, string> = {}) {
  const res = await t.app.handle(
    new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body, duplex: "half" } as any),
  );
  return { status: res.status, body: await res.json().catch(() => null), headers: res.headers };
}

describe("bodies are bounded before they are buffered", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  test("a request that needs a credential and has none is 401 before its body is read", async () => {
    const b = countingBody(4.75 * MiB);
    const r = await postStream(t, "/api/v1/lists", b.stream);
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: "unauthorized", code: "unauthorized" });
    expect(b.pulled()).toBeLessThanOrEqual(CHUNK); // at most what the stream queued eagerly
    const junk = countingBody(4.75 * MiB);
    const r2 = await postStream(t, "/api/v1/lists", junk.stream, { authorization: "Bearer not-a-token" });
    expect(r2.status).toBe(401);
    expect(junk.pulled()).toBeLessThanOrEqual(CHUNK);
  });

  test("a chunked body is read only up to the route's limit: 1 MiB, 5 MiB for imports", async () => {
    const u = await t.createUser();
    const big = countingBody(4.75 * MiB);
    const r = await postStream(t, "/api/v1/lists", big.stream, u.auth);
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: "request body too large" });
    expect(r.headers.get("x-request-id")).toBeTruthy();
    expect(big.pulled()).toBeLessThanOrEqual(1 * MiB + 2 * CHUNK);

    const list = await t.req("POST", "/api/v1/lists", { user: u, body: { name: "L", description: "", is_public: false } });
    // 4 MiB of blanks to an import endpoint is within its 5 MiB: read whole, then judged on content.
    const within = countingBody(4 * MiB);
    const ok = await postStream(t, `/api/v1/lists/${list.body.id}/import-preview`, within.stream, u.auth);
    expect(ok.status).toBe(400);
    expect(within.pulled()).toBe(4 * MiB);
    const over = countingBody(20 * MiB);
    const tooBig = await postStream(t, `/api/v1/lists/${list.body.id}/import-preview`, over.stream, u.auth);
    expect(tooBig.status).toBe(413);
    expect(over.pulled()).toBeLessThanOrEqual(5 * MiB + 2 * CHUNK);
  });

  test("every mutating route but the public ones answers 401 without a credential", async () => {
    const open: string[] = [];
    for (const r of (t.app as any).routes as { method: string; path: string }[]) {
      if (["GET", "HEAD", "OPTIONS"].includes(r.method) || !r.path.startsWith("/api/")) continue;
      const path = r.path.replace(/:[A-Za-z]+/g, "0123456789ABCDEF");
      const res = await t.req(r.method, path, { body: {} });
      if (res.status !== 401) open.push(`${r.method} ${r.path}`);
      else expect(res.body).toEqual({ error: "unauthorized", code: "unauthorized" });
    }
    expect(open.sort()).toEqual([...PUBLIC_MUTATIONS].sort());
  });
});

describe("only JSON is JSON", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const count = () => (t.deps.sqlite.query("SELECT count(*) AS n FROM lists").get() as { n: number }).n;

  test("form and multipart bodies on a JSON route are 415 and change nothing", async () => {
    const u = await t.createUser();
    const before = count();
    const form = await t.req("POST", "/api/v1/lists", { user: u, raw: "name=Sneaky&is_public=true", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(form.status).toBe(415);
    expect(form.body).toEqual({ error: "content type must be application/json" });
    const fd = new FormData();
    fd.set("name", "Sneaky");
    const multi = await t.app.handle(new Request("http://localhost/api/v1/lists", { method: "POST", headers: u.auth, body: fd }));
    expect(multi.status).toBe(415);
    expect(await multi.json()).toEqual({ error: "content type must be application/json" });
    expect(count()).toBe(before);
    // application/json with a charset, and +json types, are JSON.
    const ok = await t.req("POST", "/api/v1/lists", { user: u, body: { name: "Fine" }, headers: { "content-type": "application/json; charset=utf-8" } });
    expect(ok.status).toBe(200);
    expect(count()).toBe(before + 1);
  });

  test("invalid UTF-8 is 400 invalid JSON", async () => {
    const u = await t.createUser();
    const bytes = new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]); // {"name":"\xff\xfe"}
    const r = await t.req("POST", "/api/v1/lists", { user: u, raw: bytes, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "invalid JSON" });
  });

  test("names and display names refuse control characters, naming the field", async () => {
    const u = await t.createUser();
    const list = await t.req("POST", "/api/v1/lists", { user: u, body: { name: "Evil\u0000list" } });
    expect(list.status).toBe(400);
    expect(list.body).toEqual({ error: "name: must not contain control characters" });
    const dn = await t.req("PUT", "/api/v1/settings/display-name", { user: u, body: { display_name: "Bob\u001b[31m" } });
    expect(dn.status).toBe(400);
    expect(dn.body).toEqual({ error: "display_name: must not contain control characters" });
    const reg = await t.req("POST", "/api/v1/auth/register", { body: { email: "nul@example.com", password: "long enough", display_name: "A\u0000B" } });
    expect(reg.status).toBe(400);
    expect(reg.body).toEqual({ error: "display_name: must not contain control characters" });
  });
});

describe("rate limits count the client, not the string it sends", () => {
  test("junk credentials on a public route count against the client IP", async () => {
    const t = await createTestApp({ env: { LOADOUT_TRUST_PROXY: "true", LOADOUT_RATE_LIMIT_ANON: "20" } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) {
        const r = await t.req("GET", "/api/v1/mods", { headers: { "x-forwarded-for": "198.51.100.7", authorization: `Bearer junk-${i}` } });
        statuses.push(r.status);
      }
      expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
      // Anonymous requests from the same address share that count.
      expect((await t.req("GET", "/api/v1/mods", { headers: { "x-forwarded-for": "198.51.100.7" } })).status).toBe(429);
      expect((await t.req("GET", "/api/v1/mods", { headers: { "x-forwarded-for": "198.51.100.8" } })).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  test("all keys and tokens of one user share one count", async () => {
    const t = await createTestApp({ env: { LOADOUT_RATE_LIMIT_USER: "30" } });
    try {
      const u = await t.createUser();
      const k1 = t.apiKeyFor(u, "one");
      const k2 = t.apiKeyFor(u, "two");
      const statuses: number[] = [];
      for (let i = 0; i < 33; i++) {
        const o = i % 3 === 0 ? { apiKey: k1 } : i % 3 === 1 ? { apiKey: k2 } : { user: u };
        statuses.push((await t.req("GET", "/api/v1/auth/me", o)).status);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(30);
      expect(statuses.slice(30)).toEqual([429, 429, 429]);
      const other = await t.createUser();
      expect((await t.req("GET", "/api/v1/auth/me", { user: other })).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  test("0 turns a limit off", async () => {
    const t = await createTestApp({ env: { LOADOUT_TRUST_PROXY: "true", LOADOUT_RATE_LIMIT_ANON: "0", LOADOUT_RATE_LIMIT_USER: "0" } });
    try {
      const u = await t.createUser();
      for (let i = 0; i < 400; i++) {
        expect((await t.req("GET", "/api/v1/mods", { headers: { "x-forwarded-for": "198.51.100.9" } })).status).toBe(200);
      }
      for (let i = 0; i < 50; i++) expect((await t.req("GET", "/api/v1/auth/me", { user: u })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe("the request log line", () => {
  test("records the status actually sent, errors included", async () => {
    const t = await createTestApp();
    try {
      const u = await t.createUser();
      const cases: [string, string, Parameters<TestApp["req"]>[2], number][] = [
        ["GET", "/api/v1/nope", {}, 404],
        ["GET", "/api/v1/lists/00000000-0000-0000-0000-000000000000", { user: u }, 404],
        ["POST", "/api/v1/lists", { user: u, body: {} }, 400],
        ["POST", "/api/v1/lists", { body: { name: "x" } }, 401],
        ["POST", "/api/v1/lists", { user: u, raw: "x".repeat(2 * MiB), headers: { "content-type": "application/json" } }, 413],
        ["POST", "/api/v1/lists", { user: u, body: { name: "fine" } }, 200],
      ];
      for (const [method, path, o, want] of cases) {
        const id = crypto.randomUUID();
        const r = await t.req(method, path, { ...o, headers: { ...o?.headers, "x-request-id": id } });
        expect(r.status).toBe(want);
        await Bun.sleep(5);
        const line = t.log.lines.map((l) => JSON.parse(l)).find((l) => l.msg === "request" && l.request_id === id);
        expect({ path, status: line?.status }).toEqual({ path, status: want });
      }
    } finally {
      await t.close();
    }
  });
});
