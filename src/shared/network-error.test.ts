import { describe, expect, test } from "bun:test";
import { describeFetchFailure } from "./network-error";

// Real failures from the runtime's own fetch, on loopback and a reserved name (.invalid never resolves).
async function failureOf(url: string): Promise<unknown> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(5000) });
  } catch (e) {
    return e;
  }
  throw new Error("expected the request to fail");
}

describe("describeFetchFailure", () => {
  test("a name that does not resolve", async () => {
    expect(describeFetchFailure(await failureOf("http://no-such-host.invalid/x"), "http://no-such-host.invalid/x")).toBe(
      "name lookup failed for no-such-host.invalid",
    );
  });

  test("a port nobody listens on", async () => {
    const srv = Bun.serve({ port: 0, fetch: () => new Response("") });
    const port = srv.port;
    srv.stop(true);
    const url = `http://127.0.0.1:${port}/`;
    expect(describeFetchFailure(await failureOf(url), url)).toBe(`connection refused by 127.0.0.1:${port}`);
  });

  test("a timeout and anything else", () => {
    const timeout = new DOMException("The operation timed out.", "TimeoutError");
    expect(describeFetchFailure(timeout, "https://api.example.test/servers")).toBe("no answer from api.example.test in time");
    expect(describeFetchFailure(new Error("boom"), "https://api.example.test/")).toBe("network error reaching api.example.test: boom");
  });
});
