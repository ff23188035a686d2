// How a first sight's rows are stored keeps every reader exact:
// - the changelog is one row per server and scan (game_server_mod_events); the migration moves
//   the old rows in their order, the view game_server_mod_changes gives the old rows back, and
//   GET /game-servers/:id/mod-changelog pages as the old `ORDER BY id DESC LIMIT OFFSET` did;
// - the per-mod index of the mod rows is gone: the usage's name of a mod the catalog has no
//   name for (usageNames, which names live_mod_usage's top) comes from live_mod_names, kept up
//   to date from the servers whose mod list changed, and is the name the index gave (the named
//   row with the smallest sid) after any kind of write.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadMigrations, openDatabase } from "../../db/client";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { generateBmServers, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { liveSql } from "../../../test/live-sql";
import { modUsageSql, modUsageTopSql } from "../../../test/truth/live-sql";
import { BattleMetricsClient } from "./battlemetrics";
import { HOUR, liveRepo } from "./repository";
import { runScan } from "./scan";
import { modChangelog } from "./service";

describe("the changelog migration", () => {
  test("moves every change, in each server's order, into one row per server and time", () => {
    const all = loadMigrations();
    const at = all.findIndex((m) => m.sql.join("\n").includes("CREATE TABLE game_server_mod_events"));
    expect(at).toBeGreaterThan(0);
    const { db, sqlite } = openDatabase(":memory:");
    (db as any).dialect.migrate(all.slice(0, at), (db as any).session, {});
    const ins = sqlite.query(
      `INSERT INTO game_server_mod_changes (id, server_sid, time, action, workshop_id, mod_name, old_version, new_version, size_bytes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // Two servers' scans interleaved, a time that comes back after another (a run of its own),
    // nulls, names with quotes and other scripts, sizes past 2^32.
    const rows: unknown[][] = [
      [1, 7, 100, "added", "5A00000000000001", "Mod \"one\"", null, "1.0", 5_000_000_000],
      [2, 9, 100, "added", "5A00000000000002", "Мод", null, null, null],
      [3, 7, 100, "added", "5A00000000000003", "", null, "2.0", 0],
      [4, 9, 100, "removed", "5A00000000000004", "x", "1.1", null, 12],
      [5, 7, 200, "updated", "5A00000000000001", "Mod \"one\"", "1.0", "1.1", 5_000_000_001],
      [6, 7, 100, "removed", "5A00000000000003", "", "2.0", null, null],
      [7, 7, 200, "added", "5A00000000000005", "five", null, "5", 5],
    ];
    for (const r of rows) ins.run(...(r as any[]));
    const cols = `server_sid, time, action, workshop_id, mod_name, old_version, new_version, size_bytes`;
    const before = sqlite.query(`SELECT ${cols} FROM game_server_mod_changes ORDER BY server_sid, id`).all();
    (db as any).dialect.migrate(all, (db as any).session, {});
    expect(sqlite.query(`SELECT ${cols} FROM game_server_mod_changes ORDER BY server_sid, id`).all()).toEqual(before);
    // Runs: server 7 at 100 (ids 1, 3), 200 (5), 100 again (6), 200 (7); server 9 at 100 (2, 4).
    expect(sqlite.query(`SELECT id, server_sid, time, n FROM game_server_mod_events ORDER BY id`).all()).toEqual([
      { id: 1, server_sid: 7, time: 100, n: 2 },
      { id: 2, server_sid: 9, time: 100, n: 2 },
      { id: 5, server_sid: 7, time: 200, n: 1 },
      { id: 6, server_sid: 7, time: 100, n: 1 },
      { id: 7, server_sid: 7, time: 200, n: 1 },
    ]);
    // An insert through the view is a row of its own, read back through the view.
    ins.run(null, 9, 300, "added", "5A00000000000006", null, null, "6", 6);
    expect(sqlite.query(`SELECT ${cols} FROM game_server_mod_changes WHERE server_sid = 9 ORDER BY id DESC LIMIT 1`).get()).toEqual({
      server_sid: 9, time: 300, action: "added", workshop_id: "5A00000000000006", mod_name: "", old_version: null, new_version: "6", size_bytes: 6,
    });
    sqlite.close();
  });
});

describe("a first sight's storage against the old readers", () => {
  let t: TestApp;
  let fake: FakeBattleMetrics;
  let clock: TestClock;
  const { q, one } = liveSql(() => t.deps.sqlite);
  const scan = () => runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} }) });
  const refresh = () => t.deps.sqlite.transaction(() => liveRepo.refreshModUsage(t.deps.sqlite, clock.now()))();
  /**
   * Every used mod's name as live_mod_usage gives one (usageNames, which brings live_mod_names up
   * to date first), and the names the per-mod index gave (the named row with the smallest sid:
   * modUsageSql); and after each usage count (`refresh`, a scan) the table is the top of SQLite's.
   */
  const names = () => {
    const all = modUsageSql(t.deps.sqlite, clock.now() - HOUR);
    const got = t.deps.sqlite.transaction(() => liveRepo.usageNames(t.deps.sqlite, all.map((u) => u.workshop_id)))();
    expect(q(`SELECT workshop_id, name, server_count, player_count FROM live_mod_usage ORDER BY server_count DESC, workshop_id`)).toEqual(
      modUsageTopSql(t.deps.sqlite),
    );
    return all.map((u, i) => ({ workshop_id: u.workshop_id, name: got[i] }));
  };
  const namesByIndex = () => modUsageSql(t.deps.sqlite, clock.now() - HOUR).map(({ workshop_id, name }) => ({ workshop_id, name }));
  /**
   * The changelog pages as the old table answered them: `ORDER BY id DESC LIMIT ? OFFSET ?` and
   * count(*) (the server's rows read once newest first through the view, then cut into pages).
   */
  const changelogBySql = (id: string) => {
    const sid = one(`SELECT sid FROM game_servers WHERE id = ?`, id).sid as number;
    const all = q(
      `SELECT time, action, workshop_id, mod_name, old_version, new_version, size_bytes FROM game_server_mod_changes
       WHERE server_sid = ? ORDER BY id DESC`,
      sid,
    ).map(({ time, ...rest }) => ({ timestamp: new Date(time).toISOString(), ...rest }));
    expect(one(`SELECT count(*) AS n FROM game_server_mod_changes WHERE server_sid = ?`, sid).n).toBe(all.length);
    return (page: number, limit: number) => ({
      items: all.slice((page - 1) * limit, page * limit),
      total: all.length,
      page,
      pages: Math.ceil(all.length / limit),
      limit,
    });
  };

  beforeAll(async () => {
    fake = startFakeBattleMetrics({ servers: generateBmServers(120, { seed: 11, modPool: 300 }) });
    clock = new TestClock(Date.UTC(2026, 10, 25, 12, 0, 0));
    t = await createTestApp({ clock });
    // A third of the mods in the catalog, some of them without a name.
    const ins = t.deps.sqlite.query("INSERT INTO mods (workshop_id, name, version, size_bytes, state, created_at, updated_at) VALUES (?, ?, '1.0.0', ?, 'active', 0, 0)");
    for (let k = 0; k < 300; k += 3) ins.run((0x5a00000000000000n + BigInt(k)).toString(16).toUpperCase(), k % 2 ? `Catalog Mod ${k}` : "", k * 1000);
  });
  afterAll(async () => {
    fake.stop();
    await t.close();
  });

  test("usage names after a first sight, steady scans and every kind of raw write are the index's", async () => {
    await scan();
    expect(names().length).toBeGreaterThan(100);
    expect(names()).toEqual(namesByIndex());
    // Servers name mods differently, some not at all: the smallest sid with a name decides.
    t.deps.sqlite.exec(`UPDATE game_server_mods_by_sid SET name = 'Server ' || server_sid || ' calls it ' || workshop_id WHERE server_sid % 3 = 0`);
    t.deps.sqlite.exec(`UPDATE game_server_mods_by_sid SET name = '' WHERE server_sid % 4 = 1`);
    refresh();
    expect(names()).toEqual(namesByIndex());
    // The row a mod's name came from loses its name, then goes; a lower sid gains the mod.
    const catalogNamed = new Set(q(`SELECT workshop_id FROM mods WHERE name != ''`).map((r) => r.workshop_id as string));
    const mod = modUsageSql(t.deps.sqlite, clock.now() - HOUR)
      .filter((u) => !catalogNamed.has(u.workshop_id))
      .sort((a, b) => b.server_count - a.server_count || (a.workshop_id < b.workshop_id ? -1 : 1))[0]!.workshop_id;
    const nameOf = () => names().find((u) => u.workshop_id === mod)?.name;
    const first = () => one(`SELECT server_sid FROM game_server_mods_by_sid WHERE workshop_id = ? AND name != '' ORDER BY server_sid LIMIT 1`, mod);
    let sid = first().server_sid as number;
    t.deps.sqlite.query(`UPDATE game_server_mods_by_sid SET name = '' WHERE server_sid = ? AND workshop_id = ?`).run(sid, mod);
    refresh();
    expect(names()).toEqual(namesByIndex());
    sid = first().server_sid as number;
    t.deps.sqlite.query(`DELETE FROM game_server_mods_by_sid WHERE server_sid = ? AND workshop_id = ?`).run(sid, mod);
    refresh();
    expect(names()).toEqual(namesByIndex());
    const lower = one(`SELECT min(sid) AS sid FROM game_servers WHERE sid NOT IN (SELECT server_sid FROM game_server_mods_by_sid WHERE workshop_id = ?)`, mod).sid as number;
    expect(lower).toBeLessThan(first().server_sid);
    t.deps.sqlite.query(`INSERT INTO game_server_mods_by_sid (server_sid, workshop_id, name, position) VALUES (?, ?, 'Lower', 500)`).run(lower, mod);
    refresh();
    expect(names()).toEqual(namesByIndex());
    expect(nameOf()).toBe("Lower");
    // Through the view, and a server deleted with its rows (the cascade).
    const server = one(`SELECT id FROM game_servers WHERE sid = ?`, lower).id as string;
    t.deps.sqlite.query(`UPDATE game_server_mods SET name = 'Renamed' WHERE server_id = ? AND workshop_id = ?`).run(server, mod);
    refresh();
    expect(nameOf()).toBe("Renamed");
    t.deps.sqlite.query(`DELETE FROM game_servers WHERE id = ?`).run(server);
    refresh();
    expect(names()).toEqual(namesByIndex());
    // Steady scans (players move, every 20th server changes a version) and a scan after them.
    for (let round = 0; round < 2; round++) {
      clock.advance(5 * 60_000);
      const servers = generateBmServers(120, { seed: 11, modPool: 300 });
      servers.forEach((s, i) => {
        const a = s.attributes as any;
        if (i % 20 === round) a.details.reforger.mods = a.details.reforger.mods.slice(1);
      });
      fake.setServers(servers);
      await scan();
      expect(names()).toEqual(namesByIndex());
    }
    // A known server's changed list gains a mod the catalog has no name for, which servers with
    // larger sids name otherwise: the server has the smallest sid of all, so its name is the mod's.
    clock.advance(5 * 60_000);
    const servers = generateBmServers(120, { seed: 11, modPool: 300 });
    const sidOf = (s: (typeof servers)[number]) => {
      const a = s.attributes as any;
      return one(`SELECT sid FROM game_servers WHERE host_address = ?`, `${a.ip}:${a.port}`)?.sid as number | undefined;
    };
    const lowest = servers.filter((s) => sidOf(s) !== undefined).sort((x, y) => sidOf(x)! - sidOf(y)!)[0]!;
    expect(sidOf(lowest)).toBe(one(`SELECT min(sid) AS sid FROM game_servers`).sid);
    const reported = (lowest.attributes as any).details.reforger.mods as { modId: string; name: string; version: string }[];
    const gained = modUsageSql(t.deps.sqlite, clock.now() - HOUR).find(
      (u) => !catalogNamed.has(u.workshop_id) && u.name !== "" && u.server_count >= 2 && !reported.some((m) => m.modId === u.workshop_id),
    )!;
    expect(gained).toBeDefined();
    reported.push({ modId: gained.workshop_id, name: "The smallest sid's name", version: "1.0.0" });
    fake.setServers(servers);
    await scan();
    expect(names()).toEqual(namesByIndex());
    expect(names().find((u) => u.workshop_id === gained.workshop_id)?.name).toBe("The smallest sid's name");
  });

  test("the changelog API pages exactly as the old table's SQL for every server", async () => {
    // A change inserted through the view by raw SQL joins the scans' rows.
    const some = one(`SELECT id, sid FROM game_servers ORDER BY sid LIMIT 1`);
    t.deps.sqlite
      .query(`INSERT INTO game_server_mod_changes (server_sid, time, action, workshop_id, mod_name, old_version, new_version, size_bytes)
        VALUES (?, ?, 'updated', '5A00000000000001', 'Raw', '1', '2', 7)`)
      .run(some.sid, clock.now());
    const ids = q(`SELECT id FROM game_servers ORDER BY sid`).map((r) => r.id as string);
    expect(ids.length).toBeGreaterThan(100);
    let compared = 0;
    ids.forEach((id, i) => {
      const bySql = changelogBySql(id);
      for (const limit of i % 10 === 0 ? [1, 3, 20, 100] : [3, 20, 100]) {
        const pages = Math.max(1, bySql(1, limit).pages);
        for (let page = 1; page <= pages + 1; page++) {
          expect(modChangelog(t.deps, id, page, limit)).toEqual(bySql(page, limit));
          compared++;
        }
      }
    });
    expect(compared).toBeGreaterThan(1000);
    const r = await t.req("GET", `/api/v1/game-servers/${some.id}/mod-changelog?limit=2`);
    expect(r.body).toEqual(changelogBySql(some.id)(1, 2));
    expect(r.body.items[0]).toMatchObject({ action: "updated", mod_name: "Raw", size_bytes: 7 });
  }, 30_000);
});
