// Every /mods endpoint and the mod metrics path, on a catalog scraped from the fake workshop.
// Long on purpose: every case reads the one catalog scraped once for the file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../../../test/helpers";
import { FakeWorkshop, startFakeWorkshop } from "../../../test/fakes/workshop";
import { SMALL, smallCatalog, type FakeMod } from "../../../test/fixtures/workshop/dataset";
import { BUCKET_MS, bucketOf, RETENTION_BUCKETS, rollupGrowth } from "../scraper/growth";
import { promtoolCheck } from "../../../test/peers/promtool";

let fake: FakeWorkshop;
let t: TestApp;

const WEIRD = "F000000000000001";

function weirdMod(): FakeMod {
  const base = smallCatalog().find((m) => m.id === SMALL.weapons)!;
  return {
    ...base,
    id: WEIRD,
    name: 'Weird "Quoted" \\ Mod',
    author: { id: "a-w", username: "Line\nBreak" },
    summary: "label escaping",
    tags: [{ name: "MISC", category: "type" }],
    subscriberCount: 1,
    versions: [{ ...base.versions[0]!, version: "0.0.1", totalFileSize: 42, createdAt: "2025-01-01T00:00:00.000Z" }],
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
  };
}

beforeAll(async () => {
  fake = startFakeWorkshop({ mods: [...smallCatalog(), weirdMod()] });
  t = await createTestApp({ env: { LOADOUT_WORKSHOP_URL: fake.url, LOADOUT_WORKSHOP_RPS: "1000" } });
  cpSync(join(import.meta.dir, "../../../test/fixtures/workshop/paths"), join(t.dir, "resource-paths"), { recursive: true });
  const admin = await t.createUser({ role: "admin" });
  const r = await t.req("POST", "/api/v1/jobs/scraper", { user: admin, body: { mode: "full" } });
  expect(r.status).toBe(202);
  await t.deps.jobs.drain();
  expect(t.deps.jobs.get(r.body.job_id)?.status).toBe("succeeded");
});

afterAll(async () => {
  await t.close();
  fake.stop();
});

const get = (path: string) => t.req("GET", path);
const ids = (mods: { workshop_id: string }[]) => mods.map((m) => m.workshop_id);
const LISTED = 10; // the small catalog's 9 listed mods plus the weird one

describe("GET /mods", () => {
  test("lists summaries with total and pages; default sort is most recently updated", async () => {
    const r = await get("/api/v1/mods");
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(LISTED);
    expect(r.body.pages).toBe(1);
    expect(Object.keys(r.body.mods[0]).sort()).toEqual(["author", "image_url", "name", "rating", "size_bytes", "subscriber_count", "tags", "updated_at", "version", "workshop_id"]);
    const updated = r.body.mods.map((m: any) => m.workshop_id);
    expect(updated[0]).toBe(SMALL.missions); // day 26, the newest
    expect(updated.at(-1)).toBe(WEIRD);
    const w = r.body.mods.find((m: any) => m.workshop_id === SMALL.weapons);
    expect(w).toEqual({
      workshop_id: SMALL.weapons,
      name: "Modern Weapons",
      version: "2.3.1",
      size_bytes: 8_000_000,
      image_url: `https://cdn.example.test/${SMALL.weapons}/preview.jpg`,
      tags: ["WEAPONS", "CHARACTERS"],
      // A card's facts: what the mod page shows of them, from the same row.
      author: "GunSmith",
      rating: expect.any(Number),
      subscriber_count: 30_000,
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const detail = (await get(`/api/v1/mods/${SMALL.weapons}`)).body;
    expect([w.rating, w.updated_at]).toEqual([detail.rating, detail.updated_at]);
  });

  test("paginates with page and limit", async () => {
    const all = (await get("/api/v1/mods?sort=name_asc&limit=100")).body.mods;
    const p2 = await get("/api/v1/mods?sort=name_asc&limit=3&page=2");
    expect(p2.body).toMatchObject({ total: LISTED, pages: 4 });
    expect(ids(p2.body.mods)).toEqual(ids(all.slice(3, 6)));
    const beyond = await get("/api/v1/mods?limit=3&page=9");
    expect(beyond.body).toEqual({ mods: [], total: LISTED, pages: 4 });
  });

  test("the four sorts", async () => {
    const names = async (sort: string) => (await get(`/api/v1/mods?sort=${sort}&limit=100`)).body.mods.map((m: any) => m.name);
    const asc = await names("name_asc");
    expect(asc.slice(0, 3)).toEqual(["Chain A", "Chain B", "Chain C"]);
    expect(asc).toEqual([...asc].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(await names("name_desc")).toEqual([...asc].reverse());
    const sizes = (await get("/api/v1/mods?sort=size_desc&limit=100")).body.mods.map((m: any) => m.size_bytes);
    expect(sizes[0]).toBe(8_000_000);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    const upd = await names("updated_desc");
    expect(upd[0]).toBe("Conflict Missions");
  });

  test("search: every word must match (AND), as prefixes, over name, author, summary and tags", async () => {
    const s = async (q: string) => ids((await get(`/api/v1/mods?search=${encodeURIComponent(q)}`)).body.mods);
    expect(await s("chain")).toHaveLength(3);
    expect(await s("frame")).toEqual([SMALL.core]); // prefix of "Framework"
    expect(await s("gunsmith")).toEqual([SMALL.weapons]); // author
    expect(await s("modern rifles")).toEqual([SMALL.weapons]); // name + summary
    expect(await s("modern trucks")).toEqual([]); // AND: no mod has both
    expect(await s("scenarios_mp")).toEqual([SMALL.missions]); // tag
    expect(await s("   ")).toHaveLength(LISTED); // blank search: no filter
    expect(await s("!!!")).toEqual([]);
  });

  test("search ranks name matches above summary matches", async () => {
    const r = await get("/api/v1/mods?search=everon");
    // "Everon Vehicles Pack" (name) before "Conflict Missions" (summary mentions Everon)
    expect(ids(r.body.mods)).toEqual([SMALL.vehicles, SMALL.missions]);
    expect(r.body).toMatchObject({ total: 2, pages: 1 });
    // an explicit sort overrides relevance
    const byName = await get("/api/v1/mods?search=everon&sort=name_asc");
    expect(ids(byName.body.mods)).toEqual([SMALL.missions, SMALL.vehicles]);
  });

  test("tag filter (case-insensitive), alone and with a search", async () => {
    const r = await get("/api/v1/mods?tag=misc");
    expect(ids(r.body.mods).sort()).toEqual([SMALL.chainA, SMALL.chainB, SMALL.chainC, WEIRD].sort());
    const both = await get("/api/v1/mods?tag=MISC&search=weird");
    expect(ids(both.body.mods)).toEqual([WEIRD]);
    expect((await get("/api/v1/mods?tag=WEAPONS&search=chain")).body.total).toBe(0);
    expect((await get("/api/v1/mods?tag=NOPE")).body).toEqual({ mods: [], total: 0, pages: 0 });
  });

  test("placeholder rows of mods never scraped (state unknown) are not catalog entries", async () => {
    const ph = "0000000000000ABC";
    t.deps.sqlite.query("INSERT INTO mods (workshop_id, name, state) VALUES (?, 'Placeholder Chain', 'unknown')").run(ph);
    t.deps.sqlite.query("INSERT INTO mod_tags (workshop_id, tag) VALUES (?, 'MISC')").run(ph);
    try {
      expect((await get("/api/v1/mods")).body.total).toBe(LISTED);
      expect((await get("/api/v1/mods?tag=MISC")).body.total).toBe(4);
      expect((await get("/api/v1/mods?search=placeholder")).body.total).toBe(0);
      expect((await get("/api/v1/mods/autocomplete?q=placeholder")).body).toEqual([]);
      expect((await get(`/api/v1/mods/${ph}`)).status).toBe(404);
    } finally {
      t.deps.sqlite.query("DELETE FROM mod_tags WHERE workshop_id = ?").run(ph);
      t.deps.sqlite.query("DELETE FROM mods WHERE workshop_id = ?").run(ph);
    }
    expect((await get("/api/v1/mods?tag=MISC")).body.total).toBe(4);
  });

  test("bad query parameters are 400", async () => {
    const cases: [string, string][] = [
      ["limit=101", "limit: must be an integer from 1 to 100"],
      ["limit=0", "limit: must be an integer from 1 to 100"],
      ["page=0", "page: must be an integer of at least 1"],
      ["page=x", "page: must be an integer of at least 1"],
      ["sort=newest", "sort: must be one of name_asc, name_desc, size_desc, updated_desc"],
    ];
    for (const [q, msg] of cases) {
      const r = await get(`/api/v1/mods?${q}`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: msg, code: "request.invalid" });
    }
  });
});

describe("GET /mods/autocomplete", () => {
  test("prefix matches on names, at most 10, only id, name and image", async () => {
    const r = await get("/api/v1/mods/autocomplete?q=ch");
    expect(r.status).toBe(200);
    expect(r.body.map((m: any) => m.name).sort()).toEqual(["Chain A", "Chain B", "Chain C"]);
    expect(Object.keys(r.body[0]).sort()).toEqual(["image_url", "name", "workshop_id"]);
    // names starting with the text come first: "Everon Vehicles Pack" for "ev"
    expect((await get("/api/v1/mods/autocomplete?q=ev")).body[0].workshop_id).toBe(SMALL.vehicles);
    // matches words inside names too, but not summaries or authors
    expect(ids((await get("/api/v1/mods/autocomplete?q=veh")).body)).toEqual([SMALL.vehicles]);
    expect((await get("/api/v1/mods/autocomplete?q=gunsmith")).body).toEqual([]);
    expect((await get("/api/v1/mods/autocomplete?q=")).body).toEqual([]);
    expect((await get("/api/v1/mods/autocomplete?q=c")).body.length).toBeLessThanOrEqual(10);
  });
});

describe("GET /mods/:id and /metadata", () => {
  test("detail carries dependency_ids, external_links, author, summary and more", async () => {
    const r = await get(`/api/v1/mods/${SMALL.chainA.toLowerCase()}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      workshop_id: SMALL.chainA,
      name: "Chain A",
      version: "3.0.0",
      size_bytes: 100_000,
      tags: ["MISC"],
      dependency_ids: [SMALL.chainB, SMALL.core],
      author: "Bohemia Modder",
      summary: "Chain A summary",
      state: "active",
      external_links: [],
      workshop_url: `${fake.url}/workshop/${SMALL.chainA}`,
    });
    expect(r.body.dependencies).toEqual([
      { workshop_id: SMALL.chainB, name: "Chain B", version: "2.0.0", size_bytes: 200_000, in_catalog: true },
      { workshop_id: SMALL.core, name: "Core Framework", version: "1.2.0", size_bytes: 1_500_000, in_catalog: true },
    ]);
    expect(r.body.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const core = await get(`/api/v1/mods/${SMALL.core}`);
    expect(core.body.external_links).toEqual([
      { label: "Discord", url: "https://discord.gg/example" },
      { label: "GitHub", url: "https://github.com/example/core" },
    ]);
  });

  test("metadata is the lightweight subset", async () => {
    const r = await get(`/api/v1/mods/${SMALL.weapons}/metadata`);
    expect(r.body).toEqual({
      workshop_id: SMALL.weapons,
      name: "Modern Weapons",
      version: "2.3.1",
      size_bytes: 8_000_000,
      image_url: `https://cdn.example.test/${SMALL.weapons}/preview.jpg`,
      author: "GunSmith",
      game_version: "1.2.1.169",
      state: "active",
      updated_at: expect.any(String),
    });
  });

  test("every mod endpoint: unknown mod 404, malformed id 400", async () => {
    const suffixes = ["", "/metadata", "/items", "/missions", "/deps", "/versions", "/screenshots", "/item-versions", "/diff?from=1&to=2", "/stats", "/stats/growth", "/stats/growth/range", "/servers"];
    for (const s of suffixes) {
      const [path, q] = s.split("?");
      const unknown = await get(`/api/v1/mods/ABCDEF0123456789${path}${q ? `?${q}` : ""}`);
      expect([s, unknown.status, unknown.body]).toEqual([s, 404, { error: "mod not found", code: "mod_not_found" }]);
      const bad = await get(`/api/v1/mods/not-an-id${path}${q ? `?${q}` : ""}`);
      expect([s, bad.status, bad.body]).toEqual([s, 400, { error: "invalid workshop ID", code: "invalid_workshop_id" }]);
    }
    // a private mod never scraped is unknown too
    expect((await get(`/api/v1/mods/${SMALL.privateMod}`)).status).toBe(404);
  });
});

describe("versions, screenshots, missions", () => {
  test("versions newest first with the changelog scraped for the current one", async () => {
    const r = await get(`/api/v1/mods/${SMALL.core}/versions`);
    expect(r.body.map((v: any) => v.version)).toEqual(["1.2.0", "1.1.0", "1.0.0"]);
    expect(r.body[0]).toMatchObject({ changelog: "Changes in 1.2.0", size_bytes: 1_500_000, game_version: "1.2.1.169", approved: true });
    expect(r.body[1].changelog).toBeNull();
  });

  test("screenshots in gallery order", async () => {
    const r = await get(`/api/v1/mods/${SMALL.core}/screenshots`);
    expect(r.body).toEqual([
      { url: `https://cdn.example.test/${SMALL.core}/shot1.jpg`, width: 1920, height: 1080 },
      { url: `https://cdn.example.test/${SMALL.core}/shot2.jpg`, width: 1920, height: 1080 },
    ]);
    expect((await get(`/api/v1/mods/${SMALL.chainA}/screenshots`)).body).toEqual([]);
  });

  test("missions of the current version, or of a given one", async () => {
    const r = await get(`/api/v1/mods/${SMALL.missions}/missions`);
    expect(r.body.version).toBe("1.1.0");
    expect(r.body.missions).toEqual([
      { game_id: "{ECC61978EDCC2B5A}Missions/23_Campaign.conf", name: "Conflict Everon", game_mode: "Conflict", player_count: 64, description: "Take the island", image_url: null },
      { game_id: "{DFAC5FABD11F2390}Missions/26_CombatOpsEveron.conf", name: "Combat Ops Arland", game_mode: "CombatOps", player_count: 8, description: "Coop", image_url: null },
    ]);
    // 1.0.0 was never the current version while we scraped: known version, no missions recorded
    expect((await get(`/api/v1/mods/${SMALL.missions}/missions?version=1.0.0`)).body).toEqual({ workshop_id: SMALL.missions, version: "1.0.0", missions: [] });
    const unknown = await get(`/api/v1/mods/${SMALL.missions}/missions?version=7.7.7`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "version not found", code: "mod.version_not_found" });
  });
});

describe("items, item-versions, diff", () => {
  test("items of the newest version with item data, filtered by type or version", async () => {
    const r = await get(`/api/v1/mods/${SMALL.vehicles}/items`);
    expect(r.body.version).toBe("1.1.0");
    expect(r.body.items.map((i: any) => `${i.type}:${i.name}`)).toEqual([
      "gear:Magazine_BTR70_KPVT",
      "vehicle:BTR70",
      "vehicle:Mi8MT_armed",
      "vehicle:UAZ469",
      "vehicle:Ural4320_transport",
    ]);
    const v1 = await get(`/api/v1/mods/${SMALL.vehicles}/items?version=1.0.0&type=vehicle`);
    expect(v1.body.items.map((i: any) => i.name)).toEqual(["Mi8MT_armed", "UAZ469", "UAZ469_covered", "Ural4320_transport"]);
    expect(v1.body.items[1]).toEqual({ type: "vehicle", name: "UAZ469", path: "Prefabs/Vehicles/Wheeled/UAZ469/UAZ469.et", guid: "5E3C3B6D7A1E7B2C" });
    const weapons = await get(`/api/v1/mods/${SMALL.weapons}/items?type=weapon`);
    expect(weapons.body.items.map((i: any) => i.name)).toEqual(["Handgun_M9", "Launcher_AT4", "Rifle_HK416", "Rifle_M4A1", "Rifle_M4A1_GL"]);
    // a mod without path lists has no item data
    expect((await get(`/api/v1/mods/${SMALL.core}/items`)).body).toEqual({ workshop_id: SMALL.core, version: null, items: [] });
    const bad = await get(`/api/v1/mods/${SMALL.vehicles}/items?type=tank`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "type: must be vehicle, weapon or gear", code: "request.invalid" });
    expect((await get(`/api/v1/mods/${SMALL.vehicles}/items?version=9.9.9`)).status).toBe(404);
  });

  test("item-versions lists scanned versions newest first with counts", async () => {
    const r = await get(`/api/v1/mods/${SMALL.vehicles}/item-versions`);
    expect(r.body.map((v: any) => [v.version, v.item_count, v.vehicles, v.weapons, v.gear])).toEqual([
      ["1.1.0", 5, 4, 0, 1],
      ["1.0.0", 4, 4, 0, 0],
    ]);
    expect((await get(`/api/v1/mods/${SMALL.core}/item-versions`)).body).toEqual([]);
  });

  test("diff: added, removed and changed items", async () => {
    const r = await get(`/api/v1/mods/${SMALL.vehicles}/diff?from=1.0.0&to=1.1.0`);
    expect(r.status).toBe(200);
    expect(r.body.added.map((i: any) => i.name)).toEqual(["Magazine_BTR70_KPVT", "BTR70"]);
    expect(r.body.removed.map((i: any) => i.name)).toEqual(["UAZ469_covered"]);
    expect(r.body.changed).toEqual([
      {
        from: { type: "vehicle", name: "Mi8MT_armed", path: "Prefabs/Vehicles/Helicopters/Mi8MT/Mi8MT_armed.et", guid: "AE5F60718293A4B5" },
        to: { type: "vehicle", name: "Mi8MT_armed", path: "Prefabs/Vehicles/Air/Mi8MT/Mi8MT_armed.et", guid: "AE5F60718293A4B5" },
      },
    ]);
    const back = await get(`/api/v1/mods/${SMALL.vehicles}/diff?from=1.1.0&to=1.0.0`);
    expect(back.body.removed.map((i: any) => i.name).sort()).toEqual(["BTR70", "Magazine_BTR70_KPVT"]);
    const same = await get(`/api/v1/mods/${SMALL.vehicles}/diff?from=1.0.0&to=1.0.0`);
    expect(same.body).toMatchObject({ added: [], removed: [], changed: [] });
    const missing = await get(`/api/v1/mods/${SMALL.vehicles}/diff?from=1.0.0`);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^to: /);
    expect(r.body.items_known).toEqual({ from: true, to: true });
    // Both versions exist but have no item data: an empty diff, each side flagged.
    const noData = await get(`/api/v1/mods/${SMALL.core}/diff?from=1.0.0&to=1.2.0`);
    expect(noData.status).toBe(200);
    expect(noData.body).toEqual({ workshop_id: SMALL.core, from: "1.0.0", to: "1.2.0", added: [], removed: [], changed: [], items_known: { from: false, to: false } });
    const oneSide = await get(`/api/v1/mods/${SMALL.vehicles}/diff?from=1.0.0&to=1.0.0`);
    expect(oneSide.body.items_known).toEqual({ from: true, to: true });
    expect((await get(`/api/v1/mods/${SMALL.core}/diff?from=0.0.9&to=1.2.0`)).body).toEqual({ error: "version not found", code: "mod.version_not_found" });
  });
});

describe("GET /mods/:id/deps", () => {
  test("transitive graph with sizes and the total download size", async () => {
    const r = await get(`/api/v1/mods/${SMALL.chainA}/deps`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ workshop_id: SMALL.chainA, name: "Chain A", size_bytes: 100_000, has_cycle: false, cycle_edges: [] });
    expect(r.body.dependencies.map((n: any) => [n.workshop_id, n.depth, n.size_bytes])).toEqual([
      [SMALL.chainB, 1, 200_000],
      [SMALL.core, 1, 1_500_000],
      [SMALL.chainC, 2, 310_000],
    ]);
    expect(r.body.dependencies[2].dependency_ids).toEqual([SMALL.core]);
    // core counted once although two paths lead to it
    expect(r.body.dependencies_size_bytes).toBe(200_000 + 1_500_000 + 310_000);
    expect(r.body.total_size_bytes).toBe(100_000 + 200_000 + 1_500_000 + 310_000);
  });

  test("a cycle is detected and cut", async () => {
    const r = await get(`/api/v1/mods/${SMALL.cycleX}/deps`);
    expect(r.body.dependencies.map((n: any) => n.workshop_id)).toEqual([SMALL.cycleY]);
    expect(r.body).toMatchObject({ has_cycle: true, cycle_edges: [[SMALL.cycleY, SMALL.cycleX]], total_size_bytes: 110_000 });
  });

  test("a mod without dependencies", async () => {
    const r = await get(`/api/v1/mods/${SMALL.core}/deps`);
    expect(r.body).toMatchObject({ dependencies: [], dependencies_size_bytes: 0, total_size_bytes: 1_500_000, has_cycle: false });
  });
});

// ---- live usage: rows in the live feature's tables, as its scanner writes them ----
let sid = 0;
function addServer(o: { name: string; players: number; seenAgoMs: number; mods: string[] }): string {
  const id = crypto.randomUUID();
  sid++;
  const seen = t.clock.now() - o.seenAgoMs;
  t.deps.sqlite
    .query(
      `INSERT INTO game_servers (id, sid, host_address, name, ip, port, player_count, player_count_limit, scenario_name, game_version, first_seen_at, last_seen_at, online)
       VALUES (?, ?, ?, ?, '192.0.2.1', ?, ?, 64, 'Conflict', '1.2.1.169', ?, ?, 1)`,
    )
    .run(id, sid, `192.0.2.1:${2000 + sid}`, o.name, 2000 + sid, o.players, seen, seen);
  o.mods.forEach((m, i) => t.deps.sqlite.query("INSERT INTO game_server_mods (server_id, workshop_id, position) VALUES (?, ?, ?)").run(id, m, i));
  return id;
}
const touchServers = () => t.deps.sqlite.query("UPDATE game_servers SET last_seen_at = ?").run(t.clock.now());
const clearServers = () => {
  t.deps.sqlite.exec("DELETE FROM game_server_mods");
  t.deps.sqlite.exec("DELETE FROM game_servers");
};

describe("live stats, servers, metrics", () => {
  test("stats count only servers seen in the last hour", async () => {
    clearServers();
    const zero = await get(`/api/v1/mods/${SMALL.core}/stats`);
    expect(zero.body).toEqual({ used_by_servers_count: 0, players_using_count: 0, dependencies_count: 0, dependents_count: 3 });
    addServer({ name: "Alpha", players: 40, seenAgoMs: 60_000, mods: [SMALL.core, SMALL.chainA] });
    addServer({ name: "Bravo", players: 12, seenAgoMs: 30 * 60_000, mods: [SMALL.core] });
    addServer({ name: "Stale", players: 99, seenAgoMs: 2 * 3_600_000, mods: [SMALL.core] });
    const r = await get(`/api/v1/mods/${SMALL.core}/stats`);
    expect(r.body).toEqual({ used_by_servers_count: 2, players_using_count: 52, dependencies_count: 0, dependents_count: 3 });
    expect((await get(`/api/v1/mods/${SMALL.chainA}/stats`)).body).toEqual({
      used_by_servers_count: 1,
      players_using_count: 40,
      dependencies_count: 2,
      dependents_count: 0,
    });
  });

  test("servers using the mod, most players first, stale ones left out", async () => {
    clearServers();
    addServer({ name: "Small", players: 3, seenAgoMs: 0, mods: [SMALL.core] });
    addServer({ name: "Big", players: 60, seenAgoMs: 0, mods: [SMALL.core] });
    addServer({ name: "Gone", players: 80, seenAgoMs: 3 * 3_600_000, mods: [SMALL.core] });
    const r = await get(`/api/v1/mods/${SMALL.core}/servers`);
    expect(r.body.map((s: any) => [s.name, s.player_count])).toEqual([["Big", 60], ["Small", 3]]);
    expect(r.body[0]).toMatchObject({ player_count_limit: 64, scenario_name: "Conflict", password_protected: false, official: false });
    expect(r.body[0].last_updated).toBe(new Date(t.clock.now()).toISOString());
    expect((await get(`/api/v1/mods/${SMALL.chainB}/servers`)).body).toEqual([]);
  });

  test("GET /mod/:id/metrics: the six metrics, valid for promtool", async () => {
    clearServers();
    addServer({ name: "Alpha", players: 17, seenAgoMs: 0, mods: [WEIRD] });
    const r = await t.app.handle(new Request(`http://localhost/mod/${WEIRD.toLowerCase()}/metrics`));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const body = await r.text();
    expect(body).toContain(`loadout_mod_info{workshop_id="${WEIRD}",name="Weird \\"Quoted\\" \\\\ Mod",author="Line\\nBreak"} 1\n`);
    expect(body).toContain(`loadout_mod_size_bytes{workshop_id="${WEIRD}"} 42\n`);
    expect(body).toContain(`loadout_mod_used_by_servers{workshop_id="${WEIRD}"} 1\n`);
    expect(body).toContain(`loadout_mod_players_using{workshop_id="${WEIRD}"} 17\n`);
    expect(body).toContain(`loadout_mod_dependencies{workshop_id="${WEIRD}"} 0\n`);
    expect(body).toContain(`loadout_mod_dependents{workshop_id="${WEIRD}"} 0\n`);
    expect(body.endsWith("\n")).toBe(true);
    const check = await promtoolCheck(body);
    expect({ exit: check.exitCode, out: check.output }).toEqual({ exit: 0, out: "" });
    const core = await (await t.app.handle(new Request(`http://localhost/mod/${SMALL.core}/metrics`))).text();
    expect(core).toContain(`loadout_mod_dependents{workshop_id="${SMALL.core}"} 3\n`);
  });

  test("metrics: unknown mod 404, malformed id 400", async () => {
    const unknown = await get("/mod/ABCDEF0123456789/metrics");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "mod not found", code: "mod_not_found" });
    expect((await get("/mod/zzz/metrics")).status).toBe(400);
  });
});

describe("growth snapshots", () => {
  test("one snapshot per 3 hours, compact storage, carried forward, days validated", async () => {
    clearServers();
    t.deps.sqlite.exec("DELETE FROM mod_growth; DELETE FROM mod_growth_latest; DELETE FROM mod_growth_buckets;");
    // Start a minute into the next 3-hour bucket, so "a minute later" is the same bucket
    // whatever the time of day the suite runs at.
    t.clock.set((bucketOf(t.clock.now()) + 1) * BUCKET_MS + 60_000);
    const t0 = t.clock.now();
    const first = rollupGrowth(t.deps.sqlite, t0);
    expect(first).toMatchObject({ skipped: false, written: LISTED });
    expect(rollupGrowth(t.deps.sqlite, t0 + 60_000)).toMatchObject({ skipped: true }); // same bucket
    t.clock.advance(BUCKET_MS);
    addServer({ name: "Alpha", players: 20, seenAgoMs: 0, mods: [SMALL.core] });
    // only the changed mod gets a row in the new bucket
    expect(rollupGrowth(t.deps.sqlite, t.clock.now())).toMatchObject({ written: 1 });
    t.clock.advance(BUCKET_MS);
    touchServers(); // still online, same players
    expect(rollupGrowth(t.deps.sqlite, t.clock.now())).toMatchObject({ written: 0 });
    const r = await get(`/api/v1/mods/${SMALL.core}/stats/growth?days=1`);
    expect(r.status).toBe(200);
    const b0 = bucketOf(t0);
    expect(r.body).toEqual([
      { time: new Date(b0 * BUCKET_MS).toISOString(), used_by_servers_count: 0, players_using_count: 0, dependencies_count: 0, dependents_count: 3 },
      { time: new Date((b0 + 1) * BUCKET_MS).toISOString(), used_by_servers_count: 1, players_using_count: 20, dependencies_count: 0, dependents_count: 3 },
      { time: new Date((b0 + 2) * BUCKET_MS).toISOString(), used_by_servers_count: 1, players_using_count: 20, dependencies_count: 0, dependents_count: 3 },
    ]);
    // an unchanged mod is carried forward from its first snapshot
    const chain = await get(`/api/v1/mods/${SMALL.chainB}/stats/growth`);
    expect(chain.body.map((p: any) => p.dependents_count)).toEqual([1, 1, 1]);
    // compact: core has rows in 2 of the 3 buckets, chain B in 1
    const stored = (id: string) => (t.deps.sqlite.query("SELECT count(*) AS n FROM mod_growth WHERE workshop_id = ?").get(id) as any).n;
    expect([stored(SMALL.core), stored(SMALL.chainB)]).toEqual([2, 1]);
    expect((await get(`/api/v1/mods/${SMALL.core}/stats/growth/range`)).body).toEqual({ oldest: new Date(b0 * BUCKET_MS).toISOString() });
    for (const d of ["0", "181", "x"]) {
      const bad = await get(`/api/v1/mods/${SMALL.core}/stats/growth?days=${d}`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: "days: must be an integer from 1 to 180", code: "request.invalid" });
    }
  });

  test("retention: snapshots older than 180 days go, their values carried to the first kept bucket", async () => {
    clearServers();
    t.deps.sqlite.exec("DELETE FROM mod_growth; DELETE FROM mod_growth_latest; DELETE FROM mod_growth_buckets;");
    const start = t.clock.now();
    rollupGrowth(t.deps.sqlite, start); // bucket A: core unused
    t.clock.set(start + BUCKET_MS);
    addServer({ name: "Alpha", players: 5, seenAgoMs: 0, mods: [SMALL.core] });
    rollupGrowth(t.deps.sqlite, t.clock.now()); // bucket A+1: core used
    t.clock.set(start + 2 * BUCKET_MS);
    touchServers();
    rollupGrowth(t.deps.sqlite, t.clock.now()); // A+2: nothing changed
    const rows = () => t.deps.sqlite.query("SELECT bucket FROM mod_growth WHERE workshop_id = ? ORDER BY bucket").all(SMALL.core).map((r: any) => r.bucket);
    const a = bucketOf(start);
    expect(rows()).toEqual([a, a + 1]);
    // 180 days later the first two buckets fall out of the window
    t.clock.set(start + (RETENTION_BUCKETS + 1) * BUCKET_MS);
    touchServers();
    const res = rollupGrowth(t.deps.sqlite, t.clock.now());
    expect(res.pruned).toBe(LISTED + 1);
    // core's last old row (used, 5 players) now sits at the first kept bucket (A+2)
    expect(rows()).toEqual([a + 2]);
    expect(t.deps.sqlite.query("SELECT min(bucket) AS b FROM mod_growth_buckets").get()).toEqual({ b: a + 2 });
    const range = await get(`/api/v1/mods/${SMALL.core}/stats/growth/range`);
    expect(range.body).toEqual({ oldest: new Date((a + 2) * BUCKET_MS).toISOString() });
    const g = await get(`/api/v1/mods/${SMALL.core}/stats/growth?days=180`);
    expect(g.body.length).toBe(2);
    expect(g.body.map((p: any) => p.players_using_count)).toEqual([5, 5]);
  });
});
