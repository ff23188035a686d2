import { afterEach, describe, expect, test } from "bun:test";
import {
  generateBmServers,
  loadBmFixture,
  startFakeBattleMetrics,
  type FakeBattleMetrics,
} from "../../../test/fakes/battlemetrics";
import { BattleMetricsClient, BattleMetricsError, bmServerSchema, normaliseServer } from "./battlemetrics";
import { parseRetryAfter } from "../../shared/retry";

let fake: FakeBattleMetrics | null = null;
afterEach(() => {
  fake?.stop();
  fake = null;
});

/** A client that records the waits it would have made instead of sleeping. */
function client(url: string, extra: Partial<ConstructorParameters<typeof BattleMetricsClient>[0]> = {}) {
  const waits: number[] = [];
  const c = new BattleMetricsClient({
    baseUrl: url,
    minIntervalMs: 0,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  });
  return { c, waits };
}

describe("BattleMetrics client", () => {
  test("reads the documented query, follows links.next and normalises servers", async () => {
    fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
    const { c } = client(fake.url, { pageSize: 2 });
    const pages: number[] = [];
    const all = [];
    let skipped = 0;
    for await (const p of c.pages()) {
      pages.push(p.servers.length + p.skipped);
      all.push(...p.servers);
      skipped += p.skipped;
    }
    expect(pages).toEqual([2, 2, 1]);
    expect(skipped).toBe(1);
    expect(all.map((s) => s.source_id).sort()).toEqual(["1001", "1002", "1003", "1004"]);
    const first = new URL(fake.requests[0].url);
    expect(first.searchParams.get("filter[game]")).toBe("reforger");
    expect(first.searchParams.get("filter[status]")).toBe("online");
    expect(first.searchParams.get("sort")).toBe("-players");
    expect(first.searchParams.get("page[size]")).toBe("2");
    expect(fake.requests.every((r) => r.authorization === null)).toBe(true);

    const alpha = all.find((s) => s.source_id === "1001")!;
    expect(alpha).toMatchObject({
      name: "Alpha Company | Conflict Everon",
      host_address: "203.0.113.10:2001",
      player_count: 64,
      player_count_limit: 128,
      queue_players_count: 0,
      wait_time_estimation: 0,
      scenario_name: "Conflict - Everon",
      game_version: "1.2.0.102",
      password_protected: false,
      official: false,
      country: "DE",
    });
    expect(alpha.tags).toEqual(["battleye", "crossplay", "modded", "pc", "xbox"]);
    expect(alpha.mods[0]).toEqual({ workshop_id: "5965550F24A0C152", name: "Where Am I", version: "1.2.0" });

    // Bare id strings are accepted, upper-cased; invalid ids are dropped.
    const bravo = all.find((s) => s.source_id === "1002")!;
    expect(bravo.mods).toEqual([
      { workshop_id: "5965550F24A0C152", name: null, version: null },
      { workshop_id: "60ED7C6D9A8C4B21", name: null, version: null },
    ]);
    const delta = all.find((s) => s.source_id === "1004")!;
    expect(delta.mods).toEqual([]);
    expect(delta.official).toBe(true);
    expect(delta.tags).toContain("vanilla");
  });

  test("sends the Bearer token when configured", async () => {
    fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1"), token: "secret-token" });
    const { c } = client(fake.url, { token: "secret-token" });
    const res = await c.fetchAll();
    expect(res.servers.length).toBe(4);
    expect(fake.requests[0].authorization).toBe("Bearer secret-token");
  });

  describe("links and redirects stay on the configured source", () => {
    let other: FakeBattleMetrics | null = null;
    afterEach(() => {
      other?.stop();
      other = null;
    });

    test("a links.next to another host or port is not followed: the token never reaches it", async () => {
      fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1"), token: "secret-token" });
      other = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
      fake.setNextOrigin(other.url);
      const { c } = client(fake.url, { token: "secret-token", pageSize: 2 });
      const pages: string[] = [];
      const err = await (async () => {
        for await (const p of c.pages()) pages.push(p.url);
      })().catch((e) => e);
      expect(err).toBeInstanceOf(BattleMetricsError);
      expect(err.message).toBe(
        `links.next leads to ${other.url}, off the configured source ${fake.url}; not followed (only ${fake.url} is asked, and its credentials go nowhere else)`,
      );
      expect(pages).toHaveLength(1); // the first page is read, nothing after it
      expect(other.requests).toEqual([]);
      expect(fake.requests.map((r) => r.authorization)).toEqual(["Bearer secret-token"]);
      // Another name for the same address is another origin too.
      fake.setNextOrigin(fake.url.replace("127.0.0.1", "localhost"));
      const again = await client(fake.url, { token: "secret-token", pageSize: 2 }).c.fetchAll().catch((e) => e);
      expect(again).toBeInstanceOf(BattleMetricsError);
      expect(again.message).toStartWith(`links.next leads to ${fake.url.replace("127.0.0.1", "localhost")}, off the configured source`);
      expect(fake.requests).toHaveLength(2);
    });

    test("a redirect off the source is refused before anything is sent there, and not retried", async () => {
      fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1"), token: "secret-token" });
      other = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
      fake.redirectNextTo(`${other.url}/servers?filter[game]=reforger`);
      const { c } = client(fake.url, { token: "secret-token" });
      const err = await c.fetchAll().catch((e) => e);
      expect(err).toBeInstanceOf(BattleMetricsError);
      expect(err.message).toStartWith(`a redirect (HTTP 302) leads to ${other.url}, off the configured source ${fake.url}`);
      expect(other.requests).toEqual([]);
      expect(fake.requests.map((r) => r.status)).toEqual([302]);
    });

    test("links.next and redirects on the source's own origin are followed, with the token", async () => {
      fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1"), token: "secret-token" });
      fake.redirectNextTo(`${fake.url}/servers?filter[game]=reforger&filter[status]=online&sort=-players&page[size]=2`);
      const { c } = client(fake.url, { token: "secret-token", pageSize: 100 });
      const res = await c.fetchAll();
      expect(res.servers).toHaveLength(4);
      expect(res.pages).toBe(3);
      expect(fake.requests.map((r) => [r.status, r.authorization])).toEqual([
        [302, "Bearer secret-token"],
        [200, "Bearer secret-token"],
        [200, "Bearer secret-token"],
        [200, "Bearer secret-token"],
      ]);
    });
  });

  test("a 4xx other than 429 fails at once", async () => {
    fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1"), token: "secret-token" });
    const { c } = client(fake.url);
    const err = await c.fetchAll().catch((e) => e);
    expect(err).toBeInstanceOf(BattleMetricsError);
    expect(err.status).toBe(401);
    expect(fake.requests.length).toBe(1);
  });

  test("retries 429 honouring Retry-After, and 5xx with exponential backoff", async () => {
    fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
    fake.failNext({ status: 429, retryAfter: "7" }, { status: 503 }, { status: 502 });
    const { c, waits } = client(fake.url, { pageSize: 2, baseBackoffMs: 1000 });
    const res = await c.fetchAll();
    expect(res.servers.length).toBe(4);
    expect(res.pages).toBe(3);
    expect(fake.requests.map((r) => r.status)).toEqual([429, 503, 502, 200, 200, 200]);
    expect(waits[0]).toBe(7000);
    // Backoff doubles (with up to 20 % jitter below the nominal value).
    expect(waits[1]).toBeGreaterThanOrEqual(1600);
    expect(waits[1]).toBeLessThanOrEqual(2000);
    expect(waits[2]).toBeGreaterThanOrEqual(3200);
    expect(waits[2]).toBeLessThanOrEqual(4000);
  });

  test("gives up after maxAttempts", async () => {
    fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
    fake.failNext({ status: 429, retryAfter: "0" }, { status: 429, retryAfter: "0" }, { status: 429, retryAfter: "0" });
    const { c } = client(fake.url, { maxAttempts: 3 });
    const err = await c.fetchAll().catch((e) => e);
    expect(err).toBeInstanceOf(BattleMetricsError);
    expect(String(err.message)).toContain("HTTP 429");
    expect(fake.requests.length).toBe(3);
  });

  test("spaces requests by the minimum interval", async () => {
    fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
    let now = 0;
    const waits: number[] = [];
    const c = new BattleMetricsClient({
      baseUrl: fake.url,
      pageSize: 2,
      minIntervalMs: 1000,
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    });
    await c.fetchAll();
    expect(waits).toEqual([1000, 1000]);
  });

  test("malformed mod entries are dropped, the server is kept", () => {
    const raw = loadBmFixture("scan-1")[0]!;
    const copy = structuredClone(raw) as any;
    copy.attributes.details.reforger.mods = [42, null, { modId: 7 }, { name: "no id" }, { modId: "5965550F24A0C152", version: 3 }, "591AF5BDA9F7CE8B"];
    const s = normaliseServer(bmServerSchema.parse(copy));
    expect(s.mods).toEqual([
      { workshop_id: "5965550F24A0C152", name: null, version: null },
      { workshop_id: "591AF5BDA9F7CE8B", name: null, version: null },
    ]);
  });

  test("parses Retry-After as seconds or HTTP date", () => {
    expect(parseRetryAfter("3", 0)).toBe(3000);
    expect(parseRetryAfter(null, 0)).toBeNull();
    expect(parseRetryAfter("garbage", 0)).toBeNull();
    const now = Date.parse("2026-11-22T00:00:00Z");
    expect(parseRetryAfter("Sun, 22 Nov 2026 00:00:10 GMT", now)).toBe(10_000);
  });

  test("pages through 5,000 generated servers", async () => {
    fake = startFakeBattleMetrics({ servers: generateBmServers(5000) });
    const { c } = client(fake.url);
    const res = await c.fetchAll();
    expect(res.pages).toBe(50);
    expect(res.servers.length).toBe(5000);
    expect(new Set(res.servers.map((s) => s.host_address)).size).toBe(5000);
    const modCounts = res.servers.map((s) => s.mods.length);
    const avg = modCounts.reduce((a, b) => a + b, 0) / modCounts.length;
    expect(avg).toBeGreaterThan(35);
    expect(avg).toBeLessThan(45);
    expect(Math.max(...modCounts)).toBeGreaterThanOrEqual(120);
  });
});
