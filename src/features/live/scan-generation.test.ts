// The scan's bulk write keeps every reader exact: its writes go in with the per-row generation
// triggers skipping (a row of live_bulk_write held inside the scan's transaction, which it
// deletes), without any DDL (the schema's version stays), also when the write fails; any later
// write to game_server_mods, by any path, still moves the generation; the mod usage a scan counts
// from its snapshot is the count SQLite makes, for every mod, and live_mod_usage is its top; the
// snapshot's per-server mod-list cache sees raw writes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { generateBmServers, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { listServersSql, modUsageSql, modUsageTopSql } from "../../../test/truth/live-sql";
import { BattleMetricsClient } from "./battlemetrics";
import { listQuery } from "./model";
import { HOUR, liveRepo, TOP_MODS, withBulkWrite } from "./repository";
import { runScan } from "./scan";
import { listServers } from "./service";
import { liveSnapshot, modUsageOf } from "./snapshot";
import { liveSql } from "../../../test/live-sql";

/** The per-row generation triggers a scan's writes would fire (src/db/schema-objects.sql). */
const ROW_TRIGGERS = ["game_servers_gen_ins", "game_servers_gen_upd", "game_server_mod_lists_gen_ins", "game_server_mod_lists_gen_upd", "game_server_stats_raw_gen_ins"];

describe("the scan's bulk insert and the live generation", () => {
  let t: TestApp;
  let fake: FakeBattleMetrics;
  let clock: TestClock;
  const { q, one, gen } = liveSql(() => t.deps.sqlite);
  const triggersSql = () => ROW_TRIGGERS.map((name) => one(`SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = ?`, name)?.sql as string | undefined);
  /** The schema's version: any DDL moves it (every connection then compiles its statements again). */
  const schemaVersion = () => one(`PRAGMA schema_version`).schema_version as number;
  const flags = () => one(`SELECT count(*) AS n FROM live_bulk_write`).n as number;
  const scan = () => runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} }) });
  /** live_mod_usage as a scan left it (the top TOP_MODS), in its order. */
  const usage = () => q(`SELECT workshop_id, name, server_count, player_count, updated_at FROM live_mod_usage ORDER BY server_count DESC, workshop_id`);
  /**
   * The table is the top of SQLite's count as of the scan (modUsageTopSql), and the snapshot the
   * scan published counts every mod (not only the top) as SQLite does (modUsageSql).
   */
  const expectUsageAsSql = (step: string) => {
    const now = clock.now();
    expect({ step, top: usage() }).toEqual({ step, top: modUsageTopSql(t.deps.sqlite).map((u) => ({ ...u, updated_at: now })) });
    const all = modUsageSql(t.deps.sqlite, now - HOUR);
    expect(all.length).toBeGreaterThan(100);
    const s = liveSnapshot(t.deps.sqlite, now);
    const counted = all.map((u) => ({ workshop_id: u.workshop_id, ...modUsageOf(s, u.workshop_id, now - HOUR) }));
    expect({ step, counted }).toEqual({ step, counted: all.map((u) => ({ workshop_id: u.workshop_id, servers: u.server_count, players: u.player_count })) });
  };

  beforeAll(async () => {
    // 150 servers with ~40 mods each: a first sight of ~6,000 mod rows.
    fake = startFakeBattleMetrics({ servers: generateBmServers(150, { seed: 7, modPool: 400 }) });
    clock = new TestClock(Date.UTC(2026, 10, 24, 12, 0, 0));
    t = await createTestApp({ clock });
    // Some of the mods in the catalog (names and sizes joined into the usage and the changelog).
    const ins = t.deps.sqlite.query("INSERT INTO mods (workshop_id, name, version, size_bytes, state, created_at, updated_at) VALUES (?, ?, '1.0.0', ?, 'active', 0, 0)");
    for (let k = 0; k < 400; k += 3) ins.run((0x5a00000000000000n + BigInt(k)).toString(16).toUpperCase(), `Catalog Mod ${k}`, k * 1000);
  });
  afterAll(async () => {
    fake.stop();
    await t.close();
  });

  test("a first sight is one bulk write without DDL: the triggers stay as migrated, no flag is left, the snapshot is of the committed generation", async () => {
    const migrated = triggersSql();
    expect(migrated.every((sql) => sql?.includes("WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write)"))).toBe(true);
    const version = schemaVersion();
    const before = gen();
    await scan();
    expect(one(`SELECT count(*) AS n FROM game_server_mods`).n).toBeGreaterThanOrEqual(2000);
    expect(triggersSql()).toEqual(migrated);
    expect(schemaVersion()).toBe(version);
    expect(flags()).toBe(0);
    expect(gen()).toBeGreaterThan(before);
    expect(liveSnapshot(t.deps.sqlite, clock.now()).gen).toBe(gen());
    // Every new server's changelog is its whole list, added, in position order.
    const s = one(`SELECT id, sid, mods_count FROM game_servers ORDER BY sid LIMIT 1`);
    const mods = q(`SELECT workshop_id FROM game_server_mods WHERE server_id = ? ORDER BY position`, s.id).map((m) => m.workshop_id);
    const changes = q(`SELECT action, workshop_id FROM game_server_mod_changes WHERE server_sid = ? ORDER BY id`, s.sid);
    expect(changes).toEqual(mods.map((workshop_id) => ({ action: "added", workshop_id })));
    expect(s.mods_count).toBe(mods.length);
    // The usage counted from the scan's snapshot is SQLite's count, and so is the roll-up's.
    expectUsageAsSql("first sight");
    const byScan = usage();
    expect(byScan.length).toBe(TOP_MODS);
    t.deps.sqlite.transaction(() => liveRepo.refreshModUsage(t.deps.sqlite, clock.now()))();
    expect(usage()).toEqual(byScan);
  });

  test("after it, any write to game_server_mods (raw SQL, each kind) moves the generation and the next read sees it", () => {
    const server = one(`SELECT id FROM game_servers WHERE online = 1 ORDER BY sid LIMIT 1`).id as string;
    const NEW = "7E57000000000001";
    const mods = (id: string) => listServers(t.deps, listQuery.parse({ mod_ids: id, limit: "100" })).map((e) => e.id);
    expect(mods(NEW)).toEqual([]);
    let g = gen();
    t.deps.sqlite.query(`INSERT INTO game_server_mods (server_id, workshop_id, name, position) VALUES (?, ?, '', 999)`).run(server, NEW);
    expect(gen()).toBeGreaterThan(g);
    expect(mods(NEW)).toEqual([server]);
    g = gen();
    t.deps.sqlite.query(`UPDATE game_server_mods SET version = '9.9' WHERE server_id = ? AND workshop_id = ?`).run(server, NEW);
    expect(gen()).toBeGreaterThan(g);
    g = gen();
    t.deps.sqlite.query(`DELETE FROM game_server_mods WHERE server_id = ? AND workshop_id = ?`).run(server, NEW);
    expect(gen()).toBeGreaterThan(g);
    expect(mods(NEW)).toEqual([]);
    // The snapshot's per-server mod lists (cached by their text) answer as SQLite for a mod on many servers.
    const popular = one(`SELECT workshop_id FROM game_server_mods GROUP BY workshop_id ORDER BY count(*) DESC LIMIT 1`).workshop_id;
    t.deps.sqlite.query(`DELETE FROM game_server_mods WHERE server_id = ? AND workshop_id = ?`).run(server, popular);
    const query = listQuery.parse({ mod_ids: popular, limit: "200" });
    expect(listServers(t.deps, query)).toEqual(listServersSql(t.deps, query));
    expect(listServers(t.deps, query).map((e) => e.id)).not.toContain(server);
  });

  test("a bulk write that fails rolls back whole: no flag is left and the triggers move the generation again", () => {
    const server = one(`SELECT id FROM game_servers ORDER BY sid LIMIT 1`).id as string;
    const rows = q(`SELECT count(*) AS n FROM game_server_mods`)[0].n;
    const version = schemaVersion();
    expect(() =>
      t.deps.sqlite.transaction(() => {
        withBulkWrite(t.deps.sqlite, "test", () => {
          const g = gen();
          t.deps.sqlite.query(`INSERT INTO game_server_mods (server_id, workshop_id, name, position) VALUES (?, '7E57000000000002', '', 1)`).run(server);
          // Inside the bulk write the per-row trigger skipped.
          expect(gen()).toBe(g);
          expect(flags()).toBe(1);
          throw new Error("write failed");
        });
      })(),
    ).toThrow("write failed");
    expect(flags()).toBe(0);
    expect(schemaVersion()).toBe(version);
    expect(q(`SELECT count(*) AS n FROM game_server_mods`)[0].n).toBe(rows);
    const g = gen();
    t.deps.sqlite.query(`INSERT INTO game_server_mods (server_id, workshop_id, name, position) VALUES (?, '7E57000000000003', '', 1)`).run(server);
    expect(gen()).toBe(g + 1);
    t.deps.sqlite.query(`DELETE FROM game_server_mods WHERE workshop_id = '7E57000000000003'`).run();
    // Outside a transaction it refuses rather than leave the flag where other connections see it.
    expect(() => withBulkWrite(t.deps.sqlite, "test", () => {})).toThrow("outside a transaction");
    expect(flags()).toBe(0);
  });

  test("game_servers' per-row triggers skip a scan's writes and a failed bulk write, stay as migrated, and move the generation for every other write", async () => {
    const sqlOf = (name: string) => one(`SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = ?`, name)?.sql as string | undefined;
    const names = ["game_servers_gen_ins", "game_servers_gen_upd"];
    const migrated = names.map(sqlOf);
    expect(migrated[0]).toContain("AFTER INSERT ON game_servers");
    expect(migrated[1]).toContain("AFTER UPDATE ON game_servers");
    const version = schemaVersion();
    // A scan (every server updated) moves the generation, and its snapshot is of the committed one.
    clock.advance(60_000);
    const before = gen();
    await scan();
    expect(names.map(sqlOf)).toEqual(migrated);
    expect(schemaVersion()).toBe(version);
    expect(gen()).toBeGreaterThan(before);
    expect(liveSnapshot(t.deps.sqlite, clock.now()).gen).toBe(gen());
    // A write that fails inside rolls back whole.
    const server = one(`SELECT id, name FROM game_servers ORDER BY sid LIMIT 1`);
    expect(() =>
      t.deps.sqlite.transaction(() => {
        withBulkWrite(t.deps.sqlite, "test", () => {
          t.deps.sqlite.query(`UPDATE game_servers SET name = 'changed' WHERE id = ?`).run(server.id);
          throw new Error("write failed");
        });
      })(),
    ).toThrow("write failed");
    expect(flags()).toBe(0);
    expect(one(`SELECT name FROM game_servers WHERE id = ?`, server.id).name).toBe(server.name);
    // Raw writes after it still move the generation, row by row, and the next list read sees them.
    let g = gen();
    t.deps.sqlite.query(`UPDATE game_servers SET name = 'Renamed by hand' WHERE id = ?`).run(server.id);
    expect(gen()).toBe(g + 1);
    expect(liveSnapshot(t.deps.sqlite, clock.now()).rows.find((r) => r.id === server.id)?.name).toBe("Renamed by hand");
    t.deps.sqlite.query(`UPDATE game_servers SET name = ? WHERE id = ?`).run(server.name, server.id);
    g = gen();
    t.deps.sqlite
      .query(`INSERT INTO game_servers (id, sid, host_address, name, ip, port, last_seen_at, first_seen_at) VALUES ('7e570000-0000-7000-8000-000000000001', 999999, '203.0.113.9:2001', 'x', '203.0.113.9', 2001, 0, 0)`)
      .run();
    expect(gen()).toBe(g + 1);
    t.deps.sqlite.query(`DELETE FROM game_servers WHERE sid = 999999`).run();
  });

  test("the mod usage a scan counts from its snapshot is the count SQLite makes in steady scans", async () => {
    // A second scan 5 minutes later: players moved, every 20th server changed a mod version.
    clock.advance(5 * 60_000);
    const servers = generateBmServers(150, { seed: 7, modPool: 400 });
    servers.forEach((s, i) => {
      const a = s.attributes as any;
      a.players = (a.players + 3) % (a.maxPlayers + 1);
      if (i % 20 === 0 && a.details.reforger.mods.length > 0) a.details.reforger.mods[0].version = "2.0.0";
    });
    fake.setServers(servers);
    for (const step of ["steady", "unchanged"]) {
      await scan();
      expectUsageAsSql(step);
      const byScan = usage();
      t.deps.sqlite.transaction(() => liveRepo.refreshModUsage(t.deps.sqlite, clock.now()))();
      expect({ step, usage: usage() }).toEqual({ step, usage: byScan });
      clock.advance(5 * 60_000);
    }
  });
});
