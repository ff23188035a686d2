import { parseRetryAfter } from "../../shared/retry";
import { afterEach, describe, expect, test } from "bun:test";
import { FakeWorkshop, PAGE_SIZE, startFakeWorkshop } from "../../../test/fakes/workshop";
import { generateCatalog, SMALL, smallCatalog } from "../../../test/fixtures/workshop/dataset";
import {
  extractBuildId,
  WorkshopClient,
  WorkshopHttpError,
  WorkshopNotFoundError,
  WorkshopRedirectError,
  WorkshopShapeError,
} from "./workshop-client";

let fake: FakeWorkshop | null = null;
afterEach(() => {
  fake?.stop();
  fake = null;
});

/**
 * A virtual clock: sleepers wake in order of their wake time, and time jumps to it at once.
 * Every requested wait is recorded.
 */
function virtualTime() {
  let t = 1_000_000;
  const waits: number[] = [];
  const sleepers: { wake: number; resolve: () => void }[] = [];
  let scheduled = false;
  const tick = () => {
    scheduled = false;
    sleepers.sort((a, b) => a.wake - b.wake);
    const next = sleepers.shift();
    if (!next) return;
    t = Math.max(t, next.wake);
    next.resolve();
    if (sleepers.length) schedule();
  };
  const schedule = () => {
    if (!scheduled) {
      scheduled = true;
      setImmediate(tick);
    }
  };
  return {
    waits,
    now: () => t,
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        waits.push(ms);
        sleepers.push({ wake: t + ms, resolve });
        schedule();
      }),
  };
}

function client(f: FakeWorkshop, extra: Partial<ConstructorParameters<typeof WorkshopClient>[0]> = {}) {
  const vt = virtualTime();
  const c = new WorkshopClient({ baseUrl: f.url, rps: 0, backoffMs: 100, now: vt.now, sleep: vt.sleep, ...extra });
  return { c, vt };
}

describe("workshop client", () => {
  test("discovers the buildId from __NEXT_DATA__ and reads a listing page", async () => {
    fake = startFakeWorkshop({ mods: smallCatalog(), buildId: "abc123" });
    const { c } = client(fake);
    expect(await c.getBuildId()).toBe("abc123");
    const page = await c.listing({ page: 1, sort: "newest" });
    // private, blocked and unlisted mods are not listed
    expect(page.count).toBe(smallCatalog().length - 3);
    expect(page.rows.length).toBe(page.count);
    expect(page.rows[0]!.id).toMatch(/^[0-9A-F]{16}$/);
    const listing = fake.dataRequestsTo("listing")[0]!;
    expect(listing.path).toBe("/_next/data/abc123/workshop.json");
    expect(listing.query).toEqual({ search: "", sort: "newest", page: "1" });
  });

  test("reads a detail page with versions, dependencies and download total", async () => {
    fake = startFakeWorkshop({ mods: smallCatalog() });
    const { c } = client(fake);
    const d = await c.detail(SMALL.chainA.toLowerCase());
    expect(d.asset.id).toBe(SMALL.chainA);
    expect(d.asset.versions.map((v) => v.version)).toEqual(["3.0.0"]);
    expect(d.versionDetail.dependencies!.map((x) => x.asset.id)).toEqual([SMALL.chainB, SMALL.core]);
    // recursive: B -> C -> core
    expect(d.versionDetail.dependencies![0]!.dependencies![0]!.asset.id).toBe(SMALL.chainC);
    expect(d.downloadTotal).toBe(1000);
    expect(fake.dataRequestsTo("detail")[0]!.query).toEqual({ id: `${SMALL.chainA}-asset` });
  });

  test("reads the scenarios route", async () => {
    fake = startFakeWorkshop({ mods: smallCatalog() });
    const { c } = client(fake);
    const s = await c.scenarios(SMALL.missions);
    expect(s.scenarios!.map((x) => x.gameMode)).toEqual(["Conflict", "CombatOps"]);
  });

  test("a dependency cycle comes back cut, not infinite", async () => {
    fake = startFakeWorkshop({ mods: smallCatalog() });
    const { c } = client(fake);
    const d = await c.detail(SMALL.cycleX);
    const y = d.versionDetail.dependencies![0]!;
    expect(y.asset.id).toBe(SMALL.cycleY);
    expect(y.dependencies![0]!.asset.id).toBe(SMALL.cycleX);
    expect(y.dependencies![0]!.dependencies).toEqual([]);
  });

  test("a buildId 404 refreshes the buildId and retries (redeploy mid-crawl)", async () => {
    fake = startFakeWorkshop({ mods: generateCatalog({ count: 100 }) });
    const { c } = client(fake);
    await c.listing({ page: 1 });
    fake.rotateBuildIdAfter(1);
    await c.listing({ page: 2 });
    const p3 = await c.listing({ page: 3 }); // the site changed build between page 2 and 3
    expect(p3.rows.length).toBe(PAGE_SIZE);
    expect(c.stats.buildIdRefreshes).toBe(2);
    const listings = fake.dataRequestsTo("listing");
    expect(listings.map((r) => r.status)).toEqual([200, 200, 404, 200]);
    expect(listings[3]!.path).toBe("/_next/data/build-2/workshop.json");
  });

  test("a 404 with an unchanged buildId is not found", async () => {
    fake = startFakeWorkshop({ mods: smallCatalog() });
    const { c } = client(fake);
    await expect(c.detail("FFFFFFFFFFFFFFFF")).rejects.toBeInstanceOf(WorkshopNotFoundError);
  });

  test("429 is retried after the Retry-After the site asked for", async () => {
    fake = startFakeWorkshop({ mods: smallCatalog() });
    const { c, vt } = client(fake);
    await c.getBuildId();
    fake.failNext(2, { status: 429, retryAfter: "7" });
    const page = await c.listing({ page: 1 });
    expect(page.rows.length).toBeGreaterThan(0);
    expect(vt.waits).toEqual([7000, 7000]);
    expect(c.stats.retries).toBe(2);
  });

  test("5xx is retried with growing backoff, then gives up with a clear error", async () => {
    fake = startFakeWorkshop({ mods: smallCatalog() });
    const { c, vt } = client(fake, { maxRetries: 3 });
    await c.getBuildId();
    fake.failNext(10, { status: 503 });
    const err = await c.listing({ page: 1 }).catch((e) => e);
    expect(err).toBeInstanceOf(WorkshopHttpError);
    expect(err.message).toContain("after 4 attempts: HTTP 503");
    expect(vt.waits.length).toBe(3);
    // equal jitter: attempt n waits between base*2^n/2 and base*2^n
    vt.waits.forEach((w, n) => {
      expect(w).toBeGreaterThanOrEqual((100 * 2 ** n) / 2);
      expect(w).toBeLessThanOrEqual(100 * 2 ** n);
    });
  });

  /** A client on virtual time whose fetch records the (virtual) time each request goes out. */
  function timedClient(f: FakeWorkshop, extra: Partial<ConstructorParameters<typeof WorkshopClient>[0]>) {
    const vt = virtualTime();
    const sentAt: number[] = [];
    const timedFetch = ((input: string | URL | Request, init?: RequestInit) => {
      sentAt.push(vt.now());
      return fetch(input, init);
    }) as typeof fetch;
    const make = (more: typeof extra) => new WorkshopClient({ baseUrl: f.url, now: vt.now, sleep: vt.sleep, fetch: timedFetch, ...more });
    return { c: make(extra), make, vt, sentAt };
  }

  test("the rate limit spaces requests 1/rps apart", async () => {
    fake = startFakeWorkshop({ mods: smallCatalog() });
    const { c, sentAt } = timedClient(fake, { rps: 2 });
    await c.getBuildId(); // first request: no wait
    await Promise.all([c.listing({ page: 1 }), c.listing({ page: 2 }), c.listing({ page: 3 })]);
    expect(sentAt.length).toBe(4);
    for (let i = 1; i < sentAt.length; i++) expect(sentAt[i]! - sentAt[i - 1]!).toBeGreaterThanOrEqual(500);
  });

  test("at a high rate, requests whose slots share a window go together at its end, never before their slot", async () => {
    fake = startFakeWorkshop({ mods: smallCatalog() });
    const { c, make, vt, sentAt } = timedClient(fake, { rps: 1000, coalesceMs: 10 });
    const t0 = vt.now(); // 1,000,000: a window starts here
    await c.getBuildId(); // slot t0: no wait
    await Promise.all(Array.from({ length: 29 }, (_, i) => c.listing({ page: i + 1 })));
    expect(sentAt.length).toBe(30);
    const sorted = [...sentAt].sort((a, b) => a - b);
    // The i-th request never goes before its slot, t0 + i ms: never more than the rate allows.
    sorted.forEach((at, i) => expect(at).toBeGreaterThanOrEqual(t0 + i));
    // Slots t0+1..t0+10 go at t0+10, t0+11..t0+20 at t0+20, the last nine at t0+30: four wakes, not 30.
    expect([...new Set(sorted)]).toEqual([t0, t0 + 10, t0 + 20, t0 + 30]);
    expect(sorted.filter((at) => at === t0 + 10).length).toBe(10);
    // Without coalescing each request waits for its own slot.
    sentAt.length = 0;
    const each = make({ rps: 1000, coalesceMs: 0 });
    await each.getBuildId();
    await Promise.all(Array.from({ length: 9 }, (_, i) => each.listing({ page: i + 1 })));
    expect(new Set(sentAt).size).toBe(10);
  });

  test("a malformed listing page is a shape error naming the path", async () => {
    fake = startFakeWorkshop({ mods: generateCatalog({ count: 60 }) });
    fake.malformedPages.add(2);
    const { c } = client(fake);
    await c.listing({ page: 1 });
    const err = await c.listing({ page: 2 }).catch((e) => e);
    expect(err).toBeInstanceOf(WorkshopShapeError);
    expect(err.message).toContain("workshop listing page 2 payload changed shape: pageProps.assets.rows");
  });

  test("a malformed detail is a shape error naming the field", async () => {
    fake = startFakeWorkshop({ mods: smallCatalog() });
    fake.malformedDetails.add(SMALL.core);
    const { c } = client(fake);
    const err = await c.detail(SMALL.core).catch((e) => e);
    expect(err).toBeInstanceOf(WorkshopShapeError);
    expect(err.message).toContain("pageProps.asset.currentVersionNumber");
  });

  test("timeouts are retried", async () => {
    let calls = 0;
    // The first request is answered only once the client has given up on it and asked again (not
    // after a fixed 300 ms against a 50 ms timeout, which left the retry itself 50 ms to make a
    // round trip: too little for a loaded machine).
    let retried!: () => void;
    const retry = new Promise<void>((r) => (retried = r));
    const slow = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (req) => {
        calls++;
        if (new URL(req.url).pathname === "/workshop") {
          if (calls === 1) await retry;
          else retried();
          return new Response(`<script id="__NEXT_DATA__" type="application/json">{"buildId":"b"}</script>`);
        }
        return new Response("nope", { status: 404 });
      },
    });
    try {
      const vt = virtualTime();
      const c = new WorkshopClient({ baseUrl: `http://127.0.0.1:${slow.port}`, rps: 0, timeoutMs: 1_000, now: vt.now, sleep: vt.sleep });
      expect(await c.getBuildId()).toBe("b");
      expect(c.stats.retries).toBe(1);
      expect(calls).toBe(2);
    } finally {
      retried();
      slow.stop(true);
    }
  });

  test("redirects are followed on the configured origin only; one elsewhere is refused before anything is sent there", async () => {
    fake = startFakeWorkshop({ mods: smallCatalog(), buildId: "abc123" });
    const elsewhere = startFakeWorkshop({ mods: smallCatalog(), buildId: "other" });
    try {
      // Another origin (a different port on the same address): refused, not retried.
      fake.redirectNext = elsewhere.url;
      const { c } = client(fake);
      const err = await c.getBuildId().catch((e) => e);
      expect(err).toBeInstanceOf(WorkshopRedirectError);
      expect(err.message).toBe(
        `workshop /workshop: a redirect (HTTP 302) leads to ${elsewhere.url}, off the configured source ${fake.url}; not followed (only ${fake.url} is asked, and its credentials go nowhere else); if the site has moved, set LOADOUT_WORKSHOP_URL to its new origin`,
      );
      expect(elsewhere.requests).toEqual([]);
      expect(fake.requests.map((r) => r.status)).toEqual([302]);
      // The same origin: followed.
      fake.redirectNext = fake.url;
      expect(await c.getBuildId()).toBe("abc123");
      expect(fake.requests.map((r) => r.status)).toEqual([302, 302, 200]);
    } finally {
      elsewhere.stop();
    }
  });

  test("a workshop out of reach says so in words: name lookup, refused connection", async () => {
    const vt = virtualTime();
    const unresolvable = new WorkshopClient({ baseUrl: "http://no-such-host.invalid", rps: 0, maxRetries: 1, now: vt.now, sleep: vt.sleep });
    await expect(unresolvable.getBuildId()).rejects.toThrow("cannot reach the workshop: name lookup failed for no-such-host.invalid (2 attempts, /workshop)");
    const srv = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const port = srv.port;
    srv.stop(true);
    const refused = new WorkshopClient({ baseUrl: `http://127.0.0.1:${port}`, rps: 0, maxRetries: 0, now: vt.now, sleep: vt.sleep });
    await expect(refused.getBuildId()).rejects.toThrow(`cannot reach the workshop: connection refused by 127.0.0.1:${port} (1 attempt, /workshop)`);
  });

  test("helpers: extractBuildId and parseRetryAfter", () => {
    expect(extractBuildId(`<script id="__NEXT_DATA__" type="application/json">{"buildId":"x1","page":"/"}</script>`)).toBe("x1");
    expect(() => extractBuildId("<html></html>")).toThrow(WorkshopShapeError);
    expect(() => extractBuildId(`<script id="__NEXT_DATA__" type="application/json">{"page":"/"}</script>`)).toThrow("buildId");
    expect(parseRetryAfter("3", 0)).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter("soon", 0)).toBeNull();
    expect(parseRetryAfter(null, 0)).toBeNull();
  });
});
