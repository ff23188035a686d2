// The live snapshot at its edges (snapshot.test.ts has the scan-generated property test): rows
// written straight into SQLite to hit what a scan rarely makes (case and non-ASCII names and tags
// SQLite's NOCASE and LIKE fold differently from JavaScript, LIKE wildcards, servers online but
// outside the hour, as time passes), the detail and top lists from the snapshot, a raw SQL write
// seen by the next read through the generation, and readers racing a scan's commit. An online
// server's detail copied from its kept parts: detail.test.ts.
import { serverSearchText } from "./search";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { until } from "../../../test/until";
import { mulberry32 } from "../../../test/fixtures/prng";
import { loadBmFixture, startFakeBattleMetrics, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { BattleMetricsClient } from "./battlemetrics";
import { runScan } from "./scan";
import { SERVER_SORTS, listQuery, type ListQuery } from "./model";
import { listServers, serverDetail, serverDetailJson, topMods, topServers } from "./service";
import { listServersSql, serverDetailSql, topModsSql, topServersSql } from "../../../test/truth/live-sql";
import { liveRepo } from "./repository";
import { buildSnapshot, entriesOf, entryJson, liveSnapshot as snap } from "./snapshot";
import { detailCacheStats, KEEP_FROM_BYTES } from "./detail";
const liveSnapshot = (deps: { sqlite: any; clock: { now(): number } }) => snap(deps.sqlite, deps.clock.now());

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe("snapshot = SQL on a generated data set", () => {
  let t: TestApp;
  let clock: TestClock;
  const rnd = mulberry32(15);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
  const MODS = Array.from({ length: 30 }, (_, i) => (0x5965550f24a0c100 + i * 7919).toString(16).toUpperCase().padStart(16, "0").slice(0, 16));
  const NAMES = ["Alpha", "alpha", "ALPHA", "Bravo", "bravo conflict", "Échelon", "échelon", "Zulu 🎯", "zulu", "Ωmega", "\uE000private", "Conflict EU #1", "conflict eu #1", "Everon", "_under", "%percent"];
  const TAGS = ["pc", "PC", "modded", "BattlEye", "vanilla", "eu", "Ünicode", "x_y", "a%b"];
  const SCENARIOS = ["Conflict - Everon", "Game Master", "Combat Ops - Arland", ""];

  beforeAll(async () => {
    clock = new TestClock(NOW);
    t = await createTestApp({ clock });
    const s = t.deps.sqlite;
    for (const [i, id] of MODS.entries()) {
      if (i % 5 === 4) continue; // some mods the catalog does not know
      s.query(`INSERT INTO mods (workshop_id, name, version, size_bytes, state) VALUES (?, ?, '1.0.0', ?, 'active')`).run(id, `Mod ${i}`, 1000 * (i % 7));
    }
    for (let i = 0; i < 400; i++) {
      const name = `${pick(NAMES)}${rnd() < 0.5 ? "" : ` ${i % 13}`}`;
      const host = `10.0.${i >> 8}.${i & 255}:${2000 + (i % 3)}`;
      const scenario = pick(SCENARIOS);
      const tags = [...new Set(Array.from({ length: Math.floor(rnd() * 4) }, () => pick(TAGS)))];
      const online = rnd() < 0.8 ? 1 : 0;
      // Most in the latest scan; some online but last seen over an hour ago (a partial scan).
      const seen = online ? (rnd() < 0.85 ? NOW : NOW - HOUR - Math.floor(rnd() * 4) * 600_000) : NOW - Math.floor(rnd() * 10) * 86_400_000;
      const mods = [...new Set(Array.from({ length: Math.floor(rnd() * 8) }, () => pick(MODS)))];
      s.query(
        `INSERT INTO game_servers (id, sid, host_address, name, ip, port, country, player_count, player_count_limit, queue_players_count,
           scenario_name, game_version, password_protected, official, tags, search_text, mods_count, mods_size_bytes, online,
           avg_players_7d, first_seen_at, last_seen_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 64, ?, ?, '1.2.0', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        `0190${String(i * 7 % 400).padStart(4, "0")}-0000-7000-8000-${String(i).padStart(12, "0")}`,
        i + 1,
        host,
        name,
        host.split(":")[0]!,
        Number(host.split(":")[1]),
        pick(["DE", "US", null]),
        online ? Math.floor(rnd() * 6) * 10 : 0,
        Math.floor(rnd() * 3),
        scenario,
        rnd() < 0.3 ? 1 : 0,
        rnd() < 0.2 ? 1 : 0,
        `,${tags.join(",")},`,
        serverSearchText(name, scenario),
        mods.length,
        Math.floor(rnd() * 5) * 1000,
        online,
        pick([0, 1.5, 2.25, 10, 10, 33.333]),
        NOW - Math.floor(rnd() * 3) * 86_400_000,
        seen,
      );
      const id = (s.query(`SELECT id FROM game_servers WHERE sid = ?`).get(i + 1) as { id: string }).id;
      mods.forEach((m, p) => s.query(`INSERT INTO game_server_mods (server_id, workshop_id, name, position) VALUES (?, ?, '', ?)`).run(id, m, p));
    }
    liveRepo.refreshModUsage(s, NOW);
  });
  afterAll(() => t.close());

  function randomQuery(): ListQuery {
    const raw: Record<string, string> = {};
    if (rnd() < 0.3) raw.limit = String(1 + Math.floor(rnd() * 60));
    if (rnd() < 0.3) raw.offset = String(Math.floor(rnd() * 80));
    if (rnd() < 0.8) raw.sort_by = pick(SERVER_SORTS);
    if (rnd() < 0.3) raw.search = pick(["alpha", "ÉCHELON", "conflict eu", "10.0.1", "zulu 🎯", "  ever  ", "%", "_", "game master", "ω", "nomatch"]);
    if (rnd() < 0.3) raw.mod_ids = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(MODS).toLowerCase()).join(",");
    if (rnd() < 0.2) raw.min_players = String(Math.floor(rnd() * 50));
    if (rnd() < 0.2) raw.max_mod_size = String(Math.floor(rnd() * 5) * 1000);
    if (rnd() < 0.2) raw.official = pick(["true", "false"]);
    if (rnd() < 0.2) raw.password_protected = pick(["true", "false"]);
    if (rnd() < 0.3) raw.tags = Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => pick([...TAGS, "ünicode", "battleye", "x%y"])).join(",");
    return listQuery.parse(raw);
  }

  test("600 random filter/sort/paging combinations, now and as time passes", () => {
    // Offsets and limits are usually small; check whole answers too (limit 200) for every sort.
    for (const sort_by of SERVER_SORTS) {
      const q = listQuery.parse({ sort_by, limit: "200" });
      expect(listServers(t.deps, q)).toEqual(listServersSql(t.deps, q));
    }
    let nonEmpty = 0;
    for (const advance of [0, 20 * 60_000, 50 * 60_000]) {
      clock.set(NOW + advance);
      for (let k = 0; k < 200; k++) {
        const q = randomQuery();
        const sql = listServersSql(t.deps, q);
        expect({ q, r: listServers(t.deps, q) }).toEqual({ q, r: sql });
        if (sql.length > 0) nonEmpty++;
      }
    }
    clock.set(NOW);
    // The generator is not vacuous: most combinations return servers.
    expect(nonEmpty).toBeGreaterThan(300);
  });

  test("top lists and an online server's detail equal SQLite's", () => {
    expect(topMods(t.deps)).toEqual(topModsSql(t.deps));
    expect(topMods(t.deps).length).toBe(10);
    for (const advance of [0, 3 * 86_400_000, 8 * 86_400_000, 9 * 86_400_000 + 1]) {
      clock.set(NOW + advance);
      expect(topServers(t.deps)).toEqual(topServersSql(t.deps));
    }
    clock.set(NOW);
    const online = listServersSql(t.deps, listQuery.parse({ limit: "5" }));
    for (const e of online) {
      const d = serverDetail(t.deps, e.id);
      const row = t.deps.sqlite.query(`SELECT * FROM game_servers WHERE id = ?`).get(e.id) as any;
      expect(d.server).toMatchObject({ ...e, ip: row.ip, port: row.port, online: true });
    }
  });

  test("a server's detail text from the snapshot equals SQLite's answer, online or not, as time passes and after any catalog write", () => {
    const s = t.deps.sqlite;
    // Items for some of the mods the servers run (the catalog's version), a scan for one of them.
    const items = s.query(`INSERT INTO mod_items (workshop_id, version, item_key, item_type, name, path, guid) VALUES (?, '1.0.0', ?, ?, ?, ?, ?)`);
    MODS.slice(0, 6).forEach((m, i) => {
      for (let k = 0; k < 3; k++) items.run(m, `k${k}`, pick(["vehicle", "weapon", "gear"]), `Item ${i}.${k}`, `Prefabs/X/${i}_${k}.et`, `${i}${k}`.padStart(16, "0"));
    });
    // A quarter of the 400 servers (online, online but outside the hour, offline).
    const ids = (s.query(`SELECT id FROM game_servers ORDER BY id`).all() as { id: string }[]).map((r) => r.id).filter((_, i) => i % 4 === 0);
    const same = () => {
      let online = 0;
      for (const id of ids) {
        const sql = serverDetailSql(t.deps, id);
        expect({ id, text: serverDetailJson(t.deps, id) }).toEqual({ id, text: JSON.stringify(sql) });
        expect(serverDetail(t.deps, id)).toEqual(sql);
        if (sql.server.online) online++;
      }
      return online;
    };
    // Twice at each time: the second read answers the text serialised by the first.
    for (const advance of [0, 20 * 60_000, 50 * 60_000, 70 * 60_000]) {
      clock.set(NOW + advance);
      const online = same();
      expect(same()).toBe(online);
      if (advance === 0) expect(online).toBeGreaterThan(50);
    }
    clock.set(NOW);
    same();
    // Each online server's mod list kept, and the items of each mod version serialised once; these
    // answers are all small, so none is kept whole (KEEP_FROM_BYTES).
    const cached = detailCacheStats(s, liveSnapshot(t.deps));
    expect(cached.lists).toBeGreaterThan(50);
    expect(cached.servers).toBe(0);
    expect(cached.mods).toBeGreaterThanOrEqual(20);
    expect(cached.modBytes).toBeGreaterThan(0);
    expect(cached.parts).toBeGreaterThanOrEqual(20);
    // Raw SQL writes to what the detail joins from the catalog: each is seen by the next read.
    const used = (s.query(`SELECT gm.workshop_id AS id FROM game_server_mods gm JOIN game_servers g ON g.id = gm.server_id
      WHERE g.online = 1 AND g.last_seen_at = ? AND gm.workshop_id IN (SELECT workshop_id FROM mods) LIMIT 1`).get(NOW) as { id: string }).id;
    const writes = [
      `UPDATE mods SET image_url = 'https://ar-gcp-cdn.bistudio.com/x.jpg' WHERE workshop_id = '${used}'`,
      `UPDATE mods SET version = '1.0.1' WHERE workshop_id = '${used}'`,
      `INSERT INTO mod_items (workshop_id, version, item_key, item_type, name, path, guid) VALUES ('${used}', '1.0.1', 'new', 'weapon', 'New', 'Prefabs/W/New.et', '00000000000000AA')`,
      `UPDATE mod_items SET name = 'Renamed' WHERE workshop_id = '${used}'`,
      `INSERT INTO mod_item_scans (workshop_id, version, item_count, scanned_at) VALUES ('${used}', '1.0.1', 1, 0)`,
      `UPDATE mods SET name = 'Renamed mod', size_bytes = 123 WHERE workshop_id = '${used}'`,
      // Items tied on type and name: ordered by path, then key.
      `INSERT INTO mod_items (workshop_id, version, item_key, item_type, name, path, guid) VALUES ('${used}', '1.0.1', 'z', 'weapon', 'New', 'Prefabs/A/New.et', NULL), ('${used}', '1.0.1', 'y', 'weapon', 'New', 'Prefabs/W/New.et', NULL)`,
      // What a scan writes (the live generation): the name and version the server reports, the
      // position; a raw write giving a server's mods one position (the SQL path answers those servers).
      `UPDATE game_server_mods SET name = 'Reported name' WHERE workshop_id = '${used}'`,
      `UPDATE game_server_mods SET version = '1.0.0' WHERE workshop_id = '${used}'`,
      `UPDATE game_server_mods SET version = '1.0.1' WHERE workshop_id = '${used}'`,
      `UPDATE game_server_mods SET position = position + 100 WHERE workshop_id = '${used}'`,
      `UPDATE game_server_mods SET position = 0 WHERE server_id IN (SELECT server_id FROM game_server_mods WHERE workshop_id = '${used}')`,
      `DELETE FROM mod_items WHERE workshop_id = '${used}' AND version = '1.0.1'`,
      `DELETE FROM mods WHERE workshop_id = '${used}'`,
    ];
    const running = ids.filter((id) => serverDetailSql(t.deps, id).mods.some((m) => m.workshop_id === used) && serverDetailSql(t.deps, id).server.online);
    expect(running.length).toBeGreaterThan(0);
    for (const w of writes) {
      const before = running.map((id) => serverDetailJson(t.deps, id));
      s.exec(w);
      const after = running.map((id) => serverDetailJson(t.deps, id));
      expect({ w, after }).toEqual({ w, after: running.map((id) => JSON.stringify(serverDetailSql(t.deps, id))) });
      if (!w.startsWith("INSERT INTO mod_item_scans")) expect({ w, changed: after.some((a, i) => a !== before[i]) }).toEqual({ w, changed: true });
    }
  }, 30_000);

  test("any write to game_servers, even raw SQL, is seen by the next read", () => {
    const q = listQuery.parse({ sort_by: "name_asc", limit: "1" });
    const first = listServers(t.deps, q)[0]!;
    const before = liveSnapshot(t.deps);
    t.deps.sqlite.query(`UPDATE game_servers SET name = '!first' WHERE id = (SELECT id FROM game_servers WHERE online = 1 AND last_seen_at = ? ORDER BY id DESC LIMIT 1)`).run(NOW);
    const after = listServers(t.deps, q)[0]!;
    expect(after.name).toBe("!first");
    expect(after.id).not.toBe(first.id);
    expect(liveSnapshot(t.deps)).not.toBe(before);
    expect(listServers(t.deps, q)).toEqual(listServersSql(t.deps, q));
  });

  test("the snapshot is immutable", () => {
    const s = liveSnapshot(t.deps);
    expect(Object.isFrozen(s)).toBe(true);
    expect(Object.isFrozen(entriesOf(s))).toBe(true);
    expect(Object.isFrozen(entriesOf(s)[0])).toBe(true);
    expect(Object.isFrozen(entriesOf(s)[0]!.tags)).toBe(true);
    expect(Object.isFrozen(s.rows[0])).toBe(true);
    // A fresh build of the same generation answers the same.
    const again = buildSnapshot(t.deps.sqlite, NOW);
    expect(again.gen).toBe(s.gen);
    expect(entriesOf(again)).toEqual(entriesOf(s));
    expect(Buffer.compare(again.entryBytes, s.entryBytes)).toBe(0);
  });

  test("the one buffer of entries holds each row's entry as its JSON, in row order", () => {
    const s = liveSnapshot(t.deps);
    const e = entriesOf(s);
    expect(e.length).toBe(s.rows.length);
    expect(s.entryAt.length).toBe(s.rows.length + 1);
    expect(s.entryAt[s.rows.length]).toBe(s.entryBytes.byteLength);
    const text = new TextDecoder();
    for (let i = 0; i < e.length; i++) expect(text.decode(entryJson(s, i))).toBe(JSON.stringify(e[i]));
  });
});

describe("a scan commit swaps the snapshot whole", () => {
  let t: TestApp;
  let fake: FakeBattleMetrics;
  let clock: TestClock;

  beforeAll(async () => {
    fake = startFakeBattleMetrics({ servers: loadBmFixture("scan-1"), maxPageSize: 2 });
    clock = new TestClock(Date.UTC(2026, 10, 22, 10, 0, 0));
    t = await createTestApp({ clock });
  });
  afterAll(async () => {
    fake.stop();
    await t.close();
  });

  const body = async (path: string) => {
    const r = await t.req("GET", path);
    expect(r.status).toBe(200);
    return r.text;
  };
  const PATHS = ["/api/v1/game-servers", "/api/v1/game-servers?sort_by=name_asc&limit=2&offset=1", "/api/v1/stats/top-mods", "/api/v1/game-servers?mod_ids=5965550F24A0C152"];

  test("readers during a scan see the previous scan entirely, then the new one entirely", async () => {
    const client = (fetchFn?: typeof fetch) => new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {}, fetch: fetchFn });
    await runScan(t.deps, { client: client() });
    const before = await Promise.all(PATHS.map(body));
    const snapBefore = liveSnapshot(t.deps);

    clock.advance(5 * 60_000);
    fake.setServers(loadBmFixture("scan-2"));
    // Every page of scan-2 arrives slowly; readers run between the pages.
    const seen: string[][] = []; // read while the scan waits for a page: before its commit
    const loop: string[][] = []; // read concurrently until the scan resolved
    let pagesFetched = 0;
    const slow: typeof fetch = (async (input: any, init?: any) => {
      seen.push(await Promise.all(PATHS.map(body)));
      await Bun.sleep(5);
      const r = await fetch(input, init);
      pagesFetched++;
      seen.push(await Promise.all(PATHS.map(body)));
      return r;
    }) as typeof fetch;
    const scan = runScan(t.deps, { client: client(slow) });
    let done = false;
    void scan.finally(() => (done = true));
    while (!done) {
      loop.push(await Promise.all(PATHS.map(body)));
      await Bun.sleep(1);
    }
    await scan;
    const after = await Promise.all(PATHS.map(body));

    expect(pagesFetched).toBeGreaterThan(1);
    expect(after).not.toEqual(before);
    // Every read while pages were still coming answered exactly the previous scan on every path.
    expect(seen.length).toBeGreaterThan(2);
    for (const s of seen) expect(s).toEqual(before);
    // Reads racing the commit answered one scan or the other, whole, on every path.
    for (const s of loop) s.forEach((b, i) => expect([before[i], after[i]]).toContain(b));
    // The old snapshot object was never touched; the new one is another object.
    expect(liveSnapshot(t.deps)).not.toBe(snapBefore);
    expect(Object.isFrozen(snapBefore)).toBe(true);
    // And the published snapshot answers what SQLite says after the commit.
    for (const sort_by of SERVER_SORTS) {
      const q = listQuery.parse({ sort_by });
      expect(listServers(t.deps, q)).toEqual(listServersSql(t.deps, q));
    }
  });

  test("the scan publishes after its commit: the generation read equals SQLite's", async () => {
    clock.advance(5 * 60_000);
    await runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} }) });
    const s = liveSnapshot(t.deps);
    const gen = (t.deps.sqlite.query(`SELECT value FROM live_state WHERE key = 'servers_gen'`).get() as { value: number }).value;
    expect(s.gen).toBe(gen);
    expect(s.builtAt).toBe(clock.now());
  });

  test("after each scan every online server's detail is SQLite's text (lists read at the version the scan wrote)", async () => {
    const client = new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {} });
    for (const fixture of ["scan-1", "scan-2", "scan-1"]) {
      clock.advance(5 * 60_000);
      fake.setServers(loadBmFixture(fixture));
      await runScan(t.deps, { client });
      const online = listServersSql(t.deps, listQuery.parse({ limit: "200" }));
      expect(online.length).toBeGreaterThan(0);
      for (const pass of [0, 1]) {
        for (const e of online) expect({ pass, id: e.id, text: serverDetailJson(t.deps, e.id) }).toEqual({ pass, id: e.id, text: JSON.stringify(serverDetailSql(t.deps, e.id)) });
      }
      expect(detailCacheStats(t.deps.sqlite, liveSnapshot(t.deps)).lists).toBeGreaterThan(0);
    }
  });
});
