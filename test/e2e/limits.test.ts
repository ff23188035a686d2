// The HTTP edge of the compiled binary under abuse (docs/operations.md "Security and limits"):
// Bun's own body cap never answers first (every 413 is our JSON with a request id), 300 anonymous
// 4.75 MiB chunked POSTs do not grow the process (they are refused before their bodies are read),
// and headers over 16 KiB get our 431 {error} (the binary raises the runtime's header cap to 64
// KiB).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { binaryInFreshFolder, startBinary } from "./build";

let dir: string;
let proc: ReturnType<typeof Bun.spawn>;
let base: string;

const rssMiB = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"))![1]) / 1024;

beforeAll(async () => {
  const b = await binaryInFreshFolder();
  dir = b.dir;
  ({ proc, base } = await startBinary(b.bin, dir, { LOADOUT_DATA_DIR: join(dir, "data"), LOADOUT_RATE_LIMIT_ANON: "0" }));
}, 120_000);

afterAll(() => {
  proc?.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe("header limits at the socket", () => {
  test("a 20,000-character bearer token gets our 431 {error}; past the runtime's 64 KiB cap Bun answers an empty 431", async () => {
    const ours = await fetch(`${base}/api/v1/auth/me`, { headers: { authorization: `Bearer ${"x".repeat(20_000)}` } });
    expect(ours.status).toBe(431);
    expect(ours.headers.get("x-request-id")).toBeTruthy();
    expect(await ours.json()).toEqual({ error: "request headers too large", code: "request.headers_too_large" });
    // Beyond RUNTIME_HEADER_CAP the runtime refuses before any of our code runs (documented in docs/operations.md).
    const runtime = await fetch(`${base}/api/v1/auth/me`, { headers: { authorization: `Bearer ${"x".repeat(70_000)}` } });
    expect(runtime.status).toBe(431);
    expect(await runtime.text()).toBe("");
    // The server is unharmed.
    expect((await fetch(`${base}/api/v1/health`)).status).toBe(200);
  });
});

describe("body limits at the socket", () => {
  test("a 6,000,000-byte body gets the JSON 413 with a request id, not Bun's bare one", async () => {
    const r = await fetch(`${base}/api/v1/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(6_000_000) });
    expect(r.status).toBe(413);
    expect(r.headers.get("x-request-id")).toBeTruthy();
    expect(await r.json()).toEqual({ error: "request body too large", code: "request.too_large" });
  });

  test("300 anonymous 4.75 MiB chunked POSTs: 401 each, RSS stays put", async () => {
    // Warm up so the baseline includes the runtime's steady state.
    for (let i = 0; i < 20; i++) await fetch(`${base}/api/v1/mods`);
    const before = rssMiB();
    const total = 4.75 * 1024 * 1024;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const one = async () => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent >= total) return c.close();
          sent += chunk.byteLength;
          c.enqueue(chunk);
        },
      });
      const r = await fetch(`${base}/api/v1/lists`, { method: "POST", headers: { "content-type": "application/json" }, body, duplex: "half" } as any).catch((e) => e as Error);
      return r instanceof Response ? r.status : -1;
    };
    const statuses: number[] = [];
    for (let round = 0; round < 30; round++) statuses.push(...(await Promise.all(Array.from({ length: 10 }, one))));
    expect(statuses.filter((s) => s === 401).length).toBe(300);
    const after = rssMiB();
    console.log(`RSS before ${before.toFixed(0)} MiB, after 300 × 4.75 MiB chunked anonymous POSTs ${after.toFixed(0)} MiB`);
    expect(after - before).toBeLessThan(100);
  }, 120_000);
});
