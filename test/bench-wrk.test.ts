// The bench's wrk driver (bench/wrk.ts) against a real listening server: the varied rows' paths
// arrive in the PRNG's order, each request carries its own client address, and authenticated rows
// rotate the bench user's API keys. wrk comes from Debian (.ci/run installs it).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { driveWrk, wrkAvailable } from "../bench/wrk";
import { mulberry32 } from "./fixtures/prng";

const seen: { path: string; xff: string | null; key: string | null; method: string; body: string }[] = [];
let server: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const u = new URL(req.url);
      seen.push({ path: u.pathname + u.search, xff: req.headers.get("x-forwarded-for"), key: req.headers.get("x-api-key"), method: req.method, body: await req.text() });
      return u.pathname === "/missing" ? new Response("no", { status: 404 }) : Response.json({ ok: true });
    },
  });
});
afterAll(() => server.stop(true));

test("wrk is installed (Debian's wrk package)", () => {
  expect(wrkAvailable()).toBe(true);
});

test("varied paths in the PRNG's order, one client address a request, API keys rotated", async () => {
  seen.length = 0;
  const vary = (r: () => number) => `/v?n=${Math.floor(r() * 1_000_000)}`;
  const expected = new Set<string>();
  const r0 = mulberry32(7);
  for (let i = 0; i < 200_000; i++) expected.add(vary(r0));
  const load = await driveWrk(`http://127.0.0.1:${server.port}`, { method: "GET", path: "/v", vary, auth: true }, 4, 1, 50, mulberry32(7));
  expect(load.requests).toBeGreaterThan(50);
  expect(load.non2xx).toBe(0);
  expect(load.errors).toBe(0);
  expect(load.rps).toBeGreaterThan(0);
  expect(load.p50).toBeGreaterThan(0);
  expect(load.p99).toBeGreaterThanOrEqual(load.p50);
  expect(load.bytes_per_response).toBeGreaterThan(0);
  expect(seen.length).toBeGreaterThanOrEqual(load.requests);
  for (const s of seen) expect(expected.has(s.path)).toBe(true);
  expect(new Set(seen.map((s) => s.path)).size).toBeGreaterThan(seen.length * 0.9);
  // Each of wrk's two threads counts through the pool from its own offset: at least the busier
  // thread's requests carry distinct addresses.
  expect(new Set(seen.map((s) => s.xff)).size).toBeGreaterThanOrEqual(Math.min(Math.floor(seen.length / 2), 10_000));
  for (const s of seen) expect(s.xff).toMatch(/^10\.\d+\.\d+\.\d+$/);
  const keys = new Set(seen.map((s) => s.key));
  expect(keys.size).toBe(Math.min(50, seen.length));
  for (const k of keys) expect(k).toMatch(/^lo_benchmark-key-not-a-secret-\d{6}$/);
});

test("a fixed POST with its body; non-2xx answers are counted", async () => {
  seen.length = 0;
  const ok = await driveWrk(`http://127.0.0.1:${server.port}`, { method: "POST", path: "/import", body: '{"a":"b \\"q\\""}' }, 1, 1, 1, mulberry32(1));
  expect(ok.requests).toBeGreaterThan(10);
  expect(seen.every((s) => s.method === "POST" && s.path === "/import" && s.body === '{"a":"b \\"q\\""}' && s.key === null)).toBe(true);
  const bad = await driveWrk(`http://127.0.0.1:${server.port}`, { method: "GET", path: "/missing" }, 1, 1, 1, mulberry32(1));
  expect(bad.non2xx).toBe(bad.requests);
});
