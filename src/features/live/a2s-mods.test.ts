// A registered server polled over A2S shows in Live the mods Loadout knows it runs (docs/live.md
// "Registered servers"): A2S names no mods, so before any connection test or deploy its entry has
// none; after a connection test it has the mods the config named; after a deploy, the mods the
// deploy wrote, in their order, with the change in its changelog. Through the real app, the fake
// panel holding the config and a local A2S responder.
import { afterEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../../test/helpers";
import { loadBmFixture, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { startA2sResponder, type A2sResponder } from "../../../test/fakes/a2s";
import { startFakePanel, type FakePanel } from "../../../test/fakes/panel";
import { SAMPLE_SERVER_JSON } from "../../../test/fakes/panel-server-json";
import { enqueueScan, SCAN_JOB } from "./jobs";

const MOD_A = "5965550F24A0C152";
const MOD_B = "591AF5BDD9EEEE4C";
const OLD_MOD = "0000000000000001"; // the one mod of SAMPLE_SERVER_JSON

let t: TestApp | undefined;
let bm: FakeBattleMetrics | undefined;
let panel: FakePanel | undefined;
let a2s: A2sResponder | undefined;

afterEach(async () => {
  a2s?.close();
  bm?.stop();
  await panel?.stop();
  await t?.close();
  t = bm = panel = a2s = undefined;
});

async function scan(app: TestApp) {
  const id = enqueueScan(app.deps);
  await app.deps.jobs.drain({ types: [SCAN_JOB] });
  expect(app.deps.jobs.get(id)!.status).toBe("succeeded");
}

describe("a registered server's mods in Live", () => {
  test("none until Loadout has read its config; then the config's mods; after a deploy the deployed ones, in order, with the change logged", async () => {
    bm = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
    t = await createTestApp({ env: { LOADOUT_BATTLEMETRICS_URL: bm.url, LOADOUT_ALLOW_PRIVATE_URLS: "true" } });
    panel = startFakePanel({ files: { "/config.json": SAMPLE_SERVER_JSON } });
    a2s = await startA2sResponder({ name: "Our Everon", map: "Everon", players: 4, maxPlayers: 64, version: "1.3.0.140", gamePort: 2301 });
    const owner = await t.createUser();
    const as = { user: owner };
    const list = (await t.req("POST", "/api/v1/lists", { ...as, body: { name: "Ours", is_public: false } })).body.id as string;
    for (const workshop_id of [MOD_A, MOD_B]) expect((await t.req("POST", `/api/v1/lists/${list}/mods`, { ...as, body: { workshop_id } })).status).toBeLessThan(300);
    const srv = (
      await t.req("POST", "/api/v1/servers", { ...as, body: { name: "Ours", connection_type: "panel", file_path: "/config.json", linked_list_id: list, query_address: `127.0.0.1:${a2s.port}` } })
    ).body;
    expect((await t.req("POST", `/api/v1/servers/${srv.id}/credentials`, { ...as, body: { panel_url: panel.url, api_key: panel.apiKey, server_uuid: panel.serverUuid } })).status).toBe(200);

    // Nothing read yet: A2S alone names no mods, the entry has none (and is linked to the server).
    await scan(t);
    const row = () => t!.deps.sqlite.query("SELECT * FROM game_servers WHERE host_address = '127.0.0.1:2301'").get() as any;
    expect(row()).toMatchObject({ source: "a2s", name: "Our Everon", player_count: 4, mods_count: 0, registered_server_id: srv.id });
    const liveId = row().id as string;
    const mods = async () => (await t!.req("GET", `/api/v1/game-servers/${liveId}/mods`)).body;
    expect((await mods()).total).toBe(0);
    // The server's view and its status name its live entry.
    expect((await t.req("GET", `/api/v1/servers/${srv.id}`, as)).body.live_server_id).toBe(liveId);
    expect((await t.req("GET", `/api/v1/servers/${srv.id}/status`, as)).body.live_server_id).toBe(liveId);

    // A connection test reads the config: its one mod is what the server runs.
    expect((await t.req("POST", `/api/v1/servers/${srv.id}/test`, as)).status).toBe(200);
    await t.deps.jobs.drain({ types: ["deploy.run"] });
    t.clock.advance(5 * 60_000);
    await scan(t);
    expect((await mods()).items.map((m: any) => m.workshop_id)).toEqual([OLD_MOD]);

    // A deploy writes the list: the next scan shows those mods, in the list's order.
    expect((await t.req("POST", `/api/v1/servers/${srv.id}/deploy`, { ...as, body: {} })).status).toBe(200);
    await t.deps.jobs.drain({ types: ["deploy.run"] });
    expect(JSON.parse(panel.files.get("/config.json")!).game.mods.map((m: any) => m.modId)).toEqual([MOD_A, MOD_B]);
    t.clock.advance(5 * 60_000);
    await scan(t);
    const after = await mods();
    expect(after.total).toBe(2);
    expect(after.items.map((m: any) => [m.workshop_id, m.position])).toEqual([
      [MOD_A, 0],
      [MOD_B, 1],
    ]);
    expect(row()).toMatchObject({ mods_count: 2, registered_server_id: srv.id, online: 1 });
    const log = (await t.req("GET", `/api/v1/game-servers/${liveId}/mod-changelog`)).body;
    const actions = (log.items as any[]).map((c) => `${c.action} ${c.workshop_id}`).sort();
    expect(actions).toEqual([`added ${MOD_A}`, `added ${MOD_B}`, `added ${OLD_MOD}`, `removed ${OLD_MOD}`].sort());
  }, 30_000);
});
