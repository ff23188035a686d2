// The catalog's live stats (servers online in the last hour using a mod, and their players)
// are counted in the live snapshot of the last scan, for the window asked; this checks them
// against a direct count at every step of a timeline of real scans.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../../test/helpers";
import { loadBmFixture, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { BattleMetricsClient } from "./battlemetrics";
import { runScan } from "./scan";
import { liveStatsSql as getLiveStats, serversUsingSql as getServersUsing } from "../../../test/truth/catalog-sql";

let t: TestApp;
let fake: FakeBattleMetrics;
beforeEach(async () => {
  fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
  t = await createTestApp({ env: { LOADOUT_BATTLEMETRICS_URL: fake.url } });
});
afterEach(async () => {
  fake.stop();
  await t.close();
});

const MIN = 60_000;
const client = () => new BattleMetricsClient({ baseUrl: fake.url, pageSize: 2, minIntervalMs: 0, sleep: async () => {} });

function direct(id: string) {
  return t.deps.sqlite
    .query(
      `SELECT count(*) AS servers, coalesce(sum(gs.player_count), 0) AS players
       FROM game_server_mods gsm JOIN game_servers gs ON gs.id = gsm.server_id
       WHERE gsm.workshop_id = ? AND gs.last_seen_at >= ?`,
    )
    .get(id, t.clock.now() - 60 * MIN) as { servers: number; players: number };
}

test("live stats equal a direct count of servers seen in the last hour, as time passes between scans", async () => {
  const ids = (t.deps.sqlite.query("SELECT DISTINCT workshop_id FROM game_server_mods").all() as { workshop_id: string }[]).map((r) => r.workshop_id);
  expect(ids).toEqual([]); // nothing before the first scan
  const check = () => {
    const all = (t.deps.sqlite.query("SELECT DISTINCT workshop_id FROM game_server_mods").all() as { workshop_id: string }[]).map((r) => r.workshop_id);
    for (const id of all) {
      const s = getLiveStats(t.deps.sqlite, id, t.clock.now() - 60 * MIN);
      expect({ id, servers: s.used_by_servers_count, players: s.players_using_count }).toEqual({ id, ...direct(id) });
      // Both join orders of /mods/:id/servers give the same rows in the same order.
      const since = t.clock.now() - 60 * MIN;
      const modFirst = getServersUsing(t.deps.sqlite, id, since, "mod-first");
      expect(getServersUsing(t.deps.sqlite, id, since, "online-first")).toEqual(modFirst);
      expect(modFirst.length).toBe(s.used_by_servers_count);
    }
    return all.length;
  };
  await runScan(t.deps, { client: client() });
  expect(check()).toBeGreaterThan(2);
  const usedBefore = getLiveStats(t.deps.sqlite, "5965550F24A0C152", t.clock.now() - 60 * MIN).used_by_servers_count;
  expect(usedBefore).toBeGreaterThan(0);

  // 40 minutes later some servers are gone and mods changed.
  t.clock.advance(40 * MIN);
  fake.setServers(loadBmFixture("scan-2"));
  await runScan(t.deps, { client: client() });
  check();

  // 30 minutes after that (no scan): servers seen only at the first scan left the window.
  t.clock.advance(30 * MIN);
  check();
  // Two hours without any scan: nothing is online any more.
  t.clock.advance(120 * MIN);
  check();
  expect(getLiveStats(t.deps.sqlite, "5965550F24A0C152", t.clock.now() - 60 * MIN).used_by_servers_count).toBe(0);
});
