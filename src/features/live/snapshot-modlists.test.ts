// The snapshot's per-server mod lists are re-read only when the server's mod-list version moved
// (game_server_mods_ver, a2_server_mods_ver.sql): every write path moves it (the scan's bulk
// insert of a first sight, its small diffs, raw SQL through the game_server_mods view), and a
// build inside a transaction that rolls back never teaches the cache a version the rollback
// hands out again. Each answer is compared with the SQL truth.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { generateBmServers, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { listServersSql } from "../../../test/truth/live-sql";
import { BattleMetricsClient } from "./battlemetrics";
import { listQuery } from "./model";
import { serverBase } from "./entry";
import { runScan } from "./scan";
import { listServers } from "./service";
import { buildSnapshot, peekLiveSnapshot, snapshotWithUsage } from "./snapshot";
import { Database } from "bun:sqlite";
import { liveSql } from "../../../test/live-sql";

describe("the snapshot's mod lists by version", () => {
  let t: TestApp;
  let fake: FakeBattleMetrics;
  let clock: TestClock;
  const { q, one, gen } = liveSql(() => t.deps.sqlite);
  const ver = (sid: number) => one(`SELECT ver FROM game_server_mods_ver WHERE sid = ?`, sid)?.ver as number | undefined;
  /** The servers running `mod` as the snapshot answers, checked against SQLite. */
  const running = (mod: string) => {
    const query = listQuery.parse({ mod_ids: mod, limit: "200" });
    const ids = listServers(t.deps, query).map((e) => e.id);
    expect(ids).toEqual(listServersSql(t.deps, query).map((e) => e.id));
    return ids;
  };

  beforeAll(async () => {
    fake = startFakeBattleMetrics({ servers: generateBmServers(150, { seed: 9, modPool: 300 }) });
    clock = new TestClock(Date.UTC(2026, 10, 24, 12, 0, 0));
    t = await createTestApp({ clock });
    await runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} }) });
  });
  afterAll(async () => {
    fake.stop();
    await t.close();
  });

  test("a first sight's snapshot, built from the new servers' lists the scan held, is the build another connection reads from SQLite", () => {
    const s = peekLiveSnapshot(t.deps.sqlite)!;
    expect(s.rows.length).toBe(150);
    const other = new Database(t.deps.sqlite.filename, { readonly: true });
    try {
      const fromDb = buildSnapshot(other, clock.now());
      expect(fromDb.cut).toBe(s.cut);
      const flat = (m: ReadonlyMap<string, Int32Array>) => [...m].map(([k, v]) => [k, [...v]]);
      expect(s.byMod.size).toBeGreaterThan(100);
      // The same mods, in the same order (each id numbered as a read would), the same servers each.
      expect(flat(s.byMod)).toEqual(flat(fromDb.byMod));
      expect(flat(s.usage.byMod)).toEqual(flat(fromDb.usage.byMod));
      expect(Buffer.compare(s.entryBytes, fromDb.entryBytes)).toBe(0);
      expect([...s.entryAt]).toEqual([...fromDb.entryAt]);
      expect(s.usage.rows.map(serverBase)).toEqual(fromDb.usage.rows.map(serverBase));
    } finally {
      other.close();
    }
  });

  test("a first sight's bulk insert gives every server with mods the generation it moved to", () => {
    // Thousands of mod rows, written as one bulk write (the lists' per-row triggers skipping).
    expect(one(`SELECT count(*) AS n FROM game_server_mods_by_sid`).n).toBeGreaterThanOrEqual(2000);
    const missing = one(`SELECT count(DISTINCT gm.server_sid) AS n FROM game_server_mods_by_sid gm
      LEFT JOIN game_server_mods_ver v ON v.sid = gm.server_sid WHERE v.sid IS NULL`).n;
    expect(missing).toBe(0);
    const vers = q(`SELECT DISTINCT v.ver FROM game_server_mods_ver v JOIN game_server_mods_by_sid gm ON gm.server_sid = v.sid`);
    expect(vers.length).toBe(1);
    expect(vers[0].ver).toBeGreaterThan(0);
    expect(vers[0].ver).toBeLessThanOrEqual(gen());
  });

  test("raw writes through the view move the server's version, and the next build reads its list again", () => {
    const s = one(`SELECT g.id, g.sid FROM game_servers g WHERE g.mods_count > 3 ORDER BY g.sid LIMIT 1`);
    const [a, b] = q(`SELECT workshop_id FROM game_server_mods WHERE server_id = ? ORDER BY position LIMIT 2`, s.id).map((r) => r.workshop_id);
    expect(running(a)).toContain(s.id);
    const NEW = "7E57000000000009";
    const before = ver(s.sid)!;
    t.deps.sqlite.query(`INSERT INTO game_server_mods (server_id, workshop_id, name, position) VALUES (?, ?, '', 900)`).run(s.id, NEW);
    expect(ver(s.sid)).toBe(gen());
    expect(ver(s.sid)).toBeGreaterThan(before);
    expect(running(NEW)).toEqual([s.id]);
    t.deps.sqlite.query(`UPDATE game_server_mods SET workshop_id = '7E5700000000000A' WHERE server_id = ? AND workshop_id = ?`).run(s.id, NEW);
    expect(ver(s.sid)).toBe(gen());
    expect(running(NEW)).toEqual([]);
    expect(running("7E5700000000000A")).toEqual([s.id]);
    t.deps.sqlite.query(`DELETE FROM game_server_mods WHERE server_id = ? AND workshop_id IN (?, '7E5700000000000A')`).run(s.id, b);
    expect(ver(s.sid)).toBe(gen());
    expect(running(b)).not.toContain(s.id);
    expect(running("7E5700000000000A")).toEqual([]);
  });

  test("each mod's servers, held in one flat array per snapshot, are the ones SQLite has; an older snapshot does not hold an id numbered after it", () => {
    running("7E57000000000001"); // the current snapshot, built
    const old = peekLiveSnapshot(t.deps.sqlite)!;
    const s = one(`SELECT g.id FROM game_servers g WHERE g.online = 1 AND g.mods_count > 0 ORDER BY g.sid LIMIT 1`);
    const NEW = "7E5700000000000B";
    t.deps.sqlite.query(`INSERT INTO game_server_mods (server_id, workshop_id, name, position) VALUES (?, ?, '', 901)`).run(s.id, NEW);
    try {
      expect(running(NEW)).toEqual([s.id]);
      const now = peekLiveSnapshot(t.deps.sqlite)!;
      expect(now).not.toBe(old);
      expect(now.byMod.has(NEW)).toBe(true);
      expect([...now.byMod.get(NEW)!]).toEqual([now.byId.get(s.id)!]);
      for (const m of [old.byMod, old.usage.byMod]) {
        expect(m.has(NEW)).toBe(false);
        expect(m.get(NEW)).toBeUndefined();
        expect([...m.keys()]).not.toContain(NEW);
      }
      // Every mod's online rows, as SQLite has them.
      const want = new Map<string, number[]>();
      for (const r of q(`SELECT gm.workshop_id, g.id FROM game_server_mods gm JOIN game_servers g ON g.id = gm.server_id
          WHERE g.online = 1 AND g.last_seen_at >= ? ORDER BY gm.workshop_id`, now.cut)) {
        const l = want.get(r.workshop_id) ?? [];
        l.push(now.byId.get(r.id)!);
        want.set(r.workshop_id, l);
      }
      const got = [...now.byMod].map(([k, v]) => [k, [...v]] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
      expect(got).toEqual([...want].map(([k, v]) => [k, v.sort((a, b) => a - b)] as const));
      expect(now.byMod.size).toBe(want.size);
      expect([...now.byMod.keys()].length).toBe(want.size);
    } finally {
      t.deps.sqlite.query(`DELETE FROM game_server_mods WHERE server_id = ? AND workshop_id = ?`).run(s.id, NEW);
    }
    expect(running(NEW)).toEqual([]);
  });

  test("a build inside a transaction that rolls back leaves the cache as it was: the version handed out again is not trusted", () => {
    const s = one(`SELECT g.id, g.sid FROM game_servers g WHERE g.mods_count > 3 ORDER BY g.sid DESC LIMIT 1`);
    const [a, b] = q(`SELECT workshop_id FROM game_server_mods WHERE server_id = ? ORDER BY position LIMIT 2`, s.id).map((r) => r.workshop_id);
    expect(running(a)).toContain(s.id);
    expect(running(b)).toContain(s.id);
    const g = gen();
    // As a scan does: a write, then the snapshot built inside the transaction; then it fails.
    expect(() =>
      t.deps.sqlite.transaction(() => {
        t.deps.sqlite.query(`DELETE FROM game_server_mods_by_sid WHERE server_sid = ? AND workshop_id = ?`).run(s.sid, a);
        expect(ver(s.sid)).toBe(g + 1);
        snapshotWithUsage(t.deps.sqlite, clock.now(), clock.now());
        throw new Error("commit failed");
      })(),
    ).toThrow("commit failed");
    expect(gen()).toBe(g);
    // Another change to the same server now gets the same version the rolled-back one had.
    t.deps.sqlite.query(`DELETE FROM game_server_mods_by_sid WHERE server_sid = ? AND workshop_id = ?`).run(s.sid, b);
    expect(ver(s.sid)).toBe(g + 1);
    expect(running(a)).toContain(s.id);
    expect(running(b)).not.toContain(s.id);
  });

  test("lists read back by a first build (ids joined by spaces) are SQLite's, also for ids with spaces or empty ones written by raw SQL", () => {
    const s = one(`SELECT g.id, g.sid FROM game_servers g WHERE g.mods_count > 3 ORDER BY g.sid LIMIT 1 OFFSET 5`);
    const odd = ["7E57 00 SPACE", " ", ""];
    odd.forEach((id, k) => t.deps.sqlite.query(`INSERT INTO game_server_mods (server_id, workshop_id, name, position) VALUES (?, ?, '', ?)`).run(s.id, id, 950 + k));
    // A server whose rows all went (a version, no rows: an empty list).
    const e = one(`SELECT g.id, g.sid FROM game_servers g WHERE g.mods_count > 0 ORDER BY g.sid DESC LIMIT 1`);
    t.deps.sqlite.query(`DELETE FROM game_server_mods_by_sid WHERE server_sid = ?`).run(e.sid);
    try {
      // Another connection has no lists cached: its build reads every list of the window.
      const other = new Database(t.deps.sqlite.filename, { readonly: true });
      try {
        const built = buildSnapshot(other, clock.now());
        const perMod = q(
          `SELECT gm.workshop_id, count(*) AS n FROM game_server_mods_by_sid gm JOIN game_servers g ON g.sid = gm.server_sid
           WHERE g.last_seen_at >= ? GROUP BY gm.workshop_id ORDER BY gm.workshop_id`,
          built.cut,
        ).map((r) => [r.workshop_id, r.n]);
        expect([...built.usage.byMod].map(([k, v]) => [k, v.length]).sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))).toEqual(perMod);
        for (const id of odd) expect(built.usage.byMod.get(id)?.length).toBe(1);
        // Its servers are those SQLite gives, by the list answer.
        expect(running(one(`SELECT workshop_id FROM game_server_mods WHERE server_id = ? ORDER BY position LIMIT 1`, s.id).workshop_id)).toContain(s.id);
      } finally {
        other.close();
      }
    } finally {
      t.deps.sqlite.query(`DELETE FROM game_server_mods WHERE server_id = ? AND position >= 950`).run(s.id);
    }
  });

  test("a steady scan with changed lists answers as SQLite", async () => {
    clock.advance(5 * 60_000);
    const servers = generateBmServers(150, { seed: 9, modPool: 300 });
    const removed = new Set<string>();
    servers.forEach((s, i) => {
      const mods = (s.attributes as any).details.reforger.mods as { modId: string }[];
      if (i % 10 === 0 && mods.length > 1) removed.add(mods.splice(0, 1)[0]!.modId);
    });
    expect(removed.size).toBeGreaterThan(5);
    fake.setServers(servers);
    running([...removed][0]!); // the snapshot before the scan, cached
    await runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} }) });
    for (const m of removed) running(m);
    const popular = q(`SELECT workshop_id FROM game_server_mods_by_sid GROUP BY workshop_id ORDER BY count(*) DESC LIMIT 5`);
    for (const m of popular) running(m.workshop_id);
  });
});
