import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, TestClock, type TestApp, type TestUser } from "../../../test/helpers";
import { loadBmFixture, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { BattleMetricsClient } from "./battlemetrics";
import { runScan } from "./scan";
import { runRollups } from "./rollup";
import { promtoolCheck } from "../../../test/peers/promtool";

// One app for the read-only endpoint tests: scan-1 then scan-2 five minutes later.
// Online after that: Alpha (70, 3 mods), Official (40, vanilla), Echo (22, 1 mod), Charlie (5,
// vanilla, password). Bravo vanished.
let t: TestApp;
let fake: FakeBattleMetrics;
let clock: TestClock;
let owner: TestUser;
let other: TestUser;
const ids: Record<string, string> = {};

const SIZES: Record<string, number> = {
  "5965550F24A0C152": 100,
  "5AAAC70D754245DD": 200,
  "6198EC5F9B6D3E7A": 1000,
  "591AF5BDA9F7CE8B": 50,
};

beforeAll(async () => {
  fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
  clock = new TestClock(Date.UTC(2026, 10, 22, 10, 0, 0));
  t = await createTestApp({ clock });
  for (const [id, size] of Object.entries(SIZES)) {
    t.deps.sqlite
      .query(`INSERT INTO mods (workshop_id, name, version, size_bytes, image_url, state) VALUES (?, ?, '9.9.9', ?, ?, 'active')`)
      .run(id, `Catalog ${id.slice(0, 4)}`, size, `https://img.example/${id}.png`);
  }
  // Items extracted for the version Alpha runs of one mod.
  t.deps.sqlite
    .query(`INSERT INTO mod_items (workshop_id, version, item_key, item_type, name, path, guid) VALUES ('5965550F24A0C152', '1.2.0', 'k1', 'weapon', 'M16A2', 'Prefabs/Weapons/M16A2.et', 'ABCD')`)
    .run();
  t.deps.sqlite.query(`INSERT INTO mod_item_scans (workshop_id, version, item_count, scanned_at) VALUES ('5965550F24A0C152', '1.2.0', 1, 0)`).run();
  const client = () => new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} });
  await runScan(t.deps, { client: client() });
  clock.advance(5 * 60_000);
  fake.setServers(loadBmFixture("scan-2"));
  await runScan(t.deps, { client: client() });
  for (const r of t.deps.sqlite.query(`SELECT id, host_address FROM game_servers`).all() as any[]) ids[r.host_address] = r.id;
  owner = await t.createUser();
  other = await t.createUser();
});
afterAll(async () => {
  fake.stop();
  await t.close();
});

const ALPHA = "203.0.113.10:2001";
const BRAVO = "198.51.100.20:2302";
const CHARLIE = "192.0.2.30:2001";
const DELTA = "192.0.2.40:2001";
const ECHO = "203.0.113.50:2005";

async function names(query: string): Promise<string[]> {
  const r = await t.req("GET", `/api/v1/game-servers${query}`);
  if (r.status !== 200) console.log(query, r.body);
  expect(r.status).toBe(200);
  return r.body.map((s: any) => s.host_address);
}

describe("GET /game-servers", () => {
  test("entries carry the spec's fields; vanished servers are not listed", async () => {
    const r = await t.req("GET", "/api/v1/game-servers");
    expect(r.body.length).toBe(4);
    const alpha = r.body[0];
    expect(alpha).toMatchObject({
      id: ids[ALPHA],
      name: "Alpha Company | Conflict Everon",
      host_address: ALPHA,
      player_count: 70,
      player_count_limit: 128,
      queue_players_count: 0,
      scenario_name: "Conflict - Everon",
      game_version: "1.2.0.102",
      password_protected: false,
      official: false,
      last_updated: new Date(clock.now()).toISOString(),
      mods_count: 3,
      mods_size_bytes: 1300,
    });
    expect(r.body.map((s: any) => s.host_address)).not.toContain(BRAVO);
  });

  test("sorts", async () => {
    expect(await names("")).toEqual([ALPHA, DELTA, ECHO, CHARLIE]);
    expect(await names("?sort_by=players_desc")).toEqual([ALPHA, DELTA, ECHO, CHARLIE]);
    expect(await names("?sort_by=players_asc")).toEqual([CHARLIE, ECHO, DELTA, ALPHA]);
    expect(await names("?sort_by=name_asc")).toEqual([ALPHA, CHARLIE, ECHO, DELTA]);
    expect(await names("?sort_by=name_desc")).toEqual([DELTA, ECHO, CHARLIE, ALPHA]);
    expect(await names("?sort_by=mod_size_desc")).toEqual([ALPHA, ECHO, DELTA, CHARLIE]);
    expect(await names("?sort_by=mod_size_asc")).toEqual([DELTA, CHARLIE, ECHO, ALPHA]);
    // All were seen in the same scan: the most recently discovered first.
    expect((await names("?sort_by=recent"))[0]).toBe(ECHO);
    // Popularity is the 7-day average: Alpha (64, 70), Official (40, 40), Echo (22), Charlie (3, 5).
    expect(await names("?sort_by=popularity")).toEqual([ALPHA, DELTA, ECHO, CHARLIE]);
    const bad = await t.req("GET", "/api/v1/game-servers?sort_by=loudest");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toStartWith("sort_by:");
  });

  test("search: words match word starts of name and scenario, address-like pieces the address; every piece must match", async () => {
    // Names: Alpha Company | Conflict Everon, Charlie Vanilla Private, Official Conflict #1, Echo Squad Tactical.
    expect((await names("?search=conflict%20everon")).sort()).toEqual([ALPHA, DELTA].sort());
    expect(await names("?search=ALPHA%20everon")).toEqual([ALPHA]);
    expect((await names("?search=203.0.113")).sort()).toEqual([ALPHA, ECHO].sort());
    expect(await names("?search=203.0.113.10:2001")).toEqual([ALPHA]);
    expect(await names("?search=arland%20game%20master")).toEqual([CHARLIE]);
    expect(await names("?search=nothing-like-this")).toEqual([]);
    // A comma inside the search text is not a list separator: punctuation only separates words.
    expect(await names("?search=alpha,%20conflict")).toEqual([ALPHA]);
    expect(await names("?search=Alpha%20Company%20|")).toEqual([ALPHA]);
    // By the start of a word: "pha" is inside "Alpha", not at a word's start.
    expect(await names("?search=pha")).toEqual([]);
    expect(await names("?search=alp")).toEqual([ALPHA]);
    // Digits are name words, never a piece of the address: three of these servers listen on 2001.
    expect(await names("?search=2001")).toEqual([]);
    expect(await names("?search=20")).toEqual([]);
    expect(await names("?search=1")).toEqual([DELTA]); // "Official Conflict #1"
    expect((await names("?search=:2001")).sort()).toEqual([ALPHA, CHARLIE, DELTA].sort());
  });

  test("mod_ids: servers running all of them", async () => {
    expect(await names("?mod_ids=5965550F24A0C152")).toEqual([ALPHA]);
    expect(await names("?mod_ids=591af5bda9f7ce8b")).toEqual([ECHO]);
    expect(await names("?mod_ids=5965550F24A0C152,6198EC5F9B6D3E7A")).toEqual([ALPHA]);
    expect(await names("?mod_ids=5965550F24A0C152,591AF5BDA9F7CE8B")).toEqual([]);
    const bad = await t.req("GET", "/api/v1/game-servers?mod_ids=XYZ");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("invalid workshop ID");
  });

  test("boolean, numeric and tag filters, combined", async () => {
    expect(await names("?official=true")).toEqual([DELTA]);
    expect(await names("?official=false")).toEqual([ALPHA, ECHO, CHARLIE]);
    expect(await names("?password_protected=true")).toEqual([CHARLIE]);
    expect(await names("?password_protected=0")).toEqual([ALPHA, DELTA, ECHO]);
    expect(await names("?min_players=22")).toEqual([ALPHA, DELTA, ECHO]);
    expect(await names("?max_mod_size=100")).toEqual([DELTA, ECHO, CHARLIE]);
    expect(await names("?tags=modded")).toEqual([ALPHA, ECHO]);
    expect(await names("?tags=battleye,crossplay")).toEqual([ALPHA, DELTA, CHARLIE]);
    expect(await names("?tags=playstation")).toEqual([DELTA, CHARLIE]);
    expect(await names("?tags=vanilla&official=false&min_players=1")).toEqual([CHARLIE]);
    expect(await names("?search=conflict&tags=modded&max_mod_size=5000&sort_by=name_asc")).toEqual([ALPHA]);
    expect((await t.req("GET", "/api/v1/game-servers?official=maybe")).status).toBe(400);
    expect((await t.req("GET", "/api/v1/game-servers?min_players=-1")).status).toBe(400);
  });

  test("limit and offset", async () => {
    expect(await names("?limit=2&offset=1")).toEqual([DELTA, ECHO]);
    expect(await names("?limit=200&offset=3")).toEqual([CHARLIE]);
    expect((await t.req("GET", "/api/v1/game-servers?limit=201")).status).toBe(400);
    expect((await t.req("GET", "/api/v1/game-servers?limit=0")).status).toBe(400);
    expect((await t.req("GET", "/api/v1/game-servers?offset=-1")).status).toBe(400);
  });
});

describe("server detail, mods, changelog", () => {
  test("detail: server, complete mods[] and mod_items[]", async () => {
    const r = await t.req("GET", `/api/v1/game-servers/${ids[ALPHA]}`);
    expect(r.status).toBe(200);
    expect(r.body.server).toMatchObject({ id: ids[ALPHA], host_address: ALPHA, online: true, ip: "203.0.113.10", port: 2001 });
    expect(r.body.mods.map((m: any) => [m.workshop_id, m.version, m.position, m.size_bytes])).toEqual([
      ["5AAAC70D754245DD", "1.0.80", 0, 200],
      ["5965550F24A0C152", "1.2.0", 1, 100],
      ["6198EC5F9B6D3E7A", "0.11.2", 2, 1000],
    ]);
    expect(r.body.mods[0]).toMatchObject({ name: "Server Admin Tools", latest_version: "9.9.9", in_catalog: true });
    expect(r.body.mod_items).toEqual([
      { workshop_id: "5965550F24A0C152", mod_name: "Where Am I", version: "1.2.0", type: "weapon", name: "M16A2", path: "Prefabs/Weapons/M16A2.et", guid: "ABCD" },
    ]);
    const missing = await t.req("GET", "/api/v1/game-servers/not-a-server");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "game server not found", code: "live.server_not_found" });
  });

  test("mods: paginated with total_size_bytes over all mods", async () => {
    const r = await t.req("GET", `/api/v1/game-servers/${ids[ALPHA]}/mods?page=2&limit=2`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: 3, total_size_bytes: 1300, page: 2, pages: 2, limit: 2 });
    expect(r.body.items.map((m: any) => m.workshop_id)).toEqual(["6198EC5F9B6D3E7A"]);
    const def = await t.req("GET", `/api/v1/game-servers/${ids[ALPHA]}/mods`);
    expect(def.body).toMatchObject({ page: 1, limit: 10, pages: 1, total: 3 });
    expect((await t.req("GET", `/api/v1/game-servers/${ids[ALPHA]}/mods?limit=501`)).status).toBe(400);
    expect((await t.req("GET", `/api/v1/game-servers/${ids[ALPHA]}/mods?page=0`)).status).toBe(400);
  });

  test("mod-changelog: newest first, paginated", async () => {
    const r = await t.req("GET", `/api/v1/game-servers/${ids[ALPHA]}/mod-changelog?limit=3`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: 6, page: 1, pages: 2, limit: 3 });
    expect(r.body.items[0]).toEqual({
      timestamp: new Date(clock.now()).toISOString(),
      action: "removed",
      workshop_id: "591AF5BDA9F7CE8B",
      mod_name: "Capture & Hold",
      old_version: "1.0.4",
      new_version: null,
      size_bytes: 50,
    });
    expect(r.body.items.map((i: any) => i.action)).toEqual(["removed", "added", "updated"]);
    const p2 = await t.req("GET", `/api/v1/game-servers/${ids[ALPHA]}/mod-changelog?limit=3&page=2`);
    expect(p2.body.items.every((i: any) => i.action === "added")).toBe(true);
    expect((await t.req("GET", `/api/v1/game-servers/nope/mod-changelog`)).status).toBe(404);
  });
});

describe("global statistics", () => {
  test("top-mods: servers online in the last hour using each mod", async () => {
    const r = await t.req("GET", "/api/v1/stats/top-mods");
    expect(r.status).toBe(200);
    // Alpha and Bravo (seen 5 minutes ago, so within the hour) run 5965550F24A0C152.
    expect(r.body[0]).toEqual({ workshop_id: "5965550F24A0C152", name: "Catalog 5965", server_count: 2 });
    expect(r.body.length).toBe(5);
    expect(r.body.every((m: any, i: number) => i === 0 || r.body[i - 1].server_count >= m.server_count)).toBe(true);
  });

  test("top-servers: 7-day average, at most 10", async () => {
    const r = await t.req("GET", "/api/v1/stats/top-servers");
    expect(r.body[0]).toEqual({ id: ids[ALPHA], name: "Alpha Company | Conflict Everon", avg_players: 67 });
    expect(r.body.length).toBeLessThanOrEqual(10);
  });
});

describe("communities", () => {
  test("assign, stats, metrics, unassign", async () => {
    const c = await t.req("POST", "/api/v1/communities", { user: owner, body: { name: "Alpha Group" } });
    expect(c.status).toBe(200);
    const cid = c.body.id;
    expect((await t.req("POST", `/api/v1/game-servers/${ids[ALPHA]}/community`, { body: { community_id: cid } })).status).toBe(401);
    const foreign = await t.req("POST", `/api/v1/game-servers/${ids[ALPHA]}/community`, { user: other, body: { community_id: cid } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: "community not found", code: "community.not_found" });
    for (const addr of [ALPHA, ECHO]) {
      const r = await t.req("POST", `/api/v1/game-servers/${ids[addr]}/community`, { user: owner, body: { community_id: cid } });
      expect(r.status).toBe(204);
    }
    expect((await t.req("POST", `/api/v1/game-servers/nope/community`, { user: owner, body: { community_id: cid } })).status).toBe(404);
    const entry = (await t.req("GET", "/api/v1/game-servers?search=alpha")).body[0];
    expect(entry.community_id).toBe(cid);
    // Its page: the servers (a filter of the live list) and the public community data by id or slug.
    expect(await names(`?community_id=${cid}`)).toEqual([ALPHA, ECHO]);
    expect(await names(`?community_id=${crypto.randomUUID()}`)).toEqual([]);
    const page = await t.req("GET", `/api/v1/communities/${cid}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ id: cid, community_id: cid, name: "Alpha Group", slug: "alpha-group", description: "", member_count: 1 });
    expect((await t.req("GET", "/api/v1/communities/alpha-group")).body.id).toBe(cid);
    expect((await t.req("GET", "/api/v1/communities/nope")).status).toBe(404);
    // A non-member cannot take the server out of the community.
    expect((await t.req("POST", `/api/v1/game-servers/${ids[ALPHA]}/community`, { user: other, body: { community_id: "" } })).status).toBe(403);

    // The next scan records a community point.
    clock.advance(5 * 60_000);
    await runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} }) });
    const s = await t.req("GET", `/api/v1/stats/community-players/${cid}?days=1`);
    expect(s.status).toBe(200);
    expect(s.body).toEqual([
      { time: new Date(clock.now()).toISOString(), total_players: 92, total_queue: 0, online_servers: 2, total_players_max: 92 },
    ]);
    const range = await t.req("GET", `/api/v1/stats/community-players/${cid}/range`);
    expect(range.body).toEqual({ oldest: new Date(clock.now()).toISOString() });
    expect((await t.req("GET", `/api/v1/stats/community-players/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await t.req("GET", `/api/v1/stats/community-players/${crypto.randomUUID()}/range`)).status).toBe(404);
    runRollups(t.deps, clock.now() + 2 * 3_600_000);

    const metrics = await t.req("GET", `/community/${c.body.slug}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
    expect(metrics.text).toContain(`loadout_community_info{community_id="${cid}",slug="${c.body.slug}",name="Alpha Group"} 1`);
    expect(metrics.text).toContain(`loadout_community_servers_total{community_id="${cid}"} 2`);
    expect(metrics.text).toContain(`loadout_community_servers_online{community_id="${cid}"} 2`);
    expect(metrics.text).toContain(`loadout_community_players_total{community_id="${cid}"} 92`);
    expect(metrics.text).toContain(`loadout_community_public_lists_total{community_id="${cid}"} 0`);
    await promtool(metrics.text, ["loadout_community_servers_total", "loadout_community_players_total", "loadout_community_queue_total", "loadout_community_public_lists_total"]);
    expect((await t.req("GET", "/community/no-such-slug/metrics")).status).toBe(404);

    const un = await t.req("POST", `/api/v1/game-servers/${ids[ECHO]}/community`, { user: owner, body: { community_id: "" } });
    expect(un.status).toBe(204);
    expect((await t.req("GET", `/api/v1/game-servers/${ids[ECHO]}`)).body.server.community_id).toBeNull();
    const noBody = await t.req("POST", `/api/v1/game-servers/${ids[ECHO]}/community`, { user: owner, body: {} });
    expect(noBody.status).toBe(400);
    expect(noBody.body.error).toStartWith("community_id:");
    expect((await t.req("POST", `/api/v1/game-servers/${ids[ALPHA]}/community`, { user: owner, body: { community_id: null } })).status).toBe(204);
    expect((await t.req("GET", `/api/v1/game-servers/${ids[ALPHA]}`)).body.server.community_id).toBeNull();
  });
});

/** `promtool check metrics`: exactly one lint line for each given spec-fixed name, nothing else. */
async function promtool(body: string, acceptedLintNames: string[]) {
  const r = await promtoolCheck(body);
  expect(r.problems).toEqual([]);
  const lintNames = r.output.split("\n").filter((l) => l.trim() !== "").map((l) => l.split(" ")[0]);
  expect(lintNames.sort()).toEqual([...acceptedLintNames].sort());
  expect(r.exitCode).toBe(acceptedLintNames.length > 0 ? 3 : 0);
}

describe("server metrics", () => {
  test("every metric and label of the spec, valid for promtool", async () => {
    const r = await t.req("GET", `/servers/${ids[ALPHA]}/metrics`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
    const id = ids[ALPHA];
    expect(r.text).toContain(
      `loadout_server_info{server_id="${id}",name="Alpha Company | Conflict Everon",host_address="${ALPHA}",scenario_name="Conflict - Everon",game_version="1.2.0.102",official="false",password_protected="false"} 1`,
    );
    for (const [name, v] of [
      ["loadout_server_online", 1],
      ["loadout_server_players", 70],
      ["loadout_server_queue_players", 0],
      ["loadout_server_wait_time_seconds", 0],
      ["loadout_server_player_limit", 128],
      ["loadout_server_mods_count", 3],
      ["loadout_server_mods_size_bytes", 1300],
    ] as const) {
      expect(r.text).toContain(`# TYPE ${name} gauge\n${name}{server_id="${id}"} ${v}\n`);
    }
    expect(r.text.endsWith("\n")).toBe(true);
    await promtool(r.text, ["loadout_server_mods_count"]);
  });

  test("a server not seen for over an hour is offline; labels are escaped; unknown id is 404", async () => {
    t.deps.sqlite
      .query(`UPDATE game_servers SET name = ?, last_seen_at = ? WHERE id = ?`)
      .run('Bravo "quoted" \\ back\nslash', clock.now() - 3_600_001, ids[BRAVO]);
    const r = await t.req("GET", `/servers/${ids[BRAVO]}/metrics`);
    expect(r.text).toContain(`name="Bravo \\"quoted\\" \\\\ back\\nslash"`);
    expect(r.text).toContain(`loadout_server_online{server_id="${ids[BRAVO]}"} 0`);
    await promtool(r.text, ["loadout_server_mods_count"]);
    const missing = await t.req("GET", "/servers/00000000-0000-7000-8000-000000000000/metrics");
    expect(missing.status).toBe(404);
  });
});

describe("copy-from-server", () => {
  test("creates a new list with the server's mods as one import audit entry", async () => {
    expect((await t.req("POST", `/api/v1/modlists/copy-from-server/${ids[ALPHA]}`, { body: { list_name: "x" } })).status).toBe(401);
    const r = await t.req("POST", `/api/v1/modlists/copy-from-server/${ids[ALPHA]}`, {
      user: owner,
      body: { list_name: "From Alpha", is_public: true },
    });
    expect(r.status).toBe(200);
    const listId = r.body.list_id;
    const detail = await t.req("GET", `/api/v1/lists/${listId}`, { user: owner });
    expect(detail.body.name).toBe("From Alpha");
    expect(detail.body.is_public).toBe(true);
    expect(detail.body.items.map((i: any) => [i.workshop_id, i.pinned_version])).toEqual([
      ["5AAAC70D754245DD", "1.0.80"],
      ["5965550F24A0C152", "1.2.0"],
      ["6198EC5F9B6D3E7A", "0.11.2"],
    ]);
    const audit = await t.req("GET", `/api/v1/lists/${listId}/audit`, { user: owner });
    const entries = Array.isArray(audit.body) ? audit.body : audit.body.entries ?? audit.body.items;
    expect(entries.length).toBe(1);
    expect(entries[0].action).toBe("import");

    const noName = await t.req("POST", `/api/v1/modlists/copy-from-server/${ids[ALPHA]}`, { user: owner, body: {} });
    expect(noName.status).toBe(400);
    expect((await t.req("POST", `/api/v1/modlists/copy-from-server/nope`, { user: owner, body: { list_name: "x" } })).status).toBe(404);
  });

  test("overwrites a list the caller owns; others get 403", async () => {
    const created = await t.req("POST", "/api/v1/lists", { user: owner, body: { name: "Mine", description: "", is_public: false } });
    const listId = created.body.id;
    await t.req("POST", `/api/v1/lists/${listId}/mods`, { user: owner, body: { workshop_id: "591AF5BDA9F7CE8B" } });
    const r = await t.req("POST", `/api/v1/modlists/copy-from-server/${ids[ECHO]}`, { user: owner, body: { list_id: listId } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ list_id: listId });
    const before = (await t.req("GET", `/api/v1/lists/${listId}/audit`, { user: owner })).body;
    const r2 = await t.req("POST", `/api/v1/modlists/copy-from-server/${ids[ALPHA]}`, { user: owner, body: { list_id: listId } });
    expect(r2.status).toBe(200);
    const detail = await t.req("GET", `/api/v1/lists/${listId}`, { user: owner });
    expect(detail.body.items.map((i: any) => i.workshop_id)).toEqual(["5AAAC70D754245DD", "5965550F24A0C152", "6198EC5F9B6D3E7A"]);
    const after = (await t.req("GET", `/api/v1/lists/${listId}/audit`, { user: owner })).body;
    const count = (b: any) => (Array.isArray(b) ? b : b.entries ?? b.items).length;
    expect(count(after)).toBe(count(before) + 1);
    const newest = (Array.isArray(after) ? after : after.entries ?? after.items)[0];
    expect(newest.action).toBe("import");
    expect(newest.old_value.removed.map((m: any) => m.workshop_id)).toEqual(["591AF5BDA9F7CE8B"]);

    const foreign = await t.req("POST", `/api/v1/modlists/copy-from-server/${ids[ALPHA]}`, { user: other, body: { list_id: listId } });
    expect([403, 404]).toContain(foreign.status);
    const missing = await t.req("POST", `/api/v1/modlists/copy-from-server/${ids[ALPHA]}`, { user: owner, body: { list_id: crypto.randomUUID() } });
    expect(missing.status).toBe(404);
  });
});
