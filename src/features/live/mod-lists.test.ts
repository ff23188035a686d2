// A server's mod list is one row (a6_server_mod_lists.sql):
// - the migration packs the old per-mod rows of game_server_mods_by_sid into game_server_mod_lists
//   (one JSON array a server, by position) and every row reads back the same through the views
//   game_server_mods_by_sid and game_server_mods, the mod-list versions untouched;
// - a scan stores each server's list as reported (order, versions, names), a changed list whole;
// - raw SQL through either view (insert, update of each column, a move to another server, delete)
//   does to the rows what it did to the table, refuses what the table refused, and moves the
//   generation and the server's mod-list version.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadMigrations, openDatabase } from "../../db/client";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { generateBmServers, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { liveSql } from "../../../test/live-sql";
import { BattleMetricsClient, readServer } from "./battlemetrics";
import { runScan } from "./scan";
import { listIds, listName, UNREAD } from "./repository";

const COLS = `server_sid, workshop_id, name, version, position, typeof(version) AS tv, typeof(position) AS tp`;

function insertServer(sqlite: ReturnType<typeof openDatabase>["sqlite"], sid: number) {
  sqlite
    .query(
      `INSERT INTO game_servers (id, sid, host_address, name, ip, port, player_count, player_count_limit, queue_players_count,
         scenario_name, game_version, password_protected, official, tags, search_text, mods_count, mods_size_bytes, online,
         avg_players_7d, first_seen_at, last_seen_at)
       VALUES (?, ?, ?, 'S', '10.0.0.1', ?, 0, 64, 0, 'Conflict', '1.2.0', 0, 0, ',', 's', 0, 0, 1, 0, 0, 0)`,
    )
    .run(`0190aaaa-0000-7000-8000-${String(sid).padStart(12, "0")}`, sid, `10.0.0.1:${2000 + sid}`, 2000 + sid);
}

describe("the mod-list migration", () => {
  test("packs every server's rows into one list row; the views give back the same rows, the versions are untouched", () => {
    const all = loadMigrations();
    const at = all.findIndex((m) => m.sql.join("\n").includes("CREATE TABLE game_server_mod_lists"));
    expect(at).toBeGreaterThan(0);
    const { db, sqlite } = openDatabase(":memory:");
    (db as any).dialect.migrate(all.slice(0, at), (db as any).session, {});
    expect((sqlite.query(`SELECT type FROM sqlite_schema WHERE name = 'game_server_mods_by_sid'`).get() as any).type).toBe("table");
    for (const sid of [3, 5, 8]) insertServer(sqlite, sid);
    const ins = sqlite.query(`INSERT INTO game_server_mods_by_sid (server_sid, workshop_id, name, version, position) VALUES (?, ?, ?, ?, ?)`);
    // Positions out of workshop id order, a gap, nulls, names with quotes, other scripts and
    // separators, one server with one mod, one with none.
    const rows: unknown[][] = [
      [3, "5A00000000000009", 'Mod "nine"', "1.0", 0],
      [3, "5A00000000000001", "Мод один", null, 1],
      [3, "5A00000000000005", "", "2.0.1", 4],
      [3, "5A00000000000003", "a,b] [c", "x y", 2],
      [5, "5A00000000000001", "One", "1.1", 0],
    ];
    for (const r of rows) ins.run(...(r as any[]));
    const byRows = () => sqlite.query(`SELECT ${COLS} FROM game_server_mods_by_sid ORDER BY server_sid, workshop_id`).all();
    const byView = () => sqlite.query(`SELECT server_id, workshop_id, name, version, position FROM game_server_mods ORDER BY server_id, workshop_id`).all();
    const vers = () => sqlite.query(`SELECT sid, ver FROM game_server_mods_ver ORDER BY sid`).all();
    const gen = () => (sqlite.query(`SELECT value FROM live_state WHERE key = 'servers_gen'`).get() as any).value;
    const [beforeRows, beforeView, beforeVers, beforeGen] = [byRows(), byView(), vers(), gen()];
    expect(beforeRows.length).toBe(5);
    (db as any).dialect.migrate(all, (db as any).session, {});
    expect((sqlite.query(`SELECT type FROM sqlite_schema WHERE name = 'game_server_mods_by_sid'`).get() as any).type).toBe("view");
    expect(byRows()).toEqual(beforeRows);
    expect(byView()).toEqual(beforeView);
    expect(vers()).toEqual(beforeVers);
    expect(gen()).toBe(beforeGen);
    // One row a server with mods, the list by position.
    expect(sqlite.query(`SELECT server_sid, mods FROM game_server_mod_lists ORDER BY server_sid`).all().map((r: any) => [r.server_sid, JSON.parse(r.mods)])).toEqual([
      [3, [["5A00000000000009", 'Mod "nine"', "1.0", 0], ["5A00000000000001", "Мод один", null, 1], ["5A00000000000003", "a,b] [c", "x y", 2], ["5A00000000000005", "", "2.0.1", 4]]],
      [5, [["5A00000000000001", "One", "1.1", 0]]],
    ]);
    // The generation triggers are on the lists' table, named after it.
    const trig = sqlite.query(`SELECT name, tbl_name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'game_server_mod_lists_gen_%' ORDER BY name`).all();
    expect(trig).toEqual(["del", "ins", "upd"].map((k) => ({ name: `game_server_mod_lists_gen_${k}`, tbl_name: "game_server_mod_lists" })));
    // A server deleted takes its list with it.
    sqlite.query(`DELETE FROM game_servers WHERE sid = 5`).run();
    expect(sqlite.query(`SELECT count(*) AS n FROM game_server_mods_by_sid WHERE server_sid = 5`).get()).toEqual({ n: 0 });
    expect(gen()).toBeGreaterThan(beforeGen);
    sqlite.close();
  });
});

describe("raw SQL through the views", () => {
  const open = () => {
    const { db, sqlite } = openDatabase(":memory:");
    (db as any).dialect.migrate(loadMigrations(), (db as any).session, {});
    for (const sid of [1, 2]) insertServer(sqlite, sid);
    return sqlite;
  };

  test("insert, update of each column, a move to another server and delete act on the rows as on the old table", () => {
    const sqlite = open();
    const rows = (sid: number) => sqlite.query(`SELECT ${COLS} FROM game_server_mods_by_sid WHERE server_sid = ? ORDER BY workshop_id`).all(sid);
    const gen = () => (sqlite.query(`SELECT value FROM live_state WHERE key = 'servers_gen'`).get() as any).value as number;
    const ver = (sid: number) => (sqlite.query(`SELECT ver FROM game_server_mods_ver WHERE sid = ?`).get(sid) as any)?.ver as number | undefined;
    const ins = sqlite.query(`INSERT INTO game_server_mods_by_sid (server_sid, workshop_id, name, version, position) VALUES (?, ?, ?, ?, ?)`);
    let g = gen();
    ins.run(1, "5A000000000000B0", "b", "1", 0);
    expect(gen()).toBe(g + 1);
    expect(ver(1)).toBe(gen());
    ins.run(1, "5A000000000000A0", "a", null, 1);
    // Without a name (the old column's default), through the UUID view.
    sqlite.query(`INSERT INTO game_server_mods (server_id, workshop_id, position) VALUES ((SELECT id FROM game_servers WHERE sid = 1), '5A000000000000C0', 2)`).run();
    expect(rows(1)).toEqual([
      { server_sid: 1, workshop_id: "5A000000000000A0", name: "a", version: null, position: 1, tv: "null", tp: "integer" },
      { server_sid: 1, workshop_id: "5A000000000000B0", name: "b", version: "1", position: 0, tv: "text", tp: "integer" },
      { server_sid: 1, workshop_id: "5A000000000000C0", name: "", version: null, position: 2, tv: "null", tp: "integer" },
    ]);
    // What the table refused, refused.
    expect(() => ins.run(1, "5A000000000000A0", "again", null, 5)).toThrow("UNIQUE constraint failed");
    expect(() => ins.run(null, "5A000000000000D0", "", null, 0)).toThrow("NOT NULL constraint failed");
    expect(() => ins.run(99, "5A000000000000D0", "", null, 0)).toThrow("FOREIGN KEY constraint failed");
    expect(() => sqlite.query(`UPDATE game_server_mods_by_sid SET workshop_id = '5A000000000000A0' WHERE server_sid = 1 AND workshop_id = '5A000000000000B0'`).run()).toThrow(
      "UNIQUE constraint failed",
    );
    expect(rows(1).length).toBe(3);
    // Each column in place; one statement over many rows.
    g = gen();
    sqlite.query(`UPDATE game_server_mods SET version = '2', name = 'B' WHERE workshop_id = '5A000000000000B0'`).run();
    expect(gen()).toBeGreaterThan(g);
    sqlite.query(`UPDATE game_server_mods_by_sid SET position = position + 10 WHERE server_sid = 1`).run();
    sqlite.query(`UPDATE game_server_mods_by_sid SET workshop_id = '5A000000000000E0' WHERE server_sid = 1 AND workshop_id = '5A000000000000C0'`).run();
    expect(rows(1).map((r: any) => [r.workshop_id, r.name, r.version, r.position])).toEqual([
      ["5A000000000000A0", "a", null, 11],
      ["5A000000000000B0", "B", "2", 10],
      ["5A000000000000E0", "", null, 12],
    ]);
    // To another server: out of one list, into the other; both versions move.
    g = gen();
    sqlite.query(`UPDATE game_server_mods_by_sid SET server_sid = 2 WHERE server_sid = 1 AND workshop_id = '5A000000000000A0'`).run();
    expect(gen()).toBeGreaterThan(g);
    expect(ver(1)).toBeGreaterThan(g);
    expect(ver(2)).toBeGreaterThan(g);
    expect(rows(1).map((r: any) => r.workshop_id)).toEqual(["5A000000000000B0", "5A000000000000E0"]);
    expect(rows(2)).toEqual([{ server_sid: 2, workshop_id: "5A000000000000A0", name: "a", version: null, position: 11, tv: "null", tp: "integer" }]);
    // Delete: the last mod of a list takes its row.
    g = gen();
    sqlite.query(`DELETE FROM game_server_mods WHERE workshop_id = '5A000000000000A0'`).run();
    expect(gen()).toBeGreaterThan(g);
    expect(ver(2)).toBeGreaterThan(g);
    expect(sqlite.query(`SELECT server_sid FROM game_server_mod_lists ORDER BY server_sid`).values()).toEqual([[1]]);
    sqlite.query(`DELETE FROM game_server_mods_by_sid WHERE server_sid = 1`).run();
    expect(sqlite.query(`SELECT count(*) AS n FROM game_server_mod_lists`).get()).toEqual({ n: 0 });
    // Values stored as the old columns' text affinity stored them.
    ins.run(2, 1234, 56, 7, 0);
    expect(rows(2)).toEqual([{ server_sid: 2, workshop_id: "1234", name: "56", version: "7", position: 0, tv: "text", tp: "integer" }]);
    expect(listIds((sqlite.query(`SELECT mods FROM game_server_mod_lists WHERE server_sid = 2`).get() as any).mods)).toEqual(["1234"]);
    sqlite.close();
  });
});

describe("listIds (the snapshot's read of a list row)", () => {
  test("gives the ids JSON.parse gives, in order, for every shape of names, versions and ids", () => {
    const lists: unknown[][][] = [
      [],
      [["5A00000000000001", "", null, 0]],
      [
        ["5A00000000000002", 'name with ["brackets"] and \\ backslash', "1.0", 0],
        ["5A00000000000003", "Мод ⚙ \u0000 [\"x\"]", "v[\"", 7],
        ["5A00000000000004", "a],[\"b", null, 2],
      ],
      // Ids of raw SQL: a quote, a backslash, a space, empty.
      [["ID \"quoted\"", "", null, 0], ["back\\slash", "n", "1", 1], ["with space", "", null, 2], ["", "", null, 3]],
    ];
    for (const l of lists) expect(listIds(JSON.stringify(l))).toEqual(l.map((e) => e[0] as string));
    // As SQLite writes them (json_array, json_group_array), and a row of another shape.
    const { sqlite } = openDatabase(":memory:");
    const text = (sqlite.query(`SELECT json_group_array(json_array(v, 'n "q" [\"', NULL, 1)) AS t FROM (SELECT '5A0000000000000A' AS v UNION ALL SELECT 'x"y')`).get() as any).t;
    expect(listIds(text)).toEqual(["5A0000000000000A", 'x"y']);
    expect(listIds(`[[123,"n",null,0],["5A00000000000001","",null,1]]`)).toEqual(["123", "5A00000000000001"]);
    sqlite.close();
  });
});

describe("listName (the usage's read of an unnamed mod's name from a list row)", () => {
  /** What parsing the text whole gives: the name of the id's last entry (writeModUsage's parse). */
  const parsed = (text: string, id: string) => {
    const named = new Map<string, unknown>();
    for (const e of JSON.parse(text) as unknown[][]) named.set(String(e[0]), e[1]);
    return named.get(id);
  };
  const lists: unknown[][][] = [
    [["5A00000000000001", "", null, 0]],
    [
      ["5A00000000000002", 'name with ["brackets"] and \\ backslash', "1.0", 0],
      ["5A00000000000003", "Мод ⚙ [x] {y} ,z:", "v[\"", 7],
      ["5A00000000000004", "a],[\"b", null, 2],
      ["5A00000000000005", "5A00000000000006", null, 3],
      ["5A00000000000006", "plain", "2.0", 4],
      ["5A00000000000007", null, "1", 5],
      ["5A00000000000008", "[\"5A00000000000009\",\"fake\"]", "1", 6],
      ["5A00000000000009", "real", "1", 7],
      ["5A0000000000000A", "first", null, 8],
      ["5A0000000000000A", "last", null, 9],
      ["5A0000000000000B", "n \u0001 \n", null, 10],
    ],
    // Ids of raw SQL: a quote, a backslash, a space, empty, a leading bracket.
    [["ID \"quoted\"", "q", null, 0], ["back\\slash", "n", "1", 1], ["with space", "s", null, 2], ["", "e", null, 3], ["[x", "b", null, 4]],
  ];
  const ids = [...new Set(lists.flat().map((e) => e[0] as string)), "5A000000000000FF", "5A0000000000000", "0000000000000001"];

  test("gives the name JSON.parse gives wherever it reads one, for every shape of names, versions and ids", () => {
    const { sqlite } = openDatabase(":memory:");
    // As SQLite writes them too (json_array, json_group_array).
    const sqliteText = (sqlite.query(`SELECT json_group_array(json_array(v, 'n "q" [\"', NULL, 1)) AS t FROM (SELECT '5A0000000000000A' AS v UNION ALL SELECT 'x"y' UNION ALL SELECT '5A0000000000000C')`).get() as any).t;
    sqlite.close();
    const texts = [...lists.map((l) => JSON.stringify(l)), sqliteText, `[[123,"n",null,0],["5A00000000000001","m",null,1]]`, `[["5A00000000000001","m",null,0],[1,"x",null,1]]`, `[[ "5A00000000000001", "m", null, 0]]`];
    let read = 0;
    for (const text of texts) {
      for (const id of ids) {
        const got = listName(text, id);
        if (got === UNREAD) continue;
        read++;
        expect([text, id, got]).toEqual([text, id, parsed(text, id) as string]);
      }
    }
    expect(read).toBeGreaterThanOrEqual(8);
  });

  test("reads the plain cases and leaves the rest to a parse", () => {
    const text = JSON.stringify(lists[1]);
    expect(listName(text, "5A00000000000003")).toBe("Мод ⚙ [x] {y} ,z:");
    expect(listName(text, "5A00000000000006")).toBe("plain"); // not the name "5A00000000000006" before it
    expect(listName(text, "5A00000000000009")).toBe("real"); // not the escaped text in a name
    expect(listName(text, "5A00000000000002")).toBe(UNREAD); // an escape in the name
    expect(listName(text, "5A00000000000007")).toBe(UNREAD); // a null name
    expect(listName(text, "5A0000000000000A")).toBe("last"); // the id twice: its last entry, as a parse keeps
    expect(listName(text, "5A000000000000FF")).toBe(UNREAD); // no entry
    expect(listName(JSON.stringify(lists[2]), "ID \"quoted\"")).toBe(UNREAD);
    expect(listName(JSON.stringify(lists[2]), "[x")).toBe(UNREAD);
    expect(listName(JSON.stringify(lists[2]), "with space")).toBe("s");
    expect(listName(`[]`, "5A00000000000001")).toBe(UNREAD);
  });
});

describe("a scan's lists", () => {
  let t: TestApp;
  let fake: FakeBattleMetrics;
  const clock = new TestClock(Date.UTC(2026, 10, 27, 12, 0, 0));
  const { q } = liveSql(() => t.deps.sqlite);
  const scan = () => runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} }) });
  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(async () => {
    fake?.stop();
    await t.close();
  });

  /** Every server's stored list against what the fake reports: ids, names, versions, in order. */
  function expectStoredAsReported(servers: ReturnType<typeof generateBmServers>) {
    const stored = new Map(
      q(`SELECT g.host_address, l.mods FROM game_server_mod_lists l JOIN game_servers g ON g.sid = l.server_sid`).map((r) => [r.host_address, JSON.parse(r.mods)]),
    );
    let checked = 0;
    for (const raw of servers) {
      const s = readServer(JSON.parse(JSON.stringify(raw)))!;
      const want = s.mods.map((m, k) => [m.workshop_id, m.name ?? "", m.version ?? null, k]);
      if (want.length === 0) expect(stored.has(s.host_address)).toBe(false);
      else {
        expect(stored.get(s.host_address)).toEqual(want);
        // The view, by position, gives the same.
        const viewed = q(
          `SELECT gm.workshop_id, gm.name, gm.version, gm.position FROM game_server_mods gm JOIN game_servers g ON g.id = gm.server_id
           WHERE g.host_address = ? ORDER BY gm.position`,
          s.host_address,
        ).map((r) => [r.workshop_id, r.name, r.version, r.position]);
        expect(viewed).toEqual(want);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  }

  test("a first sight stores each list as reported; a changed list is stored whole; an unchanged one is not written", async () => {
    const servers = generateBmServers(80, { seed: 11, modPool: 300 });
    // Names with quotes and other scripts, a mod without a version.
    const mods0 = (servers[1]!.attributes as any).details.reforger.mods as { modId: string; name: string; version?: string }[];
    mods0[0]!.name = 'Quote "q" \\ and Ünïcode';
    delete mods0[1]!.version;
    fake = startFakeBattleMetrics({ servers });
    await scan();
    // The bare id was new: no version known.
    expectStoredAsReported(servers);
    const gen0 = q(`SELECT sid, ver FROM game_server_mods_ver ORDER BY sid`);
    // Steady: one server reorders, one changes a version, one drops a mod, one empties its list.
    fake.stop();
    const next = structuredClone(servers);
    const modsOf = (i: number) => (next[i]!.attributes as any).details.reforger.mods as { modId: string; name: string; version: string }[];
    const withMods = next.map((_, i) => i).filter((i) => modsOf(i).length > 3);
    const [a, b, c, d] = withMods;
    modsOf(a!).reverse();
    modsOf(b!)[2]!.version = "9.9.9";
    modsOf(c!).splice(1, 1);
    (next[d!]!.attributes as any).details.reforger.mods = [];
    fake = startFakeBattleMetrics({ servers: next });
    clock.advance(5 * 60_000);
    await scan();
    expectStoredAsReported(next);
    const sidOf = (i: number) => q(`SELECT sid FROM game_servers WHERE source_id = ?`, (next[i]!.attributes as any).id)[0].sid as number;
    const before = new Map(gen0.map((r) => [r.sid, r.ver]));
    const after = new Map(q(`SELECT sid, ver FROM game_server_mods_ver ORDER BY sid`).map((r) => [r.sid, r.ver]));
    const changedSids = [a, b, c, d].map((i) => sidOf(i!));
    for (const [sid, v] of after) {
      if (changedSids.includes(sid)) expect(v).toBeGreaterThan(before.get(sid)!);
      else expect(v).toBe(before.get(sid)!);
    }
  });
});
