// The in-memory live list answers exactly as SQLite does, for every filter, sort and page, and a
// scan swaps it whole: a reader during a scan sees the previous scan, never a mix.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { bmServer, startFakeBattleMetrics, type BmResource, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { mulberry32 } from "../../../test/fixtures/prng";
import { BattleMetricsClient } from "./battlemetrics";
import { runScan } from "./scan";
import { listServers, listServersJson } from "./service";
import { listServersSql } from "../../../test/truth/live-sql";
import { snapshotBuilds } from "./snapshot";
import { getLiveStats, getServersUsingJson } from "./mod-usage";
import { liveStatsSql as getLiveStatsSql, serversUsingSql as serversUsingSqlPlan } from "../../../test/truth/catalog-sql";
import { serverBase } from "./entry";
import { listQuery, SERVER_SORTS } from "./model";
import { LIVE_WINDOW_MS } from "../scraper/growth";

/** GET /mods/:id/servers from SQLite alone, the reference the snapshot's answer is held against. */
const getServersUsingSql = (deps: TestApp["deps"], id: string) =>
  serversUsingSqlPlan(deps.sqlite, id, deps.clock.now() - LIVE_WINDOW_MS).map(serverBase);

let t: TestApp;
let fake: FakeBattleMetrics;
let clock: TestClock;
const MODS = Array.from({ length: 24 }, (_, i) => (0x6000000000000000n + BigInt(i * 7919)).toString(16).toUpperCase());
const WORDS = ["Alpha", "bravo", "CONFLICT", "Everon", "arland", "Training", "milsim", "Zeta", "école", "Öst"];
const PLATFORMS = ["PLATFORM_PC", "PLATFORM_XBL", "PLATFORM_PSN"];

/** Servers with every kind of tie: equal names in other cases, equal player counts, equal sizes. */
function generate(seed: number, n: number): BmResource[] {
  const rnd = mulberry32(seed);
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const mods = [...new Set(Array.from({ length: Math.floor(rnd() * 8) }, () => pick(MODS)))];
    const name = `${pick(WORDS)} ${rnd() < 0.3 ? pick(WORDS).toLowerCase() : pick(WORDS)} ${Math.floor(rnd() * 5)}`;
    return bmServer({
      id: String(5000 + i),
      name,
      ip: `198.51.100.${i % 250}`,
      port: 2001 + Math.floor(i / 250),
      players: Math.floor(rnd() * 6) * 10,
      rank: i + 1,
      country: pick(["DE", "US", "GB", null]),
      password: rnd() < 0.2,
      official: rnd() < 0.15,
      scenarioName: `${pick(WORDS)} scenario`,
      platforms: rnd() < 0.5 ? [pick(PLATFORMS)] : [pick(PLATFORMS), pick(PLATFORMS)],
      battlEye: rnd() < 0.5,
      mods,
    });
  });
}

const scan = (opts: { fetch?: typeof fetch } = {}) =>
  runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {}, pageSize: 50, ...(opts.fetch ? { fetch: opts.fetch } : {}) }) });

beforeAll(async () => {
  fake = startFakeBattleMetrics({ servers: generate(1, 400), maxPageSize: 50 });
  clock = new TestClock(Date.UTC(2026, 10, 22, 10, 0, 0));
  t = await createTestApp({ clock });
  // Catalog sizes for some of the mods, so max_mod_size and the size sorts have something to sort.
  const ins = t.deps.sqlite.query("INSERT INTO mods (workshop_id, name, version, size_bytes, state, created_at, updated_at) VALUES (?, ?, '1.0.0', ?, 'active', 0, 0)");
  MODS.forEach((id, i) => i % 3 !== 0 && ins.run(id, `Mod ${id.slice(-4)}`, (i % 5) * 1_000_000));
  await scan();
});
afterAll(() => {
  t.close();
  fake.stop();
});

/** A random query of every filter (as the route's schema would parse it). */
function randomQuery(rnd: () => number, communities: string[]) {
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
  const raw: Record<string, string> = { sort_by: pick(SERVER_SORTS) };
  if (rnd() < 0.4) raw.search = Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => pick(WORDS).slice(0, 3 + Math.floor(rnd() * 3))).join(" ");
  if (rnd() < 0.4) raw.mod_ids = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(MODS)).join(",");
  if (rnd() < 0.3) raw.min_players = String(Math.floor(rnd() * 50));
  if (rnd() < 0.3) raw.max_mod_size = String(Math.floor(rnd() * 12_000_000));
  if (rnd() < 0.3) raw.official = pick(["true", "false"]);
  if (rnd() < 0.3) raw.password_protected = pick(["true", "false"]);
  if (rnd() < 0.3) raw.tags = Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => pick(["battleye", "crossplay", "modded", "vanilla", "pc", "xbox", "BattlEye"])).join(",");
  if (rnd() < 0.2 && communities.length) raw.community_id = pick(communities);
  if (rnd() < 0.5) raw.offset = String(Math.floor(rnd() * 60));
  raw.limit = String(1 + Math.floor(rnd() * (rnd() < 0.5 ? 20 : 200)));
  return { raw, q: listQuery.parse(raw) };
}

describe("the live snapshot", () => {
  test("answers exactly as SQLite for 1,500 random combinations of every filter, sort and page", async () => {
    const owner = await t.createUser();
    const communities: string[] = [];
    for (const name of ["One", "Two"]) communities.push((await t.req("POST", "/api/v1/communities", { user: owner, body: { name } })).body.id);
    const ids = listServersSql(t.deps, listQuery.parse({ limit: "200", sort_by: "name_asc" })).map((s) => s.id);
    for (let i = 0; i < 40; i++) expect((await t.req("POST", `/api/v1/game-servers/${ids[i * 3]}/community`, { user: owner, body: { community_id: communities[i % 2] } })).status).toBe(204);

    const rnd = mulberry32(42);
    let nonEmpty = 0;
    for (let i = 0; i < 1500; i++) {
      const { raw, q } = randomQuery(rnd, communities);
      const expected = listServersSql(t.deps, q);
      const got = listServers(t.deps, q);
      if (JSON.stringify(got) !== JSON.stringify(expected)) expect({ raw, got: got.map((s) => s.id) }).toEqual({ raw, got: expected.map((s) => s.id) });
      // What production sends (entries serialised once per snapshot) is the same text.
      const text = listServersJson(t.deps, q);
      if (text !== JSON.stringify(expected)) expect({ raw, text }).toEqual({ raw, text: JSON.stringify(expected) });
      if (expected.length) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(500); // the combinations are not all empty

    // An hour without a scan: both say no server is online.
    clock.advance(61 * 60_000);
    const q = listQuery.parse({});
    expect(listServersSql(t.deps, q)).toEqual([]);
    expect(listServers(t.deps, q)).toEqual([]);
    clock.advance(-61 * 60_000);
  });

  test("a scan swaps the snapshot whole: readers during the scan see the last scan, afterwards the new one", async () => {
    const q = listQuery.parse({ limit: "200", sort_by: "players_desc" });
    const before = listServers(t.deps, q);
    expect(before).toEqual(listServersSql(t.deps, q));
    // The next scan: other servers, other player counts; its second page is held back.
    fake.setServers(generate(2, 300));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let pages = 0;
    let paused!: () => void;
    const reachedPause = new Promise<void>((r) => (paused = r));
    const slowFetch = (async (input: string | URL | Request, init?: RequestInit) => {
      if (++pages === 2) {
        paused();
        await held;
      }
      return fetch(input, init);
    }) as typeof fetch;
    const builds = snapshotBuilds();
    clock.advance(5 * 60_000);
    const running = scan({ fetch: slowFetch });
    await reachedPause;
    // Mid-scan: exactly the previous answer, from memory and from SQLite alike.
    expect(listServers(t.deps, q)).toEqual(before);
    expect(listServersSql(t.deps, q)).toEqual(before);
    release();
    await running;
    const after = listServers(t.deps, q);
    expect(after).toEqual(listServersSql(t.deps, q));
    expect(after).not.toEqual(before);
    expect(after.every((s) => s.last_updated === new Date(clock.now()).toISOString())).toBe(true);
    expect(snapshotBuilds()).toBe(builds + 1); // built once, after the commit
  });

  test("mod usage (GET /mods/:id/servers, /mods/:id/stats) from the snapshot equals SQLite, online or gone within the hour", async () => {
    // Now some servers of the last scan were not seen by the one before (gone, still within the
    // hour): they count for mod usage though they are offline. Check at several times.
    const sqlite = t.deps.sqlite;
    const gone = (sqlite.query("SELECT count(*) AS n FROM game_servers WHERE online = 0 AND last_seen_at >= ?").get(clock.now() - 3_600_000) as { n: number }).n;
    expect(gone).toBeGreaterThan(0);
    const start = clock.now();
    let used = 0;
    for (const shift of [0, 2 * 60_000, 56 * 60_000, 58 * 60_000, 61 * 60_000]) {
      clock.set(start + shift);
      const since = clock.now() - 3_600_000;
      for (const id of MODS) {
        const exists = (sqlite.query("SELECT 1 AS x FROM mods WHERE workshop_id = ? AND state != 'unknown'").get(id) as { x: number } | null) !== null;
        if (!exists) continue;
        const want = getServersUsingSql(t.deps, id);
        expect(want).toEqual(serversUsingSqlPlan(sqlite, id, since, "online-first").map(serverBase)); // the two SQL plans agree
        expect({ id, shift, text: getServersUsingJson(t.deps, id) }).toEqual({ id, shift, text: JSON.stringify(want) });
        const sql = getLiveStatsSql(sqlite, id, since);
        expect({ id, shift, stats: getLiveStats(t.deps, id) }).toEqual({ id, shift, stats: sql });
        if (want.length) used++;
      }
    }
    expect(used).toBeGreaterThan(20);
    // Through the routes as a client sees them.
    clock.set(start);
    const id = MODS[1]!;
    const res = await t.req("GET", `/api/v1/mods/${id}/servers`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(getServersUsingSql(t.deps, id));
    expect((await t.req("GET", `/api/v1/mods/${id}/stats`)).body).toEqual(getLiveStatsSql(sqlite, id, clock.now() - 3_600_000));
  });
});
