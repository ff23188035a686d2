// The per-mod answers kept in memory (answers.ts): a write, by a scrape or by raw SQL, is seen by
// the next read. Each test reads an answer first (so it is held), writes, and reads again.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../../test/helpers";
import { FakeWorkshop, startFakeWorkshop } from "../../../test/fakes/workshop";
import { SMALL, smallCatalog } from "../../../test/fixtures/workshop/dataset";
import { queueDetailScrape } from "../scraper/queue";
import { BUCKET_MS, bucketOf, rollupGrowth } from "../scraper/growth";
import { answerBudget } from "../../shared/bytes-lru";

let fake: FakeWorkshop;
let t: TestApp;
let admin: Awaited<ReturnType<TestApp["createUser"]>>;

beforeAll(async () => {
  fake = startFakeWorkshop({ mods: smallCatalog() });
  t = await createTestApp({ env: { LOADOUT_WORKSHOP_URL: fake.url, LOADOUT_WORKSHOP_RPS: "1000" } });
  admin = await t.createUser({ role: "admin" });
  await crawl("full");
});

/** A walk of the listing (refreshes counters, queues detail scrapes of changed mods), to the end. */
async function crawl(mode: "full" | "incremental") {
  const r = await t.req("POST", "/api/v1/jobs/scraper", { user: admin, body: { mode } });
  expect(r.status).toBe(202);
  await t.deps.jobs.drain();
  expect(t.deps.jobs.get(r.body.job_id)?.status).toBe("succeeded");
}
const gen = (key: string) => (t.deps.sqlite.query("SELECT value FROM catalog_state WHERE key = ?").get(key) as { value: number }).value;

afterAll(async () => {
  await t.close();
  fake.stop();
});

const get = async (path: string) => {
  const r = await t.req("GET", path);
  expect(r.status).toBe(200);
  return r.body;
};
const sql = (q: string, ...args: (string | number)[]) => t.deps.sqlite.query(q).run(...args);

/** Scrapes one mod's detail page again (what a crawl does for a changed mod). */
async function rescrape(id: string) {
  queueDetailScrape(t.deps, id);
  await t.deps.jobs.drain();
}

describe("GET /mods/:id from memory", () => {
  test("a crawl's new counters are seen; a crawl that changes nothing moves no generation", async () => {
    const before = await get(`/api/v1/mods/${SMALL.weapons}`);
    const g = gen("detail_gen");
    await crawl("incremental"); // the same counters again: listed_at alone changes
    expect(gen("detail_gen")).toBe(g);
    expect(await get(`/api/v1/mods/${SMALL.weapons}`)).toEqual(before);
    fake.upsert({ ...fake.mods.get(SMALL.weapons)!, subscriberCount: before.subscriber_count + 5, averageRating: 0.5 });
    await crawl("incremental");
    expect(await get(`/api/v1/mods/${SMALL.weapons}`)).toEqual({ ...before, subscriber_count: before.subscriber_count + 5, rating: 0.5 });
  });

  test("raw SQL on a dependency's row and on the mod's own row is seen", async () => {
    const before = await get(`/api/v1/mods/${SMALL.chainA}`);
    expect(before.dependencies.map((d: any) => d.name)).toEqual(["Chain B", "Core Framework"]);
    sql("UPDATE mods SET name = 'Core Renamed' WHERE workshop_id = ?", SMALL.core);
    expect((await get(`/api/v1/mods/${SMALL.chainA}`)).dependencies.map((d: any) => d.name)).toEqual(["Chain B", "Core Renamed"]);
    sql("UPDATE mods SET description = 'new words' WHERE workshop_id = ?", SMALL.chainA);
    expect((await get(`/api/v1/mods/${SMALL.chainA}`)).description).toBe("new words");
    sql("UPDATE mods SET name = 'Core Framework' WHERE workshop_id = ?", SMALL.core);
  });
});

describe("GET /mods/:id/deps from memory", () => {
  const graph = async (id: string) => (await get(`/api/v1/mods/${id}/deps`)).dependencies.map((n: any) => [n.workshop_id, n.depth, n.size_bytes]);

  test("a detail scrape that changes a dependency's size and edges is seen", async () => {
    expect(await graph(SMALL.chainA)).toEqual([
      [SMALL.chainB, 1, 200_000],
      [SMALL.core, 1, 1_500_000],
      [SMALL.chainC, 2, 310_000],
    ]);
    fake.publishVersion(SMALL.chainC, { version: "0.3.0", createdAt: "2026-01-01T00:00:00.000Z", totalFileSize: 330_000, dependencies: [{ id: SMALL.core, version: "1.2.0" }, { id: SMALL.cycleX, version: "1.0.0" }] });
    await rescrape(SMALL.chainC);
    expect(await graph(SMALL.chainA)).toEqual([
      [SMALL.chainB, 1, 200_000],
      [SMALL.core, 1, 1_500_000],
      [SMALL.chainC, 2, 330_000],
      [SMALL.cycleX, 3, 50_000],
      [SMALL.cycleY, 4, 60_000],
    ]);
  });

  test("raw SQL on mod_dependencies and on mods is seen", async () => {
    const before = await get(`/api/v1/mods/${SMALL.chainA}/deps`);
    expect(before.total_size_bytes).toBeGreaterThan(0);
    sql("DELETE FROM mod_dependencies WHERE workshop_id = ?", SMALL.chainB);
    expect(await graph(SMALL.chainA)).toEqual([
      [SMALL.chainB, 1, 200_000],
      [SMALL.core, 1, 1_500_000],
    ]);
    sql("UPDATE mods SET size_bytes = 7 WHERE workshop_id = ?", SMALL.core);
    expect(await graph(SMALL.chainA)).toEqual([
      [SMALL.chainB, 1, 200_000],
      [SMALL.core, 1, 7],
    ]);
    sql("UPDATE mods SET state = 'unknown' WHERE workshop_id = ?", SMALL.chainA);
    expect((await t.req("GET", `/api/v1/mods/${SMALL.chainA}/deps`)).status).toBe(404);
  });
});

const stats = (id: string) => get(`/api/v1/mods/${id}/stats`);

describe("dependency counts of /mods/:id/stats and /mod/:id/metrics from memory", () => {
  const metrics = async (id: string) => (await t.app.handle(new Request(`http://localhost/mod/${id}/metrics`))).text();

  test("a new dependency edge is seen by both; a mod turned placeholder is 404", async () => {
    const before = await stats(SMALL.core);
    expect(await metrics(SMALL.core)).toContain(`loadout_mod_dependents{workshop_id="${SMALL.core}"} ${before.dependents_count}\n`);
    sql("INSERT INTO mod_dependencies (workshop_id, depends_on_id, depends_on_name, version, size_bytes) VALUES (?, ?, 'Core Framework', '1.2.0', 1)", SMALL.weapons, SMALL.core);
    expect(await stats(SMALL.core)).toEqual({ ...before, dependents_count: before.dependents_count + 1 });
    expect(await metrics(SMALL.core)).toContain(`loadout_mod_dependents{workshop_id="${SMALL.core}"} ${before.dependents_count + 1}\n`);
    expect((await stats(SMALL.weapons)).dependencies_count).toBe(1);
    // The labels and size are kept per detail generation (getModLabels): a write is seen at once.
    sql("UPDATE mods SET author_name = 'Someone Else' WHERE workshop_id = ?", SMALL.core);
    expect(await metrics(SMALL.core)).toContain(`author="Someone Else"`);
    sql("UPDATE mods SET size_bytes = 4242, name = 'Core \"Renamed\"' WHERE workshop_id = ?", SMALL.core);
    const renamed = await metrics(SMALL.core);
    expect(renamed).toContain(`loadout_mod_size_bytes{workshop_id="${SMALL.core}"} 4242\n`);
    expect(renamed).toContain(`name="Core \\"Renamed\\"",author="Someone Else"`);
    expect(await metrics(SMALL.weapons)).toContain(`loadout_mod_info{workshop_id="${SMALL.weapons}"`);
    sql("UPDATE mods SET state = 'unknown' WHERE workshop_id = ?", SMALL.weapons);
    expect((await t.req("GET", `/api/v1/mods/${SMALL.weapons}/stats`)).status).toBe(404);
    expect((await t.req("GET", `/mod/${SMALL.weapons}/metrics`)).status).toBe(404);
    sql("UPDATE mods SET state = 'active' WHERE workshop_id = ?", SMALL.weapons);
  });

  test("live usage: a server leaving the hour and a new server are seen", async () => {
    const now = t.clock.now();
    const server = (name: string, players: number, seen: number) => {
      const id = crypto.randomUUID();
      const sid = Math.floor(Math.random() * 1e9);
      sql(
        `INSERT INTO game_servers (id, sid, host_address, name, ip, port, player_count, player_count_limit, scenario_name, game_version, first_seen_at, last_seen_at, online)
         VALUES (?, ?, ?, ?, '192.0.2.1', ?, ?, 64, 'Conflict', '1.2.1.169', ?, ?, 1)`,
        id, sid, `192.0.2.1:${sid % 60000}`, name, sid % 60000, players, seen, seen,
      );
      sql("INSERT INTO game_server_mods (server_id, workshop_id, position) VALUES (?, ?, 0)", id, SMALL.chainB);
    };
    server("Early", 7, now - 50 * 60_000);
    server("Late", 5, now - 5 * 60_000);
    expect(await stats(SMALL.chainB)).toMatchObject({ used_by_servers_count: 2, players_using_count: 12 });
    expect(await stats(SMALL.chainB)).toMatchObject({ used_by_servers_count: 2, players_using_count: 12 });
    t.clock.advance(11 * 60_000); // "Early" was seen 61 minutes ago
    expect(await stats(SMALL.chainB)).toMatchObject({ used_by_servers_count: 1, players_using_count: 5 });
    expect(await metrics(SMALL.chainB)).toContain(`loadout_mod_players_using{workshop_id="${SMALL.chainB}"} 5\n`);
    server("New", 30, t.clock.now());
    expect(await stats(SMALL.chainB)).toMatchObject({ used_by_servers_count: 2, players_using_count: 35 });
    t.clock.set(now); // a clock set back: "Early" counts again (as SQL counts: last seen ≥ now − 1 h)
    expect(await stats(SMALL.chainB)).toMatchObject({ used_by_servers_count: 3, players_using_count: 42 });
  });
});

describe("GET /mods/:id/stats/growth from memory", () => {
  const growth = async (id: string, days = 1) =>
    (await get(`/api/v1/mods/${id}/stats/growth?days=${days}`)).map((p: any) => [p.time, p.used_by_servers_count, p.players_using_count, p.dependents_count]);
  const at = (b: number) => new Date(b * BUCKET_MS).toISOString();

  test("a roll-up, raw SQL on the snapshots and the window moving on to the next bucket are seen", async () => {
    t.deps.sqlite.exec("DELETE FROM game_server_mods; DELETE FROM game_servers; DELETE FROM mod_growth; DELETE FROM mod_growth_latest; DELETE FROM mod_growth_buckets;");
    t.clock.set((bucketOf(t.clock.now()) + 1) * BUCKET_MS + 60_000);
    const b0 = bucketOf(t.clock.now());
    rollupGrowth(t.deps.sqlite, t.clock.now());
    const dependents = (await stats(SMALL.core)).dependents_count;
    expect(await growth(SMALL.core)).toEqual([[at(b0), 0, 0, dependents]]);
    // The next bucket's roll-up, with the mod now in use.
    t.clock.advance(BUCKET_MS);
    const sid = 900_001;
    sql(
      `INSERT INTO game_servers (id, sid, host_address, name, ip, port, player_count, player_count_limit, scenario_name, game_version, first_seen_at, last_seen_at, online)
       VALUES ('growth-server', ?, '192.0.2.9:2001', 'Growth', '192.0.2.9', 2001, 9, 64, 'Conflict', '1.2.1.169', ?, ?, 1)`,
      sid, t.clock.now(), t.clock.now(),
    );
    sql("INSERT INTO game_server_mods (server_id, workshop_id, position) VALUES ('growth-server', ?, 0)", SMALL.core);
    rollupGrowth(t.deps.sqlite, t.clock.now());
    expect(await growth(SMALL.core)).toEqual([[at(b0), 0, 0, dependents], [at(b0 + 1), 1, 9, dependents]]);
    sql("UPDATE mod_growth SET players_using = 11 WHERE workshop_id = ? AND bucket = ?", SMALL.core, b0 + 1);
    expect(await growth(SMALL.core)).toEqual([[at(b0), 0, 0, dependents], [at(b0 + 1), 1, 11, dependents]]);
    // No roll-up, time moves on: the window (the last day) leaves the first bucket out, then both.
    t.clock.advance(21 * 3_600_000);
    expect(await growth(SMALL.core)).toEqual([[at(b0 + 1), 1, 11, dependents]]);
    t.clock.advance(BUCKET_MS);
    expect(await growth(SMALL.core)).toEqual([]);
    expect(await growth(SMALL.core, 2)).toEqual([[at(b0), 0, 0, dependents], [at(b0 + 1), 1, 11, dependents]]);
  });
});

describe("GET /mods pages joined from summaries kept in memory", () => {
  const page = async (q: string) => (await get(`/api/v1/mods?${q}`)).mods as { workshop_id: string; name: string; version: string; image_url: string | null; tags: string[] }[];

  test("raw SQL on a listed mod's version, image and tags is seen on every page showing it", async () => {
    const first = await page("sort=name_asc&limit=50");
    const m = first.find((x) => x.workshop_id === SMALL.vehicles)!;
    expect(m).toBeDefined();
    await page("search=vehicles");
    sql("UPDATE mods SET version = '9.9.9', image_url = 'https://example.invalid/x.png', tags_json = '[\"VEHICLES\",\"NEW\"]' WHERE workshop_id = ?", SMALL.vehicles);
    const want = { ...m, version: "9.9.9", image_url: "https://example.invalid/x.png", tags: ["VEHICLES", "NEW"] };
    expect((await page("sort=name_asc&limit=50")).find((x) => x.workshop_id === SMALL.vehicles)).toEqual(want);
    expect((await page("search=vehicles")).find((x) => x.workshop_id === SMALL.vehicles)).toEqual(want);
  });

  test("a detail scrape of a new version is seen in the list", async () => {
    await page("sort=updated_desc");
    fake.publishVersion(SMALL.missions, { version: "7.0.0", createdAt: "2026-02-01T00:00:00.000Z" });
    await rescrape(SMALL.missions);
    const after = await page("sort=updated_desc");
    expect(after[0]).toMatchObject({ workshop_id: SMALL.missions, version: "7.0.0" });
  });
});

describe("/metrics reports the per-mod answers", () => {
  test("lookups by result and bytes held, per cache", async () => {
    await get(`/api/v1/mods/${SMALL.core}/deps`);
    await get(`/api/v1/mods/${SMALL.core}/deps`);
    const body = await (await t.app.handle(new Request("http://localhost/metrics"))).text();
    expect(body).toMatch(/^loadout_catalog_cache_lookups_total\{cache="deps",result="hit"\} [1-9]\d*$/m);
    expect(body).toMatch(/^loadout_catalog_cache_lookups_total\{cache="deps",result="miss"\} [1-9]\d*$/m);
    expect(body).toMatch(/^loadout_catalog_answers_bytes\{cache="deps"\} [1-9]\d*$/m);
  });
});

describe("the answer caches' shared budget (src/shared/bytes-lru.ts)", () => {
  test("a budget smaller than the answers: their sum stays within it, and every dropped answer read again is the same", async () => {
    const ids = (t.deps.sqlite.query("SELECT workshop_id FROM mods WHERE state != 'unknown' ORDER BY workshop_id").all() as { workshop_id: string }[]).map((r) => r.workshop_id);
    const paths = ids.flatMap((id) => [`/api/v1/mods/${id}`, `/api/v1/mods/${id}/deps`, `/api/v1/mods/${id}/stats`, `/api/v1/mods/${id}/stats/growth?days=30`]);
    paths.push("/api/v1/stats/global-players?days=1", "/api/v1/stats/global-players?days=7", "/api/v1/game-servers?limit=5");
    const first = new Map<string, unknown>();
    for (const p of paths) first.set(p, await get(p));
    const budget = 6_000;
    const evictionsBefore = answerBudget.evictions;
    try {
      answerBudget.setMax(budget);
      expect(answerBudget.used).toBeLessThanOrEqual(budget);
      let seed = 3;
      const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      for (let i = 0; i < paths.length * 3; i++) {
        const p = paths[Math.floor(rnd() * paths.length)]!;
        expect({ p, body: await get(p) }).toEqual({ p, body: first.get(p) });
        expect(answerBudget.used).toBeLessThanOrEqual(budget);
      }
      expect(answerBudget.evictions).toBeGreaterThan(evictionsBefore);
      await Bun.sleep(1_100); // past /metrics' 1 s scrape cache (the test above scraped)
      const body = await (await t.app.handle(new Request("http://localhost/metrics"))).text();
      expect(body).toMatch(new RegExp(`^loadout_answer_cache_budget_bytes ${budget}$`, "m"));
      const used = Number(/^loadout_answer_cache_bytes (\d+)$/m.exec(body)?.[1]);
      expect(used).toBeGreaterThan(0);
      expect(used).toBeLessThanOrEqual(budget);
    } finally {
      answerBudget.setMax(t.deps.config.LOADOUT_CACHE_MB * 2 ** 20);
    }
  });

  test("the catalog's list, count, ranked-search and autocomplete answers count into the budget too, and stay exact under it", async () => {
    const words = (t.deps.sqlite.query("SELECT name FROM mods WHERE state != 'unknown' ORDER BY workshop_id LIMIT 6").all() as { name: string }[]).map((r) => r.name.split(/\s+/)[0]!.toLowerCase());
    const paths = [
      ...[1, 2, 3].map((page) => `/api/v1/mods?page=${page}&limit=5`),
      ...words.map((w) => `/api/v1/mods?search=${encodeURIComponent(w)}`),
      ...words.map((w) => `/api/v1/mods/autocomplete?q=${encodeURIComponent(w.slice(0, 2))}`),
    ];
    const first = new Map<string, unknown>();
    const used0 = answerBudget.used;
    for (const p of paths) first.set(p, await get(p));
    // Their bytes joined the shared budget as they were kept.
    expect(answerBudget.used).toBeGreaterThan(used0);
    const budget = 4_000;
    const evictionsBefore = answerBudget.evictions;
    try {
      answerBudget.setMax(budget);
      expect(answerBudget.used).toBeLessThanOrEqual(budget);
      for (let round = 0; round < 3; round++) {
        for (const p of paths) {
          expect({ p, body: await get(p) }).toEqual({ p, body: first.get(p) });
          expect(answerBudget.used).toBeLessThanOrEqual(budget);
        }
      }
      expect(answerBudget.evictions).toBeGreaterThan(evictionsBefore);
    } finally {
      answerBudget.setMax(t.deps.config.LOADOUT_CACHE_MB * 2 ** 20);
    }
  });
});
