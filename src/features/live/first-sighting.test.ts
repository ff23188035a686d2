// A server's first sighting held in the changelog by reference to its list
// (a7_first_sight_changelog.sql): the API and the view game_server_mod_changes answer the
// changes the full form held (every reported mod `added`, named as reported or else by the
// catalog, with the catalog's size at the time), and keep answering them after every kind of
// write to the list the row refers to, and after the catalog changes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { generateBmServers, generatedModId, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { liveSql } from "../../../test/live-sql";
import { BattleMetricsClient } from "./battlemetrics";
import { runScan } from "./scan";
import { modChangelog } from "./service";
import { liveRepo } from "./repository";

type Reported = { modId: string; name?: string; version?: string };
type Change = [action: string, workshop_id: string, mod_name: string, old_version: string | null, new_version: string | null, size_bytes: number | null];

describe("a first sighting held by reference", () => {
  let t: TestApp;
  let fake: FakeBattleMetrics;
  let clock: TestClock;
  const { q, one } = liveSql(() => t.deps.sqlite);
  const scan = () => runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} }) });
  const reportedOf = (s: any) => s.attributes.details.reforger.mods as Reported[];
  const servers = generateBmServers(40, { seed: 5, modPool: 200 });
  const catalog = new Map<string, { name: string; size: number }>();
  /** What the full form held for each server (by its BattleMetrics id): its reported mods, in order. */
  const truth = new Map<string, Change[]>();
  let firstTime = 0;
  /** The server one of whose mods is reported with an empty name the catalog has a name for. */
  let named = -1;

  /** Every server's first-sighting changes through the view, by sid. */
  const firstByView = () => {
    const out: Record<number, Change[]> = {};
    for (const r of q(
      `SELECT server_sid, action, workshop_id, mod_name, old_version, new_version, size_bytes FROM game_server_mod_changes
       WHERE time = ? ORDER BY id`,
      firstTime,
    ))
      (out[r.server_sid] ??= []).push([r.action, r.workshop_id, r.mod_name, r.old_version, r.new_version, r.size_bytes]);
    return out;
  };
  /** A server's first sighting through the API: its oldest changes (the whole changelog read, oldest first). */
  const firstByApi = (id: string) => {
    const page = modChangelog(t.deps, id, 1, 500);
    return page.items
      .filter((c) => c.timestamp === new Date(firstTime).toISOString())
      .reverse()
      .map((c): Change => [c.action, c.workshop_id, c.mod_name, c.old_version, c.new_version, c.size_bytes]);
  };
  const serverOf = (sourceId: string) => one(`SELECT id, sid FROM game_servers WHERE source_id = ?`, sourceId) as { id: string; sid: number };
  /** Every server that is still stored answers its first sighting as the full form held it. */
  const expectEveryFirstSighting = () => {
    for (const [sourceId, changes] of truth) {
      const s = serverOf(sourceId);
      if (!s) continue;
      expect(firstByApi(s.id)).toEqual(changes);
    }
  };
  const byReference = () => one(`SELECT count(*) AS n FROM game_server_mod_events WHERE first_sizes IS NOT NULL`).n as number;

  beforeAll(async () => {
    // Reported lists with every shape a name and version come in: a mod without a name (the
    // catalog names it, or does not), one reported with an empty name, one without a version.
    // Two thirds of the mods in the catalog, every other one without a name, some of size 0.
    for (let k = 0; k < 200; k++) if (k % 3 !== 0) catalog.set(generatedModId(k), { name: k % 2 ? `Catalog ${k}` : "", size: k % 7 === 0 ? 0 : 1000 + k });
    servers.forEach((s, i) => {
      const mods = reportedOf(s);
      if (mods.length < 2) return;
      if (i % 4 === 1) delete mods[0]!.name;
      if (i % 5 === 2) delete mods[mods.length - 1]!.version;
      if (named < 0 && i % 4 !== 1 && catalog.get(mods[1]!.modId)?.name) {
        mods[1]!.name = "";
        named = i;
      }
    });
    for (const s of servers) {
      truth.set(
        s.id,
        reportedOf(s).map((m) => {
          const cat = catalog.get(m.modId);
          return ["added", m.modId, m.name || cat?.name || "", null, m.version ?? null, cat ? cat.size : null];
        }),
      );
    }
    // That server's row must be written in full.
    expect(named).toBeGreaterThan(0);
    fake = startFakeBattleMetrics({ servers });
    clock = new TestClock(Date.UTC(2026, 10, 28, 12, 0, 0));
    t = await createTestApp({ clock });
    const ins = t.deps.sqlite.query(
      "INSERT INTO mods (workshop_id, name, version, size_bytes, state, created_at, updated_at) VALUES (?, ?, '1.0.0', ?, 'active', 0, 0)",
    );
    for (const [id, c] of catalog) ins.run(id, c.name, c.size);
    firstTime = clock.now();
    await scan();
  });
  afterAll(async () => {
    fake.stop();
    await t.close();
  });

  test("a first sight stores the lists once and answers every server's changes as the full form did", () => {
    const withMods = servers.filter((s) => reportedOf(s).length > 0);
    expect(withMods.length).toBeGreaterThan(30);
    // Every server with mods but `named` by reference, `named` in full; an empty list has no row.
    expect(byReference()).toBe(withMods.length - 1);
    const full = one(`SELECT e.n, e.changes, e.first_sizes FROM game_server_mod_events e WHERE e.server_sid = ?`, serverOf(servers[named]!.id).sid);
    expect(full.first_sizes).toBeNull();
    expect(JSON.parse(full.changes)).toEqual(truth.get(servers[named]!.id));
    expect(full.n).toBe(reportedOf(servers[named]!).length);
    expect(JSON.parse(full.changes)[1][2]).toBe(catalog.get(reportedOf(servers[named]!)[1]!.modId)!.name);
    const empty = servers.find((s) => reportedOf(s).length === 0)!;
    expect(one(`SELECT count(*) AS n FROM game_server_mod_events WHERE server_sid = ?`, serverOf(empty.id).sid).n).toBe(0);
    expectEveryFirstSighting();
    const view = firstByView();
    for (const s of withMods) expect(view[serverOf(s.id).sid]).toEqual(truth.get(s.id)!);
    // The counts the API pages by are the changes'.
    for (const s of withMods) expect(modChangelog(t.deps, serverOf(s.id).id, 1, 1).total).toBe(reportedOf(s).length);
  });

  test("writes to the lists, the catalog and the servers leave every first sighting as it was", async () => {
    const before = firstByView();
    expect(Object.keys(before).length).toBeGreaterThan(30);
    // The catalog renames and resizes every mod: a first sighting keeps the name and size of its time.
    t.deps.sqlite.exec(`UPDATE mods SET name = name || ' (new)', size_bytes = size_bytes + 5`);
    expect(firstByView()).toEqual(before);
    expectEveryFirstSighting();

    // A steady scan in which five servers' lists changed (the scan's upsert of a changed list).
    clock.advance(5 * 60_000);
    const next = structuredClone(servers);
    const changed = [0, 4, 9, 12, 21].filter((i) => i !== named).filter((i) => reportedOf(next[i]!).length > 1);
    for (const i of changed) {
      const mods = reportedOf(next[i]!);
      mods.shift();
      mods[0]!.version = "9.9.9";
    }
    fake.setServers(next);
    const lazy = byReference();
    await scan();
    expect(byReference()).toBe(lazy - changed.length);
    for (const i of changed) {
      const row = one(`SELECT changes, first_sizes, n FROM game_server_mod_events WHERE server_sid = ? AND time = ?`, serverOf(servers[i]!.id).sid, firstTime);
      expect(row.first_sizes).toBeNull();
      expect(JSON.parse(row.changes)).toEqual(truth.get(servers[i]!.id));
      expect(row.n).toBe(truth.get(servers[i]!.id)!.length);
    }
    expect(firstByView()).toEqual(before);
    expectEveryFirstSighting();

    // Raw writes through the views and to the lists' table, a server deleted with its list.
    // Five servers whose first sighting is still by reference.
    const picked = servers.map((_, i) => i).filter((i) => reportedOf(servers[i]!).length > 1 && i !== named && !changed.includes(i)).slice(0, 5);
    const [a, b, c, d, e] = picked.map((i) => serverOf(servers[i]!.id));
    const firstMod = (sid: number) => one(`SELECT workshop_id FROM game_server_mods_by_sid WHERE server_sid = ? ORDER BY position LIMIT 1`, sid).workshop_id;
    const writes: [string, unknown[]][] = [
      [`UPDATE game_server_mods SET name = 'Renamed', version = '2.0' WHERE server_id = ? AND workshop_id = ?`, [a.id, firstMod(a.sid)]],
      [`DELETE FROM game_server_mods_by_sid WHERE server_sid = ? AND workshop_id = ?`, [b.sid, firstMod(b.sid)]],
      [`INSERT INTO game_server_mods (server_id, workshop_id, name, version, position) VALUES (?, '5A000000000F0F0F', 'Added', '1', 999)`, [c.id]],
      [`DELETE FROM game_server_mod_lists WHERE server_sid = ?`, [d.sid]],
      [`DELETE FROM game_servers WHERE id = ?`, [e.id]],
    ];
    for (const [sql, args] of writes) {
      const lazyBefore = byReference();
      t.deps.sqlite.query(sql).run(...(args as any[]));
      expect(byReference()).toBe(lazyBefore - 1);
      expect(firstByView()).toEqual(before);
    }
    expectEveryFirstSighting();
    // The deleted server's changelog rows stay (as before this form) and still read as they were.
    expect(one(`SELECT count(*) AS n FROM game_server_mods_by_sid WHERE server_sid = ?`, e.sid).n).toBe(0);
    expect(before[e.sid]).toEqual(truth.get(servers[picked[4]!]!.id)!);

    // The rows still by reference are those whose list nothing touched.
    const touched = new Set([...changed.map((i) => serverOf(servers[i]!.id).sid), a.sid, b.sid, c.sid, d.sid, e.sid, serverOf(servers[named]!.id).sid]);
    const untouched = Object.keys(before).map(Number).filter((sid) => !touched.has(sid));
    expect(byReference()).toBe(untouched.length);
  });
  test("the scan's own full form and read of the lists are the trigger's and the view's, for lists of any shape", () => {
    const sqlite = t.deps.sqlite;
    // Six stored servers: their lists set by raw SQL (after their own first sightings are out of
    // the way, so no trigger writes), then each given a first sighting by reference.
    const sids = q(`SELECT sid FROM game_servers ORDER BY sid LIMIT 7`).map((r) => r.sid as number);
    const lists = [
      [["5A00000000000A01", "One", "1.0", 0], ["5A00000000000A02", "Two", null, 1], ["5A00000000000A03", "", "3", 2]],
      [["5A00000000000A01", "Ünïcode \"quoted\" \u0001", "1", 0]],
      [["5A00000000000A01", null, 2, 0], ["5A00000000000A03", "Three", "1", 1, "extra"]],
      [["5A00000000000A04", "Four", true, 0], ["5A00000000000A05", ["nested"], { v: 1 }, 1.5]],
      [["5A00000000000A06", "Six", "6", 0], ["5A00000000000A06", "Again", "7", 1]],
      { a: ["5A00000000000A07", "Object", null, 0] },
      [],
    ];
    const sizes = ["[1, null, 3]", "[5000000000]", "[4, 5]", "[6]", "[]", "[7]", "[]"];
    for (const [i, sid] of sids.entries()) {
      sqlite.query(`UPDATE game_server_mod_events SET first_sizes = NULL WHERE server_sid = ?`).run(sid);
      sqlite.query(`INSERT OR REPLACE INTO game_server_mod_lists (server_sid, mods) VALUES (?, ?)`).run(sid, JSON.stringify(lists[i]));
      sqlite.query(`INSERT INTO game_server_mod_events (server_sid, time, n, changes, first_sizes) VALUES (?, 1, 1, '[]', ?)`).run(sid, sizes[i]!);
    }
    // One more, on the first list, whose sizes are not sizes: left to the trigger.
    sqlite.query(`INSERT INTO game_server_mod_events (server_sid, time, n, changes, first_sizes) VALUES (?, 2, 1, '[]', '["x"]')`).run(sids[0]!);
    // The lists as read here are the view's rows, in the view's order, for every shape.
    const stored = liveRepo.currentLists(sqlite, sids);
    expect([...stored.parsed].sort()).toEqual([sids[0], sids[1], sids[4], sids[6]].sort());
    for (const sid of sids) expect({ sid, mods: stored.bySid.get(sid) ?? [] }).toEqual({ sid, mods: liveRepo.currentMods(sqlite, [sid]) });
    // The full form written here is what the view the triggers read gives, row by row.
    const byReference = () => q(`SELECT id, server_sid, first_sizes FROM game_server_mod_events WHERE time IN (1, 2) AND first_sizes IS NOT NULL ORDER BY id`);
    const rows = byReference();
    expect(rows.length).toBe(8);
    const want = new Map(rows.map((r) => [r.id as number, one(`SELECT changes FROM game_server_mod_first_changes WHERE id = ?`, r.id).changes as string]));
    sqlite.transaction(() => liveRepo.firstSightingsInFull(sqlite, stored, sids))();
    const left = byReference();
    // Left by reference: the lists of other shapes, and the row whose sizes are not sizes.
    expect(left.map((r) => r.server_sid).sort()).toEqual([sids[0], sids[2], sids[3], sids[5]].sort());
    for (const r of rows) {
      if (left.some((l) => l.id === r.id)) continue;
      const row = one(`SELECT changes, first_sizes FROM game_server_mod_events WHERE id = ?`, r.id);
      expect(row.first_sizes).toBeNull();
      expect({ id: r.id, changes: JSON.parse(row.changes) }).toEqual({ id: r.id, changes: JSON.parse(want.get(r.id as number)!) });
    }
    // The trigger writes the rest when the lists change, and every row then reads as it did.
    for (const sid of sids) sqlite.query(`UPDATE game_server_mod_lists SET mods = '[]' WHERE server_sid = ?`).run(sid);
    expect(byReference()).toEqual([]);
    for (const r of rows) expect(JSON.parse(one(`SELECT changes FROM game_server_mod_events WHERE id = ?`, r.id).changes)).toEqual(JSON.parse(want.get(r.id as number)!));
  });
});
