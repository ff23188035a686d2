// A local fake of the BattleMetrics servers API (docs/live.md "Source: BattleMetrics") on
// 127.0.0.1. Serves exactly the documented page shape (`data[]` of `{type: "server", id,
// attributes}`, `links.next` as a full URL), pages with `page[key]`, can demand a Bearer token, and
// can be told to answer the next requests with 429/5xx (with or without Retry-After), to point its
// `links.next` at another origin, or to redirect the next request elsewhere.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { mulberry32 } from "../fixtures/prng";

export interface BmResource {
  type: "server";
  id: string;
  attributes: Record<string, unknown>;
}

export interface FakeFailure {
  status: number;
  retryAfter?: string;
}

export interface FakeBattleMetrics {
  url: string;
  /** Every request the fake saw, in order. */
  requests: { url: string; authorization: string | null; status: number }[];
  setServers(servers: BmResource[]): void;
  /** The next requests to /servers answer with these failures, one each, in order. */
  failNext(...failures: FakeFailure[]): void;
  /** Lets `okCount` requests through, then answers the following ones with these failures. */
  failAfter(okCount: number, ...failures: FakeFailure[]): void;
  /**
   * While on, every request answers what the real API has answered since mid-2026 to callers
   * without a paid subscription: 403 `{"errors":[{"status":"403","title":"Forbidden","detail":
   * "Access denied. A subscription is required to use the API."}]}` (docs/live.md).
   */
  requireSubscription(on: boolean): void;
  /** `links.next` points at this origin (another fake, a hostile host) instead of the fake's own; null restores it. */
  setNextOrigin(origin: string | null): void;
  /** The next request to /servers answers `302 Location: <url>`. */
  redirectNextTo(url: string): void;
  stop(): void;
}

export interface FakeBattleMetricsOptions {
  servers?: BmResource[];
  /** Largest page the fake serves, whatever page[size] asks (BattleMetrics caps at 100). */
  maxPageSize?: number;
  /** When set, requests without `Authorization: Bearer <token>` get 401. */
  token?: string;
}

export function startFakeBattleMetrics(opts: FakeBattleMetricsOptions = {}): FakeBattleMetrics {
  let servers: BmResource[] = opts.servers ?? [];
  const failures: FakeFailure[] = [];
  let passBeforeFailures = 0;
  const requests: FakeBattleMetrics["requests"] = [];
  const maxPageSize = opts.maxPageSize ?? 100;
  let subscriptionRequired = false;
  let nextOrigin: string | null = null;
  let redirectTo: string | null = null;

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      const authorization = req.headers.get("authorization");
      const record = (res: Response) => {
        requests.push({ url: req.url, authorization, status: res.status });
        return res;
      };
      if (subscriptionRequired) {
        return record(
          Response.json(
            { errors: [{ status: "403", title: "Forbidden", detail: "Access denied. A subscription is required to use the API." }] },
            { status: 403 },
          ),
        );
      }
      if (redirectTo !== null && url.pathname === "/servers") {
        const location = redirectTo;
        redirectTo = null;
        return record(new Response(null, { status: 302, headers: { location } }));
      }
      if (url.pathname !== "/servers") {
        return record(Response.json({ errors: [{ status: "404", title: "Not Found" }] }, { status: 404 }));
      }
      if (opts.token && authorization !== `Bearer ${opts.token}`) {
        return record(Response.json({ errors: [{ status: "401", title: "Unauthorized" }] }, { status: 401 }));
      }
      const failure = passBeforeFailures > 0 ? (passBeforeFailures--, undefined) : failures.shift();
      if (failure) {
        const headers: Record<string, string> = {};
        if (failure.retryAfter !== undefined) headers["Retry-After"] = failure.retryAfter;
        return record(
          Response.json(
            { errors: [{ status: String(failure.status), title: failure.status === 429 ? "Too Many Requests" : "Server Error" }] },
            { status: failure.status, headers },
          ),
        );
      }
      const q = url.searchParams;
      if (q.get("filter[game]") !== "reforger") {
        return record(Response.json({ errors: [{ status: "400", title: "filter[game] required" }] }, { status: 400 }));
      }
      const onlineOnly = q.get("filter[status]") === "online";
      const size = Math.max(1, Math.min(maxPageSize, Number(q.get("page[size]") ?? 10) || 10));
      const offset = Math.max(0, Number(q.get("page[key]") ?? 0) || 0);
      let list = onlineOnly ? servers.filter((s) => s.attributes.status === "online") : servers;
      if (q.get("sort") === "-players") {
        list = [...list].sort((a, b) => Number(b.attributes.players ?? 0) - Number(a.attributes.players ?? 0));
      }
      const data = list.slice(offset, offset + size);
      const links: Record<string, string> = {};
      const base = `${nextOrigin ?? url.origin}${url.pathname}`;
      const keep = new URLSearchParams(q);
      if (offset + size < list.length) {
        keep.set("page[key]", String(offset + size));
        keep.set("page[rel]", "next");
        links.next = `${base}?${keep.toString()}`;
      }
      if (offset > 0) {
        keep.set("page[key]", String(Math.max(0, offset - size)));
        keep.set("page[rel]", "prev");
        links.prev = `${base}?${keep.toString()}`;
      }
      return record(Response.json({ data, links, included: [] }));
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    setServers(next) {
      servers = next;
    },
    failNext(...f) {
      failures.push(...f);
    },
    failAfter(okCount, ...f) {
      passBeforeFailures = okCount;
      failures.push(...f);
    },
    requireSubscription(on) {
      subscriptionRequired = on;
    },
    setNextOrigin(origin) {
      nextOrigin = origin;
    },
    redirectNextTo(target) {
      redirectTo = target;
    },
    stop() {
      server.stop(true);
    },
  };
}

/** Loads `test/fixtures/battlemetrics/<name>.json` and returns its `data[]` as served. */
export function loadBmFixture(name: string): BmResource[] {
  const file = join(import.meta.dir, "..", "fixtures", "battlemetrics", `${name}.json`);
  return (JSON.parse(readFileSync(file, "utf8")) as { data: BmResource[] }).data;
}

/** The workshop id of generated mod number i (16 upper-case hex characters). */
/** What a test sets of one online server; the rest of the resource is fixed. */
export interface BmServerFields {
  id: string;
  name: string;
  ip: string;
  port: number;
  players: number;
  rank: number;
  country: string | null;
  password: boolean;
  official: boolean;
  scenarioName: string;
  platforms: string[];
  battlEye: boolean;
  mods: string[];
}

/** One online server as BattleMetrics lists it (64 slots, its mods at version 1.0.0). */
export function bmServer(f: BmServerFields): BmResource {
  return {
    type: "server",
    id: f.id,
    attributes: {
      id: f.id,
      name: f.name,
      address: null,
      ip: f.ip,
      port: f.port,
      portQuery: 17777,
      players: f.players,
      maxPlayers: 64,
      rank: f.rank,
      country: f.country,
      status: "online",
      private: false,
      createdAt: "2024-02-01T10:00:00.000Z",
      updatedAt: "2026-11-21T23:55:00.000Z",
      queryStatus: "valid",
      details: {
        version: "1.2.0.102",
        password: f.password,
        official: f.official,
        reforger: {
          scenarioName: f.scenarioName,
          supportedGameClientTypes: f.platforms,
          battlEye: f.battlEye,
          mods: f.mods.map((modId) => ({ modId, name: `Mod ${modId.slice(-4)}`, version: "1.0.0" })),
        },
      },
    },
  };
}

export function generatedModId(i: number): string {
  return (0x5a00000000000000n + BigInt(i)).toString(16).toUpperCase().padStart(16, "0");
}

export interface GenerateOptions {
  seed?: number;
  /** Size of the mod pool servers draw from. */
  modPool?: number;
  /** Offset added to server numbers, so two generated sets can be disjoint. */
  idOffset?: number;
}

/**
 * Generates `count` online servers cheaply: ~10 % vanilla, ~5 % busy (~130 mods), the rest
 * 20 to 59 mods (about 40 mods a server on average), popular mods drawn more often.
 */
export function generateBmServers(count: number, opts: GenerateOptions = {}): BmResource[] {
  const rnd = mulberry32(opts.seed ?? 42);
  const pool = opts.modPool ?? 3000;
  const offset = opts.idOffset ?? 0;
  const scenarios = ["Conflict - Everon", "Conflict - Arland", "Game Master - Everon", "Combat Ops - Arland", "Capture & Hold"];
  const platforms = [["PLATFORM_PC"], ["PLATFORM_PC", "PLATFORM_XBL"], ["PLATFORM_PC", "PLATFORM_XBL", "PLATFORM_PSN"]];
  const out: BmResource[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const n = i + offset;
    const r = rnd();
    const modCount = r < 0.1 ? 0 : r < 0.15 ? 120 + Math.floor(rnd() * 20) : 20 + Math.floor(rnd() * 40);
    const mods: { modId: string; name: string; version: string }[] = [];
    const used = new Set<number>();
    while (mods.length < modCount) {
      // Skewed towards low numbers: a few mods are on most servers.
      const k = Math.floor(pool * rnd() ** 3);
      if (used.has(k)) continue;
      used.add(k);
      mods.push({ modId: generatedModId(k), name: `Generated Mod ${k}`, version: `1.0.${k % 17}` });
    }
    const maxPlayers = [32, 64, 128][n % 3];
    out[i] = {
      type: "server",
      id: String(100000 + n),
      attributes: {
        id: String(100000 + n),
        name: `Generated Server ${n} ${scenarios[n % scenarios.length]}`,
        address: null,
        ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        port: 2001 + (n % 7),
        portQuery: 17777,
        players: Math.floor(rnd() * (maxPlayers + 1)),
        maxPlayers,
        rank: n + 1,
        location: null,
        country: ["DE", "US", "GB", "FR", "PL"][n % 5],
        status: "online",
        private: false,
        createdAt: "2025-01-01T00:00:00.000Z",
        updatedAt: "2026-11-22T00:00:00.000Z",
        queryStatus: "valid",
        details: {
          version: "1.2.0.102",
          password: n % 11 === 0,
          official: n % 97 === 0,
          reforger: {
            scenarioName: scenarios[n % scenarios.length],
            supportedGameClientTypes: platforms[n % platforms.length],
            battlEye: n % 2 === 0,
            mods,
          },
        },
      },
    };
  }
  return out;
}
