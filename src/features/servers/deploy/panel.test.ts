// Panel deployer against the local fake panel (test/fakes/panel.ts).
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { SAMPLE_SERVER_JSON } from "../../../../test/fakes/panel-server-json";
import { PANEL_ACCEPT, startFakePanel } from "../../../../test/fakes/panel";
import { PanelTarget } from "./panel";
import { RateLimitedError } from "./errors";
import { deployMods, testTarget } from "./target";

const panel = startFakePanel();
afterAll(() => panel.stop());
beforeEach(() => {
  panel.fault(null);
  panel.requests.length = 0;
  panel.files.clear();
  panel.files.set("/server.json", SAMPLE_SERVER_JSON);
});

const mods = [
  { modId: "5965550F24A0C152", name: "Where Am I", version: "1.2.0" },
  { modId: "591AF5BDD9EEEE4C", name: "RHS" },
];
const sleeps: number[] = [];
function target(overrides: { api_key?: string; server_uuid?: string; file?: string; timeoutMs?: number } = {}) {
  return new PanelTarget(
    { panel_url: `${panel.url}/`, api_key: overrides.api_key ?? panel.apiKey, server_uuid: overrides.server_uuid ?? panel.serverUuid },
    overrides.file ?? "/server.json",
    {
      timeoutMs: overrides.timeoutMs,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    },
  );
}
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    const message = (err as Error).message;
    expect(message).not.toContain(panel.apiKey);
    expect(message).not.toContain("    at ");
    return message;
  }
  throw new Error("expected a failure");
}

describe("panel deployer (fake panel)", () => {
  test("deploy reads, writes the raw file as text/plain, reads back", async () => {
    const outcome = await deployMods(target(), mods);
    expect(outcome.item_count).toBe(2);
    const written = panel.files.get("/server.json")!;
    expect(JSON.parse(written).game.mods).toEqual(mods);
    expect(JSON.parse(written).rcon).toEqual(JSON.parse(SAMPLE_SERVER_JSON).rcon);

    expect(panel.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /api/client/servers/${panel.serverUuid}/files/contents`,
      `POST /api/client/servers/${panel.serverUuid}/files/write`,
      `GET /api/client/servers/${panel.serverUuid}/files/contents`,
    ]);
    for (const r of panel.requests) {
      expect(r.authorization).toBe(`Bearer ${panel.apiKey}`);
      expect(r.accept).toBe(PANEL_ACCEPT);
      expect(r.file).toBe("/server.json");
    }
    const write = panel.requests[1]!;
    expect(write.contentType).toStartWith("text/plain");
    expect(write.body).toBe(written); // the raw file, not JSON-wrapped
  });

  test("connection test: GET /servers/{uuid} then reads the file, writes nothing", async () => {
    await testTarget(target());
    expect(panel.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /api/client/servers/${panel.serverUuid}`,
      `GET /api/client/servers/${panel.serverUuid}/files/contents`,
    ]);
    expect(panel.files.get("/server.json")).toBe(SAMPLE_SERVER_JSON);
  });

  test("401: wrong API key", async () => {
    expect(await failure(deployMods(target({ api_key: "ptlc_wrong" }), mods))).toStartWith("the panel rejected the API key (401 Unauthorized)");
    panel.fault({ kind: "status", status: 401 });
    expect(await failure(testTarget(target()))).toContain("401");
  });

  test("404: unknown server and missing file", async () => {
    expect(await failure(testTarget(target({ server_uuid: "00000000-0000-0000-0000-000000000000" })))).toBe(
      "server 00000000-0000-0000-0000-000000000000 not found on the panel (404)",
    );
    expect(await failure(deployMods(target({ file: "/missing.json" }), mods))).toBe("file not found: /missing.json");
  });

  test("429 with Retry-After is honoured, then succeeds", async () => {
    sleeps.length = 0;
    panel.fault({ kind: "status", status: 429, retryAfter: "2", times: 1 });
    await deployMods(target(), mods);
    expect(sleeps).toEqual([2000]);
    expect(JSON.parse(panel.files.get("/server.json")!).game.mods).toEqual(mods);
  });

  test("429 that persists gives up with a clear message", async () => {
    panel.fault({ kind: "status", status: 429, retryAfter: "1" });
    expect(await failure(deployMods(target(), mods))).toBe("the panel is rate limiting requests (429 Too Many Requests); try again in 1 s");
    panel.fault({ kind: "status", status: 429, retryAfter: "3600" });
    expect(await failure(deployMods(target(), mods))).toContain("try again in 3600 s");
  });

  test("500", async () => {
    panel.fault({ kind: "status", status: 500 });
    expect(await failure(deployMods(target(), mods))).toContain("the panel answered 500 (server error)");
    expect(panel.files.get("/server.json")).toBe(SAMPLE_SERVER_JSON);
  });

  test("a hanging panel times out", async () => {
    panel.fault({ kind: "hang", times: 1 });
    expect(await failure(deployMods(target({ timeoutMs: 200 }), mods))).toMatch(/did not answer within/);
  });

  test("invalid JSON on the panel", async () => {
    panel.files.set("/server.json", '{\n  "game": {\n    "mods": [}\n}');
    expect(await failure(deployMods(target(), mods))).toBe("server.json is not valid JSON at line 3, column 14: expected a value as element 1 of the array, found }");
  });

  test("a redirect is never followed: the API key never reaches the other host", async () => {
    const other = startFakePanel({ apiKey: panel.apiKey, serverUuid: panel.serverUuid, files: { "/server.json": SAMPLE_SERVER_JSON } });
    try {
      for (const status of [301, 302, 307, 308]) {
        panel.fault({ kind: "redirect", to: other.url, status, times: 1 });
        expect(await failure(testTarget(target()))).toStartWith(`the panel answered with a redirect (${status}); check the panel URL at panel 127.0.0.1:${new URL(panel.url).port}`);
      }
      // A deploy: the other host is neither read nor written.
      panel.fault({ kind: "redirect", to: other.url, status: 307 });
      expect(await failure(deployMods(target(), mods))).toContain("the panel answered with a redirect (307)");
      expect(other.requests).toEqual([]);
      expect(other.files.get("/server.json")).toBe(SAMPLE_SERVER_JSON);
    } finally {
      await other.stop();
    }
  });

  test("connection refused", async () => {
    const t = new PanelTarget({ panel_url: "http://127.0.0.1:1", api_key: "k", server_uuid: "u" }, "/server.json");
    expect(await failure(testTarget(t))).toMatch(/^connection refused by panel 127\.0\.0\.1:1/);
  });
});

describe("panel power and resources (the restart loop)", () => {
  test("restart sends the power signal as JSON; resources report starting, then running with an uptime from the restart", async () => {
    panel.power.bootMs = 60_000;
    const t = target();
    expect(await t.powerState()).toMatchObject({ current_state: "running" });
    expect((await t.powerState()).uptime_ms!).toBeGreaterThan(3_000_000); // up for an hour before
    expect(await t.restart()).toEqual({ exit_status: null, output: null });
    const power = panel.requests.find((r) => r.path.endsWith("/power"))!;
    expect(power).toMatchObject({ method: "POST", accept: PANEL_ACCEPT, authorization: `Bearer ${panel.apiKey}` });
    expect(power.contentType).toStartWith("application/json");
    expect(JSON.parse(power.body)).toEqual({ signal: "restart" });
    expect(await t.powerState()).toMatchObject({ current_state: "starting" });
    panel.power.bootMs = 0;
    const up = await t.powerState();
    expect(up.current_state).toBe("running");
    expect(up.uptime_ms!).toBeLessThan(5_000);
    expect(panel.signals).toContain("restart");
  });

  test("a 429 on power is retried after a short Retry-After; a long one is a RateLimitedError carrying the wait", async () => {
    panel.powerFault({ kind: "status", status: 429, retryAfter: "2", times: 1 });
    sleeps.length = 0;
    const before = panel.signals.length;
    await target().restart();
    expect(sleeps).toEqual([2000]);
    expect(panel.signals.length).toBe(before + 1);

    panel.powerFault({ kind: "status", status: 429, retryAfter: "120", times: 3 });
    let caught: unknown;
    try {
      await target().restart();
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(RateLimitedError);
    expect((caught as RateLimitedError).retryAfterMs).toBeGreaterThan(110_000);
    expect((caught as Error).message).toBe("the panel is rate limiting requests (429 Too Many Requests); try again in 120 s");
    expect(panel.signals.length).toBe(before + 1);
    panel.powerFault(null);
  });
});
