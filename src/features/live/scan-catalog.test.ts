// What a scan reads besides the pages, made cheaper than one read of every row it needs, stays exact:
// - the community points are the old GROUP BY over every assigned server (online, offline, a
//   community with none seen, one whose servers all left);
// - the catalog's names and sizes come through a CatalogLookup kept per connection for one
//   live_state.catalog_gen: a scan after any kind of catalog write (rename, size, a mod added or
//   deleted) sizes its servers and names the usage from the catalog as it is then, and what a
//   lookup read in a transaction that rolled back is never kept.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { generateBmServers, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { liveSql } from "../../../test/live-sql";
import { modUsageSql, modUsageTopSql } from "../../../test/truth/live-sql";
import { BattleMetricsClient } from "./battlemetrics";
import { CatalogLookup, HOUR, liveRepo } from "./repository";
import { runScan } from "./scan";

describe("a scan's community points and catalog reads", () => {
  let t: TestApp;
  let fake: FakeBattleMetrics;
  let clock: TestClock;
  const { q, one } = liveSql(() => t.deps.sqlite);
  const scan = () => runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} }) });
  const modId = (k: number) => (0x5a00000000000000n + BigInt(k)).toString(16).toUpperCase();
  /** The community points of `time` as the GROUP BY over every assigned server counts them (the SQL the scan once ran). */
  const communityPointsByGroupBy = (time: number) =>
    q(
      `SELECT community_id, ?1 AS time,
         coalesce(sum(CASE WHEN last_seen_at = ?1 THEN player_count END), 0) AS players,
         coalesce(sum(CASE WHEN last_seen_at = ?1 THEN queue_players_count END), 0) AS queue,
         count(CASE WHEN last_seen_at = ?1 THEN 1 END) AS servers
       FROM game_servers WHERE community_id IS NOT NULL GROUP BY community_id ORDER BY community_id`,
      time,
    );
  const communityPoints = (time: number) =>
    q(`SELECT community_id, time, players, queue, servers FROM live_community_stats_raw WHERE time = ? ORDER BY community_id`, time);
  /**
   * Every used mod's name as live_mod_usage gives one (usageNames, through the connection's kept
   * catalog lookup: what the scan names its top with), and as the old join read them (the
   * catalog's name, else the named mod row with the smallest sid: modUsageSql).
   */
  const usageNames = () => {
    const all = modUsageSql(t.deps.sqlite, clock.now() - HOUR);
    const names = t.deps.sqlite.transaction(() => liveRepo.usageNames(t.deps.sqlite, all.map((u) => u.workshop_id)))();
    return all.map((u, i) => ({ workshop_id: u.workshop_id, name: names[i] }));
  };
  const usageNamesBySql = () => modUsageSql(t.deps.sqlite, clock.now() - HOUR).map(({ workshop_id, name }) => ({ workshop_id, name }));
  /** live_mod_usage is the top of SQLite's count, named so. */
  const expectTopAsSql = () =>
    expect(q(`SELECT workshop_id, name, server_count, player_count FROM live_mod_usage ORDER BY server_count DESC, workshop_id`)).toEqual(
      modUsageTopSql(t.deps.sqlite),
    );
  /** Servers whose stored mod size is not the catalog's sum over their rows. */
  const wrongSizes = () =>
    q(
      `SELECT g.sid, g.mods_size_bytes, (SELECT coalesce(sum(m.size_bytes), 0) FROM game_server_mods_by_sid gm
         JOIN mods m ON m.workshop_id = gm.workshop_id WHERE gm.server_sid = g.sid) AS sum
       FROM game_servers g WHERE g.mods_count > 0 AND g.mods_size_bytes IS NOT sum`,
    );
  /** The fake's servers with every 10th (from `shift`) reporting its list without its first mod. */
  const servers = (shift: number) => {
    const out = generateBmServers(120, { seed: 21, modPool: 300 });
    out.forEach((s, i) => {
      const a = s.attributes as any;
      if (i % 10 === shift) a.details.reforger.mods = a.details.reforger.mods.slice(1);
    });
    return out;
  };

  beforeAll(async () => {
    fake = startFakeBattleMetrics({ servers: servers(-1) });
    clock = new TestClock(Date.UTC(2026, 10, 27, 12, 0, 0));
    t = await createTestApp({ clock });
    // Every other mod of the pool in the catalog, with sizes (some 0) and names (some empty).
    const ins = t.deps.sqlite.query("INSERT INTO mods (workshop_id, name, version, size_bytes, state, created_at, updated_at) VALUES (?, ?, '1.0.0', ?, 'active', 0, 0)");
    for (let k = 0; k < 300; k += 2) ins.run(modId(k), k % 6 ? `Catalog Mod ${k}` : "", (k % 5) * 1_000_003);
  });
  afterAll(async () => {
    fake.stop();
    await t.close();
  });

  test("community points are the GROUP BY over every assigned server's row, scan after scan", async () => {
    await scan();
    const owner = await t.createUser();
    const communities: string[] = [];
    for (const name of ["One", "Two", "Three", "Four"]) communities.push((await t.req("POST", "/api/v1/communities", { user: owner, body: { name } })).body.id);
    const ids = q(`SELECT id FROM game_servers ORDER BY sid`).map((r) => r.id as string);
    // One and Two: several servers each; Three: one server, which leaves the list below; Four: none.
    for (let i = 0; i < 30; i++) expect((await t.req("POST", `/api/v1/game-servers/${ids[i * 3]}/community`, { user: owner, body: { community_id: communities[i % 2] } })).status).toBe(204);
    const last = generateBmServers(120, { seed: 21, modPool: 300 })[119]!.attributes as any;
    const leaving = one(`SELECT id FROM game_servers WHERE host_address = ?`, `${last.ip}:${last.port}`).id as string;
    expect(ids.indexOf(leaving) % 3 !== 0 || ids.indexOf(leaving) >= 90).toBe(true);
    expect((await t.req("POST", `/api/v1/game-servers/${leaving}/community`, { user: owner, body: { community_id: communities[2] } })).status).toBe(204);
    for (let round = 0; round < 3; round++) {
      clock.advance(5 * 60_000);
      // The last server goes in the second round (offline, still assigned): its community counts zeros.
      fake.setServers(servers(round).slice(0, round >= 1 ? 119 : 120));
      await scan();
      const time = clock.now();
      const points = communityPoints(time);
      expect(points).toEqual(communityPointsByGroupBy(time));
      expect(points.map((p) => p.community_id).sort()).toEqual(communities.slice(0, 3).sort());
      const three = points.find((p) => p.community_id === communities[2])!;
      expect(three.servers).toBe(round >= 1 ? 0 : 1);
      expect(points.filter((p) => p.servers > 0 && p.players > 0).length).toBeGreaterThanOrEqual(1);
    }
  });

  test("sizes and usage names follow every kind of catalog write between scans", async () => {
    expect(wrongSizes()).toEqual([]);
    expect(usageNames().length).toBeGreaterThan(100);
    expect(usageNames()).toEqual(usageNamesBySql());
    expectTopAsSql();
    const popular = modUsageSql(t.deps.sqlite, clock.now() - HOUR)
      .sort((a, b) => b.server_count - a.server_count || (a.workshop_id < b.workshop_id ? -1 : 1))
      .slice(0, 40)
      .map((r) => r.workshop_id);
    const inCatalog = popular.filter((id) => one(`SELECT 1 AS x FROM mods WHERE workshop_id = ?`, id));
    const notInCatalog = popular.filter((id) => !inCatalog.includes(id));
    expect(inCatalog.length).toBeGreaterThan(4);
    expect(notInCatalog.length).toBeGreaterThan(1);
    const writes: (() => void)[] = [
      () => t.deps.sqlite.query(`UPDATE mods SET name = 'Renamed in the catalog' WHERE workshop_id = ?`).run(inCatalog[0]!),
      () => t.deps.sqlite.query(`UPDATE mods SET size_bytes = size_bytes + 777 WHERE workshop_id = ?`).run(inCatalog[1]!),
      () => t.deps.sqlite.query(`UPDATE mods SET name = '' WHERE workshop_id = ?`).run(inCatalog[2]!),
      () => t.deps.sqlite.query(`DELETE FROM mods WHERE workshop_id = ?`).run(inCatalog[3]!),
      () =>
        t.deps.sqlite
          .query("INSERT INTO mods (workshop_id, name, version, size_bytes, state, created_at, updated_at) VALUES (?, 'Newly crawled', '1.0.0', 4242, 'active', 0, 0)")
          .run(notInCatalog[0]!),
    ];
    for (const [round, write] of writes.entries()) {
      write();
      clock.advance(5 * 60_000);
      fake.setServers(servers(3 + round));
      await scan();
      expect(usageNames()).toEqual(usageNamesBySql());
      expectTopAsSql();
      // The servers whose list changed this scan are sized from the catalog as it is now.
      const changed = q(`SELECT g.sid FROM game_servers g JOIN game_server_mod_events e ON e.server_sid = g.sid WHERE e.time = ?`, clock.now());
      expect(changed.length).toBeGreaterThan(5);
      const stale = new Set(wrongSizes().map((r) => r.sid));
      expect(changed.filter((r) => stale.has(r.sid))).toEqual([]);
    }
    const named = new Map(usageNames().map((u) => [u.workshop_id, u.name]));
    expect(named.get(inCatalog[0]!)).toBe("Renamed in the catalog");
    expect(named.get(notInCatalog[0]!)).toBe("Newly crawled");
    // A scan's new servers too: one appears with the changed mods.
    const n = generateBmServers(121, { seed: 21, modPool: 300 });
    const fresh = n[120]!.attributes as any;
    fresh.details.reforger.mods = [inCatalog[1], inCatalog[3], notInCatalog[0]].map((modId) => ({ modId, name: "", version: "1" }));
    fake.setServers(n);
    clock.advance(5 * 60_000);
    await scan();
    const added = one(`SELECT mods_size_bytes FROM game_servers WHERE mods_count = 3 AND first_seen_at = ?`, clock.now());
    const expected = one(`SELECT sum(size_bytes) AS s FROM mods WHERE workshop_id IN (?, ?, ?)`, inCatalog[1]!, inCatalog[3]!, notInCatalog[0]!).s;
    expect(added.mods_size_bytes).toBe(expected);
  });

  test("what a lookup read in a transaction that rolled back is not kept", () => {
    const sqlite = t.deps.sqlite;
    const id = one(`SELECT workshop_id FROM mods WHERE name != '' ORDER BY workshop_id LIMIT 1`).workshop_id as string;
    const before = one(`SELECT name FROM mods WHERE workshop_id = ?`, id).name as string;
    // Kept: a lookup outside any transaction, adopted.
    const kept = new CatalogLookup(sqlite);
    expect(kept.get([id]).get(id)?.name).toBe(before);
    kept.adopt();
    // A transaction renames the mod (the generation moves), reads it, and rolls back.
    let inside: CatalogLookup | null = null;
    expect(() =>
      sqlite.transaction(() => {
        sqlite.query(`UPDATE mods SET name = 'Rolled back' WHERE workshop_id = ?`).run(id);
        inside = new CatalogLookup(sqlite);
        expect(inside.get([id]).get(id)?.name).toBe("Rolled back");
        throw new Error("write failed");
      })(),
    ).toThrow("write failed");
    inside!.adopt();
    expect(new CatalogLookup(sqlite).get([id]).get(id)?.name).toBe(before);
    // The next write takes the generation the rolled-back one had: its name, not the rolled-back one.
    sqlite.query(`UPDATE mods SET name = 'Committed' WHERE workshop_id = ?`).run(id);
    expect(new CatalogLookup(sqlite).get([id]).get(id)?.name).toBe("Committed");
    // And the usage written by the roll-up's count names it so.
    sqlite.transaction(() => liveRepo.refreshModUsage(sqlite, clock.now()))();
    expect(usageNames()).toEqual(usageNamesBySql());
    expectTopAsSql();
  });
});
