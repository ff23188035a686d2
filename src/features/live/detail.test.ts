// An online server's detail copied from kept parts (detail/), against SQLite's answer
// (test/truth/live-sql.ts serverDetailSql): every kind of mod row (named or not, versions scanned
// or not, positions negative, past 32 bits or fractional, over KEEP_FROM_BYTES of items, none),
// what is kept per list, per catalog generation and per snapshot, the answer budget, the warm, and
// every character SQLite's JSON writes.
import { serverSearchText } from "./search";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { until } from "../../../test/until";
import { serverDetailJson } from "./service";
import { serverDetailSql } from "../../../test/truth/live-sql";
import { liveSnapshot as snap } from "./snapshot";
import { CATALOG_BYTES, detailCacheStats, KEEP_FROM_BYTES, setCatalogPartsCap, startDetailWarmer, warmDetails } from "./detail";
import { answerBudget } from "../../shared/bytes-lru";
const liveSnapshot = (deps: { sqlite: any; clock: { now(): number } }) => snap(deps.sqlite, deps.clock.now());

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe("a server's detail copied from kept parts", () => {
  // Mods named by the servers or not, versions scanned or not, positions negative, past 32 bits or
  // fractional, one server with over KEEP_FROM_BYTES of items, one with no mods, one offline.
  let t: TestApp;
  let clock: TestClock;
  const M = ["A000000000000001", "A000000000000002", "A000000000000003", "A000000000000004", "A0000000000000FF"];
  const BIG = "B000000000000001";
  const sid = (n: number) => `0190aaaa-0000-7000-8000-${String(n).padStart(12, "0")}`;
  const SERVERS: { n: number; online: number; mods: [string, string, string | null, number][] }[] = [
    { n: 1, online: 1, mods: [[M[0]!, "", "1.0.0", 0], [M[1]!, "Reported \"name\" ✓", "0.9.0", 1], [M[4]!, "", null, 2]] },
    { n: 2, online: 1, mods: [[M[0]!, "Other name", "1.0.0", 5], [M[1]!, "", "1.0.0", 2], [M[2]!, "", "2.0", -3], [M[3]!, "Ωmega", "", 7]] },
    { n: 3, online: 1, mods: [[M[0]!, "", "1.0.0", 0], [M[1]!, "", "1.0.0", 3_000_000_000]] },
    { n: 4, online: 1, mods: [[M[0]!, "", "1.0.0", 0], [M[2]!, "", "1.0.0", 1.5]] },
    { n: 5, online: 1, mods: [[BIG, "", "1.0.0", 0], [M[0]!, "", "1.0.0", 1]] },
    { n: 6, online: 1, mods: [] },
    { n: 7, online: 0, mods: [[M[0]!, "", "1.0.0", 0]] },
    { n: 8, online: 1, mods: [[M[1]!, "Reported \"name\" ✓", "0.9.0", 0], [M[0]!, "", "1.0.0", 1]] },
  ];
  const ids = SERVERS.map((x) => sid(x.n));

  beforeAll(async () => {
    clock = new TestClock(NOW);
    t = await createTestApp({ clock });
    const s = t.deps.sqlite;
    M.slice(0, 4).forEach((m, i) =>
      s.query(`INSERT INTO mods (workshop_id, name, version, size_bytes, image_url, state) VALUES (?, ?, '1.0.0', ?, ?, 'active')`).run(m, `Mod ${i}`, 1000 * i, i % 2 ? null : `https://x/${i}.png`),
    );
    s.query(`INSERT INTO mods (workshop_id, name, version, size_bytes, state) VALUES (?, 'Big', '1.0.0', 5, 'active')`).run(BIG);
    const item = s.query(`INSERT INTO mod_items (workshop_id, version, item_key, item_type, name, path, guid) VALUES (?, ?, ?, ?, ?, ?, ?)`);
    for (const [i, m] of M.slice(0, 4).entries()) for (let k = 0; k < 3; k++) item.run(m, "1.0.0", `k${k}`, k % 2 ? "weapon" : "vehicle", `Item ${i}.${k}`, `Prefabs/${i}/${k}.et`, k ? `${i}${k}`.padStart(16, "0") : null);
    // Mod 1's 0.9.0 was scanned too: servers reporting it list its items, the others the catalog's.
    for (let k = 0; k < 2; k++) item.run(M[1], "0.9.0", `old${k}`, "gear", `Old ${k}`, `Prefabs/old/${k}.et`, null);
    s.query(`INSERT INTO mod_item_scans (workshop_id, version, item_count, scanned_at) VALUES (?, '0.9.0', 2, 0), (?, '1.0.0', 3, 0)`).run(M[1], M[1]);
    for (let k = 0; k < 700; k++) item.run(BIG, "1.0.0", `b${k}`, "weapon", `Big item ${k}`, `Prefabs/Big/Weapons/Rifles/Item_${k}_With_A_Long_Name.et`, String(k).padStart(16, "0"));
    for (const x of SERVERS) {
      s.query(
        `INSERT INTO game_servers (id, sid, host_address, name, ip, port, player_count, player_count_limit, scenario_name, game_version,
           tags, search_text, mods_count, online, first_seen_at, last_seen_at)
         VALUES (?, ?, ?, ?, '10.1.0.1', ?, 3, 64, 'Conflict', '1.2.0', ',pc,', ?, ?, ?, ?, ?)`,
      ).run(sid(x.n), 100 + x.n, `10.1.0.1:${2000 + x.n}`, `Server ${x.n}`, 2000 + x.n, serverSearchText(`Server ${x.n}`, "Conflict"), x.mods.length, x.online, NOW - 86_400_000, x.online ? NOW : NOW - 86_400_000);
      for (const [w, name, version, position] of x.mods) {
        s.query(`INSERT INTO game_server_mods (server_id, workshop_id, name, version, position) VALUES (?, ?, ?, ?, ?)`).run(sid(x.n), w, name, version, position);
      }
    }
  });
  afterAll(() => t.close());

  const same = () => {
    for (const id of ids) {
      const text = serverDetailJson(t.deps, id);
      expect({ id, text }).toEqual({ id, text: JSON.stringify(serverDetailSql(t.deps, id)) });
    }
  };

  test("every kind of mod row answers SQLite's text; lists, parts and big answers are kept", () => {
    same();
    same();
    const st = detailCacheStats(t.deps.sqlite, liveSnapshot(t.deps));
    // Servers 1, 2, 5 and 8 from kept lists, 3 and 4 kept as answered by the SQL path (6 has no mod rows, 7 is offline).
    expect(st.lists).toBe(6);
    // Only server 5's answer is big enough to be kept whole.
    expect(serverDetailJson(t.deps, sid(5)).length).toBeGreaterThanOrEqual(KEEP_FROM_BYTES);
    expect(st.servers).toBe(1);
    expect(st.bytes).toBeGreaterThanOrEqual(KEEP_FROM_BYTES);
    // Mod 1 reported as "Reported…"/0.9.0 by servers 1 and 8 is one variant: one part, shared.
    expect(st.parts).toBeGreaterThanOrEqual(8);
    expect(st.mods).toBe(6);
    // The old version's items under the reported name, the catalog's elsewhere.
    const d1 = JSON.parse(serverDetailJson(t.deps, sid(1)));
    expect(d1.mod_items.filter((i: any) => i.workshop_id === M[1]).map((i: any) => [i.version, i.mod_name])).toEqual([
      ["0.9.0", 'Reported "name" ✓'],
      ["0.9.0", 'Reported "name" ✓'],
    ]);
    expect(JSON.parse(serverDetailJson(t.deps, sid(2))).mods.map((m: any) => m.position)).toEqual([-3, 2, 5, 7]);
  });

  test("a new snapshot keeps the lists of servers whose mods did not change, and answers the new server fields", () => {
    same();
    const before = liveSnapshot(t.deps);
    t.deps.sqlite.query(`UPDATE game_servers SET name = 'Renamed', player_count = 9 WHERE id = ?`).run(sid(1));
    const after = liveSnapshot(t.deps);
    expect(after).not.toBe(before);
    expect(after.modLists.get(101)).toBe(before.modLists.get(101));
    expect(JSON.parse(serverDetailJson(t.deps, sid(1))).server.name).toBe("Renamed");
    same();
    expect(detailCacheStats(t.deps.sqlite, after).lists).toBe(6);
    // A write to one server's mod rows: a new list for it alone.
    t.deps.sqlite.query(`UPDATE game_server_mods SET name = 'Now named' WHERE server_id = ? AND workshop_id = ?`).run(sid(2), M[2]);
    const third = liveSnapshot(t.deps);
    expect(third.modLists.get(102)).not.toBe(after.modLists.get(102));
    expect(third.modLists.get(101)).toBe(after.modLists.get(101));
    same();
    expect(JSON.parse(serverDetailJson(t.deps, sid(2))).mods[0].name).toBe("Now named");
  });

  test("the catalog's parts give way to the answer budget, and answers stay SQLite's", () => {
    same();
    const max = answerBudget.max;
    try {
      answerBudget.setMax(1);
      const st = detailCacheStats(t.deps.sqlite, liveSnapshot(t.deps));
      expect(st.mods).toBe(0);
      expect(st.parts).toBe(0);
      expect(st.servers).toBe(0);
      same();
    } finally {
      answerBudget.setMax(max);
    }
    same();
    expect(detailCacheStats(t.deps.sqlite, liveSnapshot(t.deps)).parts).toBeGreaterThan(0);
  });

  test("warming ahead prepares every online server's list and parts without a request, in slices, again after a catalog write", () => {
    const s = t.deps.sqlite;
    // A catalog write: every part is of the old generation; a mod-row write: a new snapshot.
    s.query(`UPDATE mods SET size_bytes = size_bytes + 1 WHERE workshop_id = ?`).run(M[0]);
    s.query(`UPDATE game_server_mods SET version = '1.0.1' WHERE server_id = ? AND workshop_id = ?`).run(sid(8), M[0]);
    liveSnapshot(t.deps); // the scan would have published it
    // Server 8's list is new (the others' carried over); the parts held are of the old generation.
    expect(detailCacheStats(s, liveSnapshot(t.deps)).lists).toBe(5);
    const gen = () => (s.query(`SELECT value FROM live_state WHERE key = 'catalog_gen'`).get() as { value: number }).value;
    const atGen = gen();
    // A zero budget still prepares one row a call: the slices end.
    let calls = 0;
    while (!warmDetails(s, 0)) calls++;
    expect(calls).toBeGreaterThan(2);
    const st = detailCacheStats(s, liveSnapshot(t.deps));
    expect(st.lists).toBe(6);
    expect(st.parts).toBeGreaterThanOrEqual(9);
    expect(st.servers).toBe(0);
    expect(gen()).toBe(atGen); // warming writes nothing
    // Done until something changes; then the answers are SQLite's.
    expect(warmDetails(s, 0)).toBe(true);
    same();
  });

  test("the warmer prepares a new snapshot's lists once the process is idle, and stops", async () => {
    const s = t.deps.sqlite;
    s.query(`UPDATE game_server_mods SET version = '1.0.2' WHERE server_id = ? AND workshop_id = ?`).run(sid(8), M[0]);
    liveSnapshot(t.deps);
    expect(detailCacheStats(s, liveSnapshot(t.deps)).lists).toBe(5);
    const errors: unknown[] = [];
    const stop = startDetailWarmer(s, (e) => errors.push(e), 20);
    try {
      // It starts once a check finds the process idle, which a loaded machine (other test files'
      // leftovers, a second suite beside this one) may deny for a while: wait for the lists.
      await until("the sixth list warmed", () => detailCacheStats(s, liveSnapshot(t.deps)).lists >= 6, 25_000, 25);
    } finally {
      stop();
    }
    expect(errors).toEqual([]);
    expect(detailCacheStats(s, liveSnapshot(t.deps)).lists).toBe(6);
    same();
  });

  test("a kept big answer is answered again after a write to its mod's items", () => {
    same();
    const before = serverDetailJson(t.deps, sid(5));
    t.deps.sqlite.query(`UPDATE mod_items SET name = 'Changed' WHERE workshop_id = ? AND item_key = 'b7'`).run(BIG);
    expect(serverDetailJson(t.deps, sid(5))).not.toBe(before);
    same();
  });

  test("SQLite's JSON text of a string is JSON.stringify's, for every character of the Basic Multilingual Plane and beyond", () => {
    // The items' JSON is written by SQLite (detail.ts ITEMS_JSON), the variant keys by json_array.
    const q = t.deps.sqlite.query(`SELECT json_object('a', ?1, 'n', NULL) AS j`);
    const texts: string[] = [];
    for (let c = 0; c < 0x80; c++) texts.push(String.fromCharCode(c), `x${String.fromCharCode(c)}y`);
    for (let c = 0x80; c < 0x10000; c += 64) {
      let x = "";
      for (let d = c; d < c + 64; d++) if (d < 0xd800 || d > 0xdfff) x += String.fromCharCode(d);
      texts.push(x);
    }
    texts.push("😀 \u{1F600}", "\u2028\u2029", '"\\/', "");
    const differ = texts.filter((x) => (q.get(x) as { j: string }).j !== JSON.stringify({ a: x, n: null }));
    expect(differ).toEqual([]);
  });

  test("items and names of every kind of character, and a BLOB written raw, answer SQLite's text", () => {
    const s = t.deps.sqlite;
    const odd = ["\u0000\u0001\u001f\b\f\n\r\t", '"quoted" \\back\\slash /', "\u2028 line \u2029 para", "😀 emoji ✓ Ωmega 日本", "\u007f\u0080\u00ff"];
    const item = s.query(`INSERT INTO mod_items (workshop_id, version, item_key, item_type, name, path, guid) VALUES (?, '1.0.0', ?, ?, ?, ?, ?)`);
    odd.forEach((x, k) => item.run(M[3], `odd${k}`, x, `${x} name`, `Prefabs/${x}.et`, x));
    s.query(`UPDATE game_server_mods SET name = ? WHERE server_id = ? AND workshop_id = ?`).run(odd.join("|"), sid(2), M[3]);
    same();
    expect(serverDetailJson(t.deps, sid(2))).toContain(JSON.stringify(odd[3]).slice(1, -1));
    // A BLOB (only raw SQL stores one): SQLite's JSON cannot hold it, the items are written by JSON.stringify.
    s.query(`UPDATE mod_items SET guid = X'00ff' WHERE workshop_id = ? AND item_key = 'odd0'`).run(M[3]);
    same();
    s.query(`DELETE FROM mod_items WHERE workshop_id = ? AND item_key LIKE 'odd%'`).run(M[3]);
    same();
  });

  test("a catalog store at its cap takes nothing more: answers stay SQLite's, the warm ends, and the next generation's store fills again", () => {
    const s = t.deps.sqlite;
    const bump = () => s.query(`UPDATE mods SET size_bytes = size_bytes + 1 WHERE workshop_id = ?`).run(M[0]);
    try {
      setCatalogPartsCap(1);
      bump();
      same();
      const st = detailCacheStats(s, liveSnapshot(t.deps));
      expect(st.parts).toBe(0);
      expect(st.mods).toBe(0);
      let calls = 0;
      while (!warmDetails(s, 0)) expect(++calls).toBeLessThan(100);
      same();
    } finally {
      setCatalogPartsCap(CATALOG_BYTES);
    }
    bump();
    same();
    const st = detailCacheStats(s, liveSnapshot(t.deps));
    expect(st.parts).toBeGreaterThanOrEqual(8);
    // The store counts in the answer budget what the gauge reports, and leaves it whole when dropped.
    const used = answerBudget.used;
    expect(used).toBeGreaterThanOrEqual(st.modBytes);
    bump();
    same();
    expect(answerBudget.used - used).toBeLessThan(st.modBytes);
  });
});
