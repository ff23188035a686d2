// The scraper against the fake workshop, through the real app and a real database.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { FakeWorkshop, startFakeWorkshop } from "../../../test/fakes/workshop";
import { generateCatalog, genId, mod, SMALL, smallCatalog, ver } from "../../../test/fixtures/workshop/dataset";
import { queueDetailScrape } from "./queue";
import { JOB_SCRAPE_DETAIL, scheduledDiscoveryMode, scraperSchedules } from "./jobs";

let fake: FakeWorkshop;
let t: TestApp;

async function setup(mods = smallCatalog(), env: Record<string, string> = {}) {
  fake = startFakeWorkshop({ mods });
  t = await createTestApp({ env: { LOADOUT_WORKSHOP_URL: fake.url, LOADOUT_WORKSHOP_RPS: "1000", ...env } });
}

afterEach(async () => {
  await t?.close();
  fake?.stop();
});

const modRow = (id: string) => t.deps.sqlite.query("SELECT * FROM mods WHERE workshop_id = ?").get(id) as any;
const count = (sql: string, ...args: any[]) => (t.deps.sqlite.query(sql).get(...args) as { n: number }).n;
const job = (id: string) => t.deps.jobs.get(id)!;

async function admin() {
  return t.createUser({ role: "admin" });
}

async function runFull() {
  const a = await admin();
  const r = await t.req("POST", "/api/v1/jobs/scraper", { user: a, body: { mode: "full" } });
  expect(r.status).toBe(202);
  await t.deps.jobs.drain();
  return r.body.job_id as string;
}

describe("scraper: full discovery", () => {
  beforeEach(() => setup());

  test("walks the listing and scrapes every listed mod in full", async () => {
    const jobId = await runFull();
    expect(job(jobId).status).toBe("succeeded");
    expect(job(jobId).result).toMatchObject({ mode: "full", pages: 1, complete: true, queued: 9 });
    // 9 listed mods; private, blocked and unlisted ones are not in the listing
    expect(count("SELECT count(*) AS n FROM mods")).toBe(9);
    const core = modRow(SMALL.core);
    expect(core).toMatchObject({ name: "Core Framework", version: "1.2.0", size_bytes: 1_500_000, state: "active", author_name: "FrameworkTeam" });
    expect(JSON.parse(core.tags_json)).toEqual(["SYSTEMS"]);
    expect(JSON.parse(core.external_links_json)).toEqual([
      { label: "Discord", url: "https://discord.gg/example" },
      { label: "GitHub", url: "https://github.com/example/core" },
    ]);
    expect(count("SELECT count(*) AS n FROM mod_versions WHERE workshop_id = ?", SMALL.core)).toBe(3);
    expect(count("SELECT count(*) AS n FROM mod_screenshots WHERE workshop_id = ?", SMALL.core)).toBe(2);
    expect(count("SELECT count(*) AS n FROM mod_scenarios WHERE workshop_id = ?", SMALL.missions)).toBe(2);
    const deps = t.deps.sqlite.query("SELECT depends_on_id, version FROM mod_dependencies WHERE workshop_id = ? ORDER BY rowid").all(SMALL.chainA);
    expect(deps).toEqual([
      { depends_on_id: SMALL.chainB, version: "2.0.0" },
      { depends_on_id: SMALL.core, version: "1.2.0" },
    ]);
    const progress = job(jobId).progress as any;
    expect(progress).toMatchObject({ pages_done: 1, pages_total: 1 });
  });

  test("one malformed mod in a crawl fails alone, in its own detail job; the others are stored", async () => {
    fake.malformedDetails.add(SMALL.weapons);
    const jobId = await runFull();
    expect(job(jobId).status).toBe("succeeded");
    const batches = t.deps.jobs.list({ type: "scrape.detail_batch", limit: 10 });
    expect(batches.length).toBe(1);
    expect(batches[0]!.result).toMatchObject({ scraped: 8, deferred: [{ workshop_id: SMALL.weapons }] });
    const single = t.deps.jobs.list({ type: JOB_SCRAPE_DETAIL, limit: 10 }).find((j) => j.payload.workshop_id === SMALL.weapons)!;
    expect(single.status).toBe("failed");
    expect(single.error).toContain(`workshop detail ${SMALL.weapons} payload changed shape: pageProps.asset.currentVersionNumber`);
    expect(modRow(SMALL.weapons)).toBeNull();
    expect(count("SELECT count(*) AS n FROM mods")).toBe(8);
  });

  test("a batch writes its mods in one transaction; when a mod fails to store it is written again with a savepoint each: the failing mod rolls back alone and gets its own job", async () => {
    // A store failure inside the transaction (the third version row of this mod is refused).
    t.deps.sqlite.exec(`CREATE TRIGGER refuse_one BEFORE INSERT ON mod_versions WHEN new.workshop_id = '${SMALL.core}'
      AND (SELECT count(*) FROM mod_versions WHERE workshop_id = '${SMALL.core}') = 2 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    const jobId = await runFull();
    expect(job(jobId).status).toBe("succeeded");
    const batch = t.deps.jobs.list({ type: "scrape.detail_batch", limit: 10 })[0]!;
    expect(batch.result).toMatchObject({ scraped: 8, deferred: [{ workshop_id: SMALL.core, error: "refused by the test" }] });
    // Nothing of the refused mod stayed (its first two versions were written before the refusal).
    expect(count("SELECT count(*) AS n FROM mod_versions WHERE workshop_id = ?", SMALL.core)).toBe(0);
    expect(count("SELECT count(*) AS n FROM mod_tags WHERE workshop_id = ?", SMALL.core)).toBe(0);
    expect(modRow(SMALL.chainA)).toMatchObject({ state: "active", version: "3.0.0" });
    expect(count("SELECT count(*) AS n FROM mod_versions WHERE workshop_id = ?", SMALL.chainA)).toBeGreaterThan(0);
    // The first attempt (no savepoints) was rolled back whole: the full-text index holds each stored
    // mod once and agrees with its content table.
    t.deps.sqlite.run("INSERT INTO mods_fts(mods_fts, rank) VALUES ('integrity-check', 1)");
    expect(count("SELECT count(*) AS n FROM mods_fts_docsize")).toBe(count("SELECT count(*) AS n FROM mods WHERE state != 'unknown'"));
    // Its own job (or the dependency scrape of it already queued under the same key) met the same
    // refusal and waits for a retry: a store error is not permanent.
    const single = t.deps.jobs.list({ type: JOB_SCRAPE_DETAIL, limit: 20 }).find((j) => j.payload.workshop_id === SMALL.core)!;
    expect(single).toMatchObject({ status: "queued", attempts: 1, error: "refused by the test" });
  });

  test("a batch reads several details at once and stores them in its order", async () => {
    await t.close();
    fake.stop();
    let inFlight = 0;
    let most = 0;
    const counting = (async (input: string | URL | Request, init?: RequestInit) => {
      const detail = String(input).includes("-asset.json");
      if (detail) most = Math.max(most, ++inFlight);
      try {
        return await fetch(input, init);
      } finally {
        if (detail) inFlight--;
      }
    }) as typeof fetch;
    fake = startFakeWorkshop({ mods: generateCatalog({ count: 200, avgVersions: 2 }) });
    t = await createTestApp({ env: { LOADOUT_WORKSHOP_URL: fake.url, LOADOUT_WORKSHOP_RPS: "1000" }, fetch: counting });
    const jobId = await runFull();
    expect(job(jobId).status).toBe("succeeded");
    expect(count("SELECT count(*) AS n FROM mods WHERE state != 'unknown'")).toBe(200);
    expect(fake.dataRequestsTo("detail").length).toBe(200); // each mod read once
    expect(most).toBeGreaterThan(2); // more than one a batch (two batches run at a time)
    expect(most).toBeLessThanOrEqual(16 * 2); // 16 a batch, two batches at a time
    // A batch stores its mods in the listing's order (rowids follow the batch's ids).
    const batch = t.deps.jobs.list({ type: "scrape.detail_batch", limit: 10 }).find((b) => (b.payload.workshop_ids as string[]).length > 1)!;
    const ids = batch.payload.workshop_ids as string[];
    const rowids = ids.map((id) => (t.deps.sqlite.query("SELECT rowid AS r FROM mods WHERE workshop_id = ?").get(id) as { r: number }).r);
    expect(rowids).toEqual([...rowids].sort((a, b) => a - b));
  });

  test("a batch does not read again a mod a dependency scrape stored after the batch was queued", async () => {
    const a = await admin();
    const r = await t.req("POST", "/api/v1/jobs/scraper", { user: a, body: { mode: "full" } });
    await t.deps.jobs.drain({ types: ["scrape.full"] });
    expect(job(r.body.job_id).status).toBe("succeeded");
    t.clock.advance(1_000);
    // A dependency scrape of the same crawl reaches Core Framework before its batch does.
    queueDetailScrape(t.deps, SMALL.core);
    await t.deps.jobs.drain({ types: [JOB_SCRAPE_DETAIL] });
    const before = fake.dataRequestsTo("detail").filter((q) => q.path.includes(SMALL.core)).length;
    expect(before).toBe(1);
    await t.deps.jobs.drain();
    const batch = t.deps.jobs.list({ type: "scrape.detail_batch", limit: 10 })[0]!;
    expect(batch.result).toMatchObject({ scraped: 8, already_scraped: 1, deferred: [] });
    expect(fake.dataRequestsTo("detail").filter((q) => q.path.includes(SMALL.core)).length).toBe(1);
    expect(count("SELECT count(*) AS n FROM mods WHERE state = 'active'")).toBe(9);
  });

  test("is idempotent: a second full run queues nothing and writes nothing new", async () => {
    await runFull();
    const before = count("SELECT count(*) AS n FROM jobs");
    const second = await runFull();
    expect(job(second).result).toMatchObject({ queued: 0, unseen_queued: 0 });
    expect(count("SELECT count(*) AS n FROM jobs")).toBe(before + 1);
    expect(count("SELECT count(*) AS n FROM mods")).toBe(9);
  });

  test("a re-crawl writes no mods row the listing shows unchanged; a moved counter is written alone; unseen mods are still found", async () => {
    await runFull();
    // Every write to a mods row from here on is counted (test-only trigger).
    t.deps.sqlite.exec(`CREATE TABLE mod_writes (workshop_id TEXT);
      CREATE TRIGGER count_mod_writes AFTER UPDATE ON mods BEGIN INSERT INTO mod_writes VALUES (new.workshop_id); END`);
    const writes = () => (t.deps.sqlite.query("SELECT workshop_id FROM mod_writes").all() as { workshop_id: string }[]).map((r) => r.workshop_id);
    const detailGen = () => count("SELECT value AS n FROM catalog_state WHERE key = 'detail_gen'");
    const gen = detailGen();
    t.clock.advance(60_000);
    const second = await runFull();
    expect(job(second).result).toMatchObject({ queued: 0, unseen_queued: 0, complete: true });
    expect(writes()).toEqual([]);
    expect(detailGen()).toBe(gen);
    fake.mods.get(SMALL.core)!.subscriberCount = 123_456;
    fake.remove(SMALL.chainC);
    fake.changed();
    t.clock.advance(60_000);
    const third = await runFull();
    expect(job(third).result).toMatchObject({ queued: 0, unseen_queued: 1, complete: true });
    // The counter, then the vanished mod's detail scrape marking it removed.
    expect(writes()).toEqual([SMALL.core, SMALL.chainC]);
    expect(modRow(SMALL.core).subscriber_count).toBe(123_456);
    expect(modRow(SMALL.chainC).state).toBe("removed");
    expect(detailGen()).toBeGreaterThan(gen);
  });

  test("a mod that vanished or went private keeps its data with that state", async () => {
    await runFull();
    fake.remove(SMALL.chainC);
    fake.mods.get(SMALL.weapons)!.private = true;
    fake.changed();
    t.clock.advance(60_000);
    await runFull(); // the crawl misses both and queues a detail scrape for each
    expect(modRow(SMALL.chainC)).toMatchObject({ state: "removed", name: "Chain C", version: "0.2.0" });
    expect(modRow(SMALL.weapons)).toMatchObject({ state: "private", name: "Modern Weapons" });
    const r = await t.req("GET", `/api/v1/mods/${SMALL.chainC}`);
    expect(r.status).toBe(200);
    expect(r.body.state).toBe("removed");
  });

  test("a re-scrape that changes nothing keeps the search index and the generations; a changed name moves them and is found", async () => {
    await runFull();
    const gens = () => ({
      mods: count("SELECT value AS n FROM catalog_state WHERE key = 'mods_gen'"),
      fts: count("SELECT value AS n FROM catalog_state WHERE key = 'fts_gen'"),
      live: count("SELECT value AS n FROM live_state WHERE key = 'catalog_gen'"),
    });
    const search = async (q: string) => (await t.req("GET", `/api/v1/mods?search=${encodeURIComponent(q)}`)).body.mods.map((m: { workshop_id: string }) => m.workshop_id);
    const rescrape = async () => {
      t.deps.sqlite.exec("DELETE FROM jobs WHERE type = 'scrape.detail'");
      await t.req("POST", "/api/v1/jobs/scraper/detail", { body: { workshop_id: SMALL.core } });
      await t.deps.jobs.drain();
    };
    const before = gens();
    expect(await search("Core Framework")).toContain(SMALL.core);
    await rescrape(); // the same page again: every column assigned, none changed
    expect(modRow(SMALL.core).detail_scraped_at).toBeGreaterThan(0);
    // mod_tags rows are written again (delete + insert), which moves mods_gen as before; the
    // mods row's own triggers (FTS5, fts_gen, live catalog_gen) stay still
    expect(gens().fts).toBe(before.fts);
    expect(gens().live).toBe(before.live);
    expect(await search("Core Framework")).toContain(SMALL.core);
    expect(count("SELECT count(*) AS n FROM mods_fts WHERE mods_fts MATCH 'framework'")).toBe(1);
    fake.mods.get(SMALL.core)!.name = "Kernel Toolkit";
    fake.changed();
    await rescrape();
    const after = gens();
    expect(after.fts).toBeGreaterThan(before.fts);
    expect(after.mods).toBeGreaterThan(before.mods);
    expect(after.live).toBeGreaterThan(before.live);
    expect(await search("Kernel Toolkit")).toContain(SMALL.core);
    expect(count("SELECT count(*) AS n FROM mods_fts WHERE mods_fts MATCH 'name:framework'")).toBe(0);
    expect(await search("Core Framework")).not.toContain(SMALL.core);
  });

  test("a buildId change mid-crawl refreshes the buildId and the crawl completes", async () => {
    await t.close();
    fake.stop();
    await setup(generateCatalog({ count: 100 }));
    fake.rotateBuildIdAfter(2);
    const a = await admin();
    const r = await t.req("POST", "/api/v1/jobs/scraper", { user: a, body: { mode: "full" } });
    await t.deps.jobs.drain({ types: ["scrape.full"] });
    expect(job(r.body.job_id)).toMatchObject({ status: "succeeded" });
    // 100 mods at 16 a page: 7 pages; the walk stops once it has seen `count` rows.
    expect(job(r.body.job_id).result).toMatchObject({ pages: 7, pages_total: 7, queued: 100, complete: true });
    const listings = fake.dataRequestsTo("listing");
    expect(listings.filter((x) => x.status === 404).length).toBe(1);
    expect(new Set(listings.filter((x) => x.status === 200).map((x) => x.query.page))).toEqual(new Set(["1", "2", "3", "4", "5", "6", "7"]));
    expect(fake.requests.filter((x) => x.path === "/workshop").length).toBe(2);
    await t.deps.jobs.drain();
    expect(count("SELECT count(*) AS n FROM mods")).toBe(100);
    expect(count("SELECT count(*) AS n FROM jobs WHERE status != 'succeeded'")).toBe(0);
  });

  test("a malformed listing page fails the job with a clear error; earlier pages' mods stay whole", async () => {
    await t.close();
    fake.stop();
    await setup(generateCatalog({ count: 60 }));
    fake.malformedPages.add(2);
    const a = await admin();
    const r = await t.req("POST", "/api/v1/jobs/scraper", { user: a, body: { mode: "full" } });
    await t.deps.jobs.drain();
    const j = job(r.body.job_id);
    expect(j.status).toBe("failed");
    expect(j.attempts).toBe(1); // a shape change is not retried
    expect(j.error).toBe("workshop listing page 2 payload changed shape: pageProps.assets.rows: Invalid input: expected array, received object");
    // page 1's 16 mods (and the dependencies they pulled in) were scraped completely
    const newestFirst = [...fake.mods.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
    for (const m of newestFirst.slice(0, 16)) expect(modRow(m.id)?.state).toBe("active");
    expect(count("SELECT count(*) AS n FROM mods")).toBeLessThan(60);
    expect(count("SELECT count(*) AS n FROM mods m WHERE NOT EXISTS (SELECT 1 FROM mod_versions v WHERE v.workshop_id = m.workshop_id)")).toBe(0);
  });
});

describe("scraper: incremental", () => {
  beforeEach(() => setup());

  test("catches an updated mod whose creation date is old (deep in the `newest` listing), queues only new and changed mods", async () => {
    await t.close();
    fake.stop();
    await setup(generateCatalog({ count: 120 }));
    await runFull();
    expect(count("SELECT count(*) AS n FROM mods")).toBe(120);
    // The oldest-created mod sits on the last page of `sort=newest`; it gets a new version.
    const target = [...fake.mods.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0]!;
    const oldVersion = target.versions.at(-1)!.version;
    fake.publishVersion(target.id, { version: "9.0.0", createdAt: "2026-11-01T00:00:00.000Z", changelog: "Big update" });
    const fresh = generateCatalog({ count: 121, seed: 7 })[120]!;
    fresh.createdAt = fresh.updatedAt = "2026-11-02T00:00:00.000Z";
    fake.upsert(fresh);
    const listingBefore = fake.dataRequestsTo("listing").length;
    const a = await admin();
    const r = await t.req("POST", "/api/v1/jobs/scraper", { user: a, body: { mode: "incremental" } });
    await t.deps.jobs.drain({ types: ["scrape.incremental"] });
    // 121 rows at 16 a page: the whole walk is 8 pages, and only the two changes are queued.
    expect(job(r.body.job_id).result).toMatchObject({ mode: "incremental", queued: 2, pages: 8, complete: true });
    expect(fake.dataRequestsTo("listing").length - listingBefore).toBe(8);
    await t.deps.jobs.drain();
    expect(modRow(target.id).version).toBe("9.0.0");
    expect(modRow(fresh.id)).toBeTruthy();
    const versions = t.deps.sqlite.query("SELECT version, changelog FROM mod_versions WHERE workshop_id = ? ORDER BY created_at DESC").all(target.id) as any[];
    expect(versions[0]).toEqual({ version: "9.0.0", changelog: "Big update" });
    // the previous current version keeps the changelog scraped back then
    expect(versions.find((v) => v.version === oldVersion)?.changelog).toMatch(/^Version /);
  });

  test("the default mode of POST /jobs/scraper is incremental; the schedule picks full on a fresh catalog", async () => {
    const a = await admin();
    const r = await t.req("POST", "/api/v1/jobs/scraper", { user: a });
    expect(r.status).toBe(202);
    expect(job(r.body.job_id).type).toBe("scrape.incremental");
    expect(scheduledDiscoveryMode(t.deps)).toBe("full");
    await t.deps.jobs.drain();
    await runFull();
    expect(scheduledDiscoveryMode(t.deps)).toBe("incremental");
    const schedules = scraperSchedules(t.deps);
    expect(schedules.map((s) => [s.name, s.cron])).toEqual([
      ["workshop-scrape", "0 */6 * * *"],
      ["items-scan", "30 */6 * * *"],
      ["catalog-growth", "0 */3 * * *"],
    ]);
    schedules[0]!.enqueue();
    expect(count("SELECT count(*) AS n FROM jobs WHERE type = 'scrape.incremental' AND status = 'queued'")).toBe(1);
  });

  test("asking for a crawl while the same one waits to be tried again after a failure runs it now", async () => {
    const a = await admin();
    const first = await t.req("POST", "/api/v1/jobs/scraper", { user: a, body: { mode: "full" } });
    // As the queue leaves a failed attempt: queued again, tried later.
    t.deps.sqlite.query("UPDATE jobs SET attempts = 1, run_at = ?, error = 'cannot reach the workshop' WHERE id = ?").run(t.clock.now() + 30_000, first.body.job_id);
    const again = await t.req("POST", "/api/v1/jobs/scraper", { user: a, body: { mode: "full" } });
    expect(again).toMatchObject({ status: 202, body: { job_id: first.body.job_id } });
    expect(job(first.body.job_id)).toMatchObject({ status: "queued", attempts: 1, run_at: t.clock.now() });
    await t.deps.jobs.drain();
    expect(job(first.body.job_id).status).toBe("succeeded");
  });
});

describe("scraper: dependency batches", () => {
  // 24 listed mods; 20 unlisted ones (not in the listing) that only dependencies name: the
  // listed mod i depends on unlisted i % 20 and (i + 7) % 20, and unlisted 0 on unlisted 19
  // (reached through the tree), so most unlisted mods are named by several listed ones.
  const listed = Array.from({ length: 24 }, (_, i) => genId(1000 + i));
  const hidden = Array.from({ length: 20 }, (_, i) => genId(2000 + i));
  function catalog() {
    const hiddenMods = hidden.map((id, i) =>
      mod({ id, name: `Hidden ${i}`, unlisted: true, versions: [ver("1.0.0", 1, 1000, i === 0 ? [{ id: hidden[19]!, version: "1.0.0" }] : [])] }),
    );
    const listedMods = listed.map((id, i) =>
      mod({
        id,
        name: `Listed ${i}`,
        versions: [ver("1.0.0", 2 + i, 2000, [{ id: hidden[i % 20]!, version: "1.0.0" }, { id: hidden[(i + 7) % 20]!, version: "1.0.0" }])],
      }),
    );
    return [...hiddenMods, ...listedMods];
  }
  beforeEach(() => setup(catalog()));

  test("a batch queues its mods' unknown dependencies as batches of up to 16; every mod is read and stored once", async () => {
    const jobId = await runFull();
    expect(job(jobId).status).toBe("succeeded");
    expect(count("SELECT count(*) AS n FROM mods WHERE state != 'unknown'")).toBe(44);
    for (const id of hidden) expect(modRow(id)).toMatchObject({ state: "unlisted", version: "1.0.0" });
    // No dependency became a job of its own; each unknown one went into exactly one batch.
    expect(count("SELECT count(*) AS n FROM jobs WHERE type = 'scrape.detail'")).toBe(0);
    const batches = t.deps.jobs.list({ type: "scrape.detail_batch", limit: 100 });
    const depBatches = batches.filter((b) => b.payload.if_unknown === true);
    expect(depBatches.length).toBeGreaterThan(1);
    for (const b of depBatches) expect((b.payload.workshop_ids as string[]).length).toBeLessThanOrEqual(16);
    // A batch names each unknown dependency once (listed mods 0 and 13 share two); the listing's
    // two pages each queue theirs before either's dependency batches ran, so a mod may be in two
    // batches: the later one finds it known and does not read it.
    for (const b of depBatches) expect(new Set(b.payload.workshop_ids as string[]).size).toBe((b.payload.workshop_ids as string[]).length);
    const queued = depBatches.flatMap((b) => b.payload.workshop_ids as string[]);
    expect(new Set(queued)).toEqual(new Set(hidden));
    expect(depBatches.every((b) => b.status === "succeeded")).toBe(true);
    const results = depBatches.map((b) => b.result as { scraped: number; already_known?: number });
    expect(results.reduce((n, r) => n + r.scraped, 0)).toBe(20);
    expect(results.reduce((n, r) => n + r.scraped + (r.already_known ?? 0), 0)).toBe(queued.length);
    // Every detail page was asked for once (the listed mods by their page's batch, the others by a dependency batch).
    const details = fake.dataRequestsTo("detail").map((q) => q.path);
    expect(details.length).toBe(44);
    expect(new Set(details).size).toBe(44);
    // The dependency rows: two of each listed mod and hidden 0's on hidden 19, all to stored mods.
    expect(count("SELECT count(*) AS n FROM mod_dependencies WHERE depends_on_id IN (SELECT workshop_id FROM mods WHERE state = 'unlisted')")).toBe(49);
    expect(count("SELECT count(*) AS n FROM mod_dependencies")).toBe(49);
  });

  test("a dependency batch skips mods the catalog knows by the time it runs", async () => {
    const a = await admin();
    await t.req("POST", "/api/v1/jobs/scraper", { user: a, body: { mode: "full" } });
    // The walk and the first page's batch only: its dependency batches wait.
    await t.deps.jobs.drain({ types: ["scrape.full", "scrape.detail_batch"], max: 2 });
    const first = t.deps.jobs.list({ type: "scrape.detail_batch", limit: 100 }).find((b) => b.payload.if_unknown === true)!;
    expect(first.status).toBe("queued");
    const target = (first.payload.workshop_ids as string[]).find((id) => id !== hidden[0])!;
    // Something else (a user's scrape) stores one of its mods first.
    queueDetailScrape(t.deps, target);
    await t.deps.jobs.drain({ types: [JOB_SCRAPE_DETAIL] });
    expect(modRow(target)?.state).toBe("unlisted");
    await t.deps.jobs.drain();
    const r = t.deps.jobs.get(first.id)!.result as { already_known?: number; deferred: unknown[] };
    expect(r.already_known).toBeGreaterThanOrEqual(1);
    expect(r.deferred).toEqual([]);
    expect(fake.dataRequestsTo("detail").filter((q) => q.path.includes(target)).length).toBe(1);
    expect(fake.dataRequestsTo("detail").length).toBe(44);
    expect(count("SELECT count(*) AS n FROM mods WHERE state != 'unknown'")).toBe(44);
  });

  test("a dependency that fails is retried alone, in its own scrape.detail job; the rest of its batch is stored", async () => {
    fake.malformedDetails.add(hidden[3]!);
    const jobId = await runFull();
    expect(job(jobId).status).toBe("succeeded");
    const withIt = t.deps.jobs
      .list({ type: "scrape.detail_batch", limit: 100 })
      .find((b) => b.payload.if_unknown === true && (b.payload.workshop_ids as string[]).includes(hidden[3]!))!;
    expect(withIt.status).toBe("succeeded");
    expect(withIt.result).toMatchObject({ deferred: [{ workshop_id: hidden[3] }] });
    const single = t.deps.jobs.list({ type: JOB_SCRAPE_DETAIL, limit: 10 });
    expect(single.map((j) => j.payload.workshop_id)).toEqual([hidden[3]]);
    expect(single[0]!.status).toBe("failed");
    expect(modRow(hidden[3]!)).toBeNull();
    expect(count("SELECT count(*) AS n FROM mods WHERE state != 'unknown'")).toBe(43);
  });
});

describe("scraper: detail", () => {
  beforeEach(() => setup());

  test("scrapes one mod and queues its unknown dependencies transitively", async () => {
    const r = await t.req("POST", "/api/v1/jobs/scraper/detail", { body: { workshop_id: SMALL.chainA.toLowerCase() } });
    expect(r.status).toBe(202);
    expect(job(r.body.job_id)).toMatchObject({ type: JOB_SCRAPE_DETAIL, payload: { workshop_id: SMALL.chainA } });
    expect(job(r.body.job_id).payload.if_unknown).toBeUndefined();
    await t.deps.jobs.drain();
    expect(job(r.body.job_id).result).toMatchObject({ status: "scraped", version: "3.0.0", queued_dependencies: 3 });
    for (const id of [SMALL.chainA, SMALL.chainB, SMALL.chainC, SMALL.core]) expect(modRow(id)?.state).toBe("active");
    expect(count("SELECT count(*) AS n FROM mods")).toBe(4);
  });

  test("a dependency cycle is scraped once per mod and terminates", async () => {
    const id = queueDetailScrape(t.deps, SMALL.cycleX);
    await t.deps.jobs.drain();
    expect(job(id).status).toBe("succeeded");
    expect(count("SELECT count(*) AS n FROM jobs WHERE type = 'scrape.detail'")).toBe(2);
    expect(modRow(SMALL.cycleY).state).toBe("active");
  });

  test("queueDetailScrape deduplicates while a scrape is queued", () => {
    const a = queueDetailScrape(t.deps, SMALL.core.toLowerCase());
    const b = queueDetailScrape(t.deps, SMALL.core);
    expect(a).toBe(b);
    expect(() => queueDetailScrape(t.deps, "nope")).toThrow("invalid workshop ID");
  });

  test("429s are retried after Retry-After and the scrape succeeds", async () => {
    fake.failNext(3, { status: 429, retryAfter: "0" });
    const id = queueDetailScrape(t.deps, SMALL.weapons);
    await t.deps.jobs.drain();
    expect(job(id)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(fake.requests.filter((r) => r.status === 429).length).toBe(3);
    expect(modRow(SMALL.weapons).version).toBe("2.3.1");
  });

  test("a malformed detail fails the job with a clear error and writes nothing", async () => {
    fake.malformedDetails.add(SMALL.weapons);
    const id = queueDetailScrape(t.deps, SMALL.weapons);
    await t.deps.jobs.drain();
    const j = job(id);
    expect(j.status).toBe("failed");
    expect(j.attempts).toBe(1);
    expect(j.error).toBe(
      `workshop detail ${SMALL.weapons} payload changed shape: pageProps.asset.currentVersionNumber: Invalid input: expected string, received number`,
    );
    expect(modRow(SMALL.weapons)).toBeNull();
    for (const table of ["mod_versions", "mod_tags", "mod_dependencies", "mod_screenshots"]) {
      expect(count(`SELECT count(*) AS n FROM ${table} WHERE workshop_id = ?`, SMALL.weapons)).toBe(0);
    }
  });

  test("a malformed detail of a known mod leaves the stored mod as it was", async () => {
    queueDetailScrape(t.deps, SMALL.core);
    await t.deps.jobs.drain();
    fake.publishVersion(SMALL.core, { version: "2.0.0", createdAt: "2026-10-01T00:00:00.000Z", totalFileSize: 9 });
    fake.malformedDetails.add(SMALL.core);
    const id = queueDetailScrape(t.deps, SMALL.core);
    await t.deps.jobs.drain();
    expect(job(id).status).toBe("failed");
    expect(modRow(SMALL.core)).toMatchObject({ version: "1.2.0", size_bytes: 1_500_000 });
    expect(count("SELECT count(*) AS n FROM mod_versions WHERE workshop_id = ?", SMALL.core)).toBe(3);
  });

  test("an id the workshop does not know ends as not_found and stores nothing", async () => {
    const id = queueDetailScrape(t.deps, "FFFFFFFFFFFFFFFF");
    await t.deps.jobs.drain();
    expect(job(id)).toMatchObject({ status: "succeeded", result: { status: "not_found" } });
    expect(modRow("FFFFFFFFFFFFFFFF")).toBeNull();
  });

  test("items are extracted from the versions' resource path lists", async () => {
    cpSync(join(import.meta.dir, "../../../test/fixtures/workshop/paths"), join(t.dir, "resource-paths"), { recursive: true });
    const id = queueDetailScrape(t.deps, SMALL.vehicles);
    await t.deps.jobs.drain();
    expect(job(id).result).toMatchObject({ item_versions_scanned: 2 });
    expect(count("SELECT count(*) AS n FROM mod_items WHERE workshop_id = ? AND version = '1.0.0'", SMALL.vehicles)).toBe(4);
    expect(count("SELECT count(*) AS n FROM mod_items WHERE workshop_id = ? AND version = '1.1.0'", SMALL.vehicles)).toBe(5);
    // a second scrape does not rescan
    const again = queueDetailScrape(t.deps, SMALL.vehicles);
    await t.deps.jobs.drain();
    expect(job(again).result).toMatchObject({ item_versions_scanned: 0 });
  });
});

describe("scraper: trigger endpoints", () => {
  beforeEach(() => setup());

  test("POST /jobs/scraper is admin only and validates the mode", async () => {
    expect((await t.req("POST", "/api/v1/jobs/scraper", { body: { mode: "full" } })).status).toBe(401);
    const u = await t.createUser();
    const r = await t.req("POST", "/api/v1/jobs/scraper", { user: u, body: { mode: "full" } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: "no permission", code: "auth.admin_only" });
    const a = await admin();
    const bad = await t.req("POST", "/api/v1/jobs/scraper", { user: a, body: { mode: "everything" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "mode: must be full or incremental", code: "request.invalid" });
    // a second trigger while one is queued returns the same job
    const one = await t.req("POST", "/api/v1/jobs/scraper", { user: a, body: { mode: "full" } });
    const two = await t.req("POST", "/api/v1/jobs/scraper", { user: a, body: { mode: "full" } });
    expect(one.body.job_id).toBe(two.body.job_id);
  });

  test("POST /jobs/scraper/detail validates the id and allows 10 an hour per IP", async () => {
    const bad = await t.req("POST", "/api/v1/jobs/scraper/detail", { body: { workshop_id: "xyz" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "invalid workshop ID", code: "invalid_workshop_id" });
    for (let i = 0; i < 10; i++) {
      const r = await t.req("POST", "/api/v1/jobs/scraper/detail", { body: { workshop_id: SMALL.core } });
      expect(r.status).toBe(202);
      expect(typeof r.body.job_id).toBe("string");
    }
    const limited = await t.req("POST", "/api/v1/jobs/scraper/detail", { body: { workshop_id: SMALL.core } });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: "rate limit exceeded", code: "request.rate_limited" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    t.clock.advance(3_600_000);
    expect((await t.req("POST", "/api/v1/jobs/scraper/detail", { body: { workshop_id: SMALL.core } })).status).toBe(202);
  });

  test("the limit is per client IP (behind a trusted proxy)", async () => {
    await t.close();
    fake.stop();
    await setup(smallCatalog(), { LOADOUT_TRUST_PROXY: "true" });
    const from = (ip: string) => t.req("POST", "/api/v1/jobs/scraper/detail", { body: { workshop_id: SMALL.core }, headers: { "x-forwarded-for": ip } });
    for (let i = 0; i < 10; i++) expect((await from("203.0.113.1")).status).toBe(202);
    expect((await from("203.0.113.1")).status).toBe(429);
    expect((await from("203.0.113.2")).status).toBe(202);
  });
});

describe("scraper: the workshop as it really is", () => {
  afterEach(async () => {
    await t?.close();
    fake?.stop();
  });

  test("a crawl of several 16-row pages finds every mod; an empty page ends it even when count says more", async () => {
    await setup(generateCatalog({ count: 50 }));
    const jobId = await runFull();
    expect(job(jobId).result).toMatchObject({ pages: 4, rows: 50, complete: true, queued: 50 });
    expect(count("SELECT count(*) AS n FROM mods WHERE state = 'active'")).toBe(50);
    // A site whose count over-reports: the walk ends on the first empty page.
    await t.close();
    const overReporting = (async (input: any, init?: any) => {
      const res = await fetch(input, init);
      if (!String(input).includes("/workshop.json") || !res.ok) return res;
      const body = (await res.json()) as any;
      body.pageProps.assets.count = 10_000; // says far more than it has
      return new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
    }) as typeof fetch;
    t = await createTestApp({ env: { LOADOUT_WORKSHOP_URL: fake.url, LOADOUT_WORKSHOP_RPS: "1000" }, fetch: overReporting });
    const before = fake.dataRequestsTo("listing").length;
    const again = await runFull();
    expect(job(again).result).toMatchObject({ pages: 4, rows: 50, complete: true });
    expect(fake.dataRequestsTo("listing").slice(before).map((r) => r.query.page)).toEqual(["1", "2", "3", "4", "5"]);
  });

  test("discovery queues detail batches of 256; the catalog, its search and its generations equal a mod-by-mod scrape's", async () => {
    // 256 mods a listing batch (was 128: docs/performance.md "The crawl's CPU"), and the crawl's
    // process checkpoints its WAL less often. 300 generated mods: batches of 256 and 44,
    // each one transaction; the reference is the same catalog scraped one mod a transaction
    // (scrape.detail jobs), which the batch size cannot touch.
    const clock = new TestClock(Date.UTC(2026, 10, 27));
    const snapshot = () => {
      const q = (sql: string) => t.deps.sqlite.query(sql).all();
      return {
        mods: q(`SELECT workshop_id, name, summary, description, author_id, author_name, type, license, version, size_bytes,
          image_url, game_version, rating, rating_count, subscriber_count, downloads_total, state, obsolete, tags_json,
          external_links_json, created_at, updated_at, listed_at, detail_scraped_at FROM mods ORDER BY workshop_id`),
        versions: q("SELECT * FROM mod_versions ORDER BY workshop_id, version"),
        dependencies: q("SELECT workshop_id, depends_on_id, depends_on_name, version, size_bytes FROM mod_dependencies ORDER BY workshop_id, rowid"),
        tags: q("SELECT * FROM mod_tags ORDER BY workshop_id, tag"),
        screenshots: q("SELECT * FROM mod_screenshots ORDER BY workshop_id, position"),
        search: ["zeus", "weapons", "ve", "arland truck"].map((term) =>
          q(`SELECT m.workshop_id FROM mods_fts JOIN mods m ON m.rowid = mods_fts.rowid WHERE mods_fts MATCH '"${term}"*'
             ORDER BY bm25(mods_fts), m.workshop_id`),
        ),
        generations: q("SELECT 'catalog' AS t, key, value FROM catalog_state UNION ALL SELECT 'live', key, value FROM live_state WHERE key = 'catalog_gen' ORDER BY 1, 2"),
      };
    };
    const mods = generateCatalog({ count: 300 });
    fake = startFakeWorkshop({ mods });
    t = await createTestApp({ env: { LOADOUT_WORKSHOP_URL: fake.url, LOADOUT_WORKSHOP_RPS: "1000" }, clock });
    const jobId = await runFull();
    expect(job(jobId).result).toMatchObject({ rows: 300, complete: true, queued: 300 });
    const batches = t.deps.jobs.list({ type: "scrape.detail_batch", limit: 100 }).filter((b) => b.payload.if_unknown !== true);
    expect(batches.map((b) => (b.payload.workshop_ids as string[]).length).sort((a, b) => b - a)).toEqual([256, 44]);
    expect(batches.every((b) => b.status === "succeeded")).toBe(true);
    const crawled = snapshot();
    expect(crawled.mods.length).toBe(300);
    expect(crawled.versions.length).toBeGreaterThan(300);
    expect(crawled.search.every((hits) => hits.length > 0)).toBe(true);
    await t.close();

    t = await createTestApp({ env: { LOADOUT_WORKSHOP_URL: fake.url, LOADOUT_WORKSHOP_RPS: "1000" }, clock });
    const listed = mods.filter((m) => !m.private && !m.blocked && !m.unlisted).map((m) => m.id);
    for (const id of listed) queueDetailScrape(t.deps, id);
    await t.deps.jobs.drain();
    // The same rows, listed_at and detail_scraped_at included (both the fixed clock's now), the same FTS answers, the same counters.
    expect(snapshot()).toEqual(crawled);
  }, 30_000);

  test("dependencies only on the asset are kept (assetVersionDetail.dependencies is [])", async () => {
    await setup();
    fake.depsOnlyOnAsset.add(SMALL.chainA);
    await runFull();
    const deps = t.deps.sqlite.query("SELECT depends_on_id, version FROM mod_dependencies WHERE workshop_id = ? ORDER BY rowid").all(SMALL.chainA);
    expect(deps).toEqual([
      { depends_on_id: SMALL.chainB, version: "2.0.0" },
      { depends_on_id: SMALL.core, version: "1.2.0" },
    ]);
  });

  test("a row that fails its schema is skipped and counted; the rest of its page is stored", async () => {
    await setup(generateCatalog({ count: 20 }));
    const page1 = [...fake.mods.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id)).slice(0, 16);
    const bad = page1[3]!;
    fake.malformedRows.add(bad.id);
    const jobId = await runFull();
    const j = job(jobId);
    expect(j.status).toBe("succeeded");
    expect(j.result).toMatchObject({ rows: 19, skipped_rows: 1, complete: true });
    expect((j.progress as any).skipped_rows).toBe(1);
    expect(modRow(bad.id)).toBeNull();
    for (const m of page1) if (m.id !== bad.id) expect(modRow(m.id)?.state).toBe("active");
    const warn = t.log.lines.map((l) => JSON.parse(l)).find((l) => l.msg === "workshop listing row skipped");
    expect(warn).toMatchObject({ level: "warn", workshop_id: bad.id, page: 1, error: "rows.3.currentVersionNumber: Invalid input: expected string, received number" });
  });

  test("a descriptive, configurable User-Agent; a 403 fails the job at once with one clear line and loses nothing", async () => {
    await setup(smallCatalog(), { LOADOUT_BASE_URL: "https://mods.example.org" });
    await runFull();
    expect(new Set(fake.userAgents)).toEqual(new Set(["Loadout/" + (await import("../../version")).VERSION + " (+https://mods.example.org)"]));
    const before = count("SELECT count(*) AS n FROM mods");
    fake.forbidden = true;
    const r = await t.req("POST", "/api/v1/jobs/scraper", { user: await admin(), body: { mode: "full" } });
    await t.deps.jobs.drain();
    const j = job(r.body.job_id);
    expect(j.status).toBe("failed");
    expect(j.attempts).toBe(1);
    expect(j.error).toContain("the workshop refused the request with HTTP 403");
    expect(j.error).toContain("LOADOUT_WORKSHOP_USER_AGENT");
    expect(count("SELECT count(*) AS n FROM mods WHERE state = 'active'")).toBe(before);
    await t.close();
    fake.stop();
    await setup(smallCatalog(), { LOADOUT_WORKSHOP_USER_AGENT: "Mozilla/5.0 (compatible; Loadout)" });
    await runFull();
    expect(new Set(fake.userAgents)).toEqual(new Set(["Mozilla/5.0 (compatible; Loadout)"]));
  });

  test("a redirect off the configured workshop origin fails the crawl at once, naming the setting", async () => {
    await setup();
    const elsewhere = startFakeWorkshop({ mods: smallCatalog() });
    try {
      fake.redirectNext = elsewhere.url;
      const r = await t.req("POST", "/api/v1/jobs/scraper", { user: await admin(), body: { mode: "full" } });
      await t.deps.jobs.drain();
      const j = job(r.body.job_id);
      expect(j.status).toBe("failed");
      expect(j.attempts).toBe(1);
      expect(j.error).toContain(`a redirect (HTTP 302) leads to ${elsewhere.url}, off the configured source ${fake.url}; not followed`);
      expect(j.error).toContain("LOADOUT_WORKSHOP_URL");
      expect(elsewhere.requests).toEqual([]);
    } finally {
      elsewhere.stop();
    }
  });

  test("versions the site stopped listing (it shows 10) are kept", async () => {
    await setup();
    await runFull();
    const publish = (from: number, to: number) => {
      for (let i = from; i < to; i++) fake.publishVersion(SMALL.core, { version: `2.${i}.0`, createdAt: new Date(Date.UTC(2026, 9, 1 + i)).toISOString() });
    };
    const rescrape = async () => {
      t.deps.sqlite.exec("DELETE FROM jobs WHERE type = 'scrape.detail'");
      await t.req("POST", "/api/v1/jobs/scraper/detail", { body: { workshop_id: SMALL.core } });
      await t.deps.jobs.drain();
    };
    publish(0, 6);
    await rescrape(); // the page lists 9 versions: all seen
    publish(6, 12);
    await rescrape(); // the page lists only the newest 10 of 15
    // Every version ever seen is kept, though the page no longer lists the oldest five.
    expect(count("SELECT count(*) AS n FROM mod_versions WHERE workshop_id = ?", SMALL.core)).toBe(15);
    expect(modRow(SMALL.core).version).toBe("2.11.0");
  });
});
