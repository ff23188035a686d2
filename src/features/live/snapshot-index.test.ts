// The live list's per-snapshot search indexes (snapshot.ts: words of the search texts, candidate
// rows per asked mods and words, sort positions, typed columns, each entry's UTF-8 bytes) answer
// exactly as SQLite, with few and many candidates, and a scan's new snapshot gets new indexes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { bmServer, startFakeBattleMetrics, type BmResource, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { mulberry32 } from "../../../test/fixtures/prng";
import { listServersSql } from "../../../test/truth/live-sql";
import { BattleMetricsClient } from "./battlemetrics";
import { runScan } from "./scan";
import { listServers, listServersBytes, listServersJson } from "./service";
import { listQuery, SERVER_SORTS, type ListQuery } from "./model";
import { LIST_BITS_CACHE_BYTES, listBitsBytes, liveSnapshot, searchIndexBytes, type LiveSnapshot } from "./snapshot";
import { nameHolds, parseServerSearch } from "./search";
import { ONLINE_WINDOW } from "./entry";

// Words sharing prefixes (one search word starts several), rare and common ones, other scripts.
const COMMON = ["Conflict", "Everon", "EU", "Arland", "Training"];
const RARE = ["Conflicted", "Confluence", "Eve", "Everest", "europe", "Euro", "école", "Écho", "Öst", "Östra", "Arma", "Armada", "zulu", "Zulus", "x1", "x10", "x100"];
const MODS = Array.from({ length: 30 }, (_, i) => (0x7000000000000000n + BigInt(i * 104729)).toString(16).toUpperCase());
const PLATFORMS = ["PLATFORM_PC", "PLATFORM_XBL", "PLATFORM_PSN"];

let t: TestApp;
let fake: FakeBattleMetrics;
let clock: TestClock;

function generate(seed: number, n: number): BmResource[] {
  const rnd = mulberry32(seed);
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
  return Array.from({ length: n }, (_, i) => {
    // Popular mods on most servers, the others on few.
    const mods = [...new Set(Array.from({ length: Math.floor(rnd() * 6) }, () => (rnd() < 0.5 ? pick(MODS.slice(0, 3)) : pick(MODS))))];
    const words = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => (rnd() < 0.7 ? pick(COMMON) : pick(RARE)));
    return bmServer({
      id: String(9000 + i),
      name: `${words.join(rnd() < 0.5 ? " " : " | ")} #${Math.floor(rnd() * 20)}`,
      ip: `198.51.${100 + (i % 3)}.${i % 250}`,
      port: 2001 + Math.floor(i / 250),
      players: Math.floor(rnd() * 7) * 10,
      rank: i + 1,
      country: pick(["DE", "US", null]),
      password: rnd() < 0.2,
      official: rnd() < 0.15,
      scenarioName: `${pick(rnd() < 0.8 ? COMMON : RARE)} scenario`,
      platforms: rnd() < 0.5 ? [pick(PLATFORMS)] : [pick(PLATFORMS), pick(PLATFORMS)],
      battlEye: rnd() < 0.5,
      mods,
    });
  });
}

const scan = () => runScan(t.deps, { client: new BattleMetricsClient({ baseUrl: fake.url, minIntervalMs: 0, sleep: async () => {}, pageSize: 100 }) });

beforeAll(async () => {
  fake = startFakeBattleMetrics({ servers: generate(3, 1200), maxPageSize: 100 });
  clock = new TestClock(Date.UTC(2026, 10, 22, 10, 0, 0));
  t = await createTestApp({ clock });
  const ins = t.deps.sqlite.query("INSERT INTO mods (workshop_id, name, version, size_bytes, state, created_at, updated_at) VALUES (?, ?, '1.0.0', ?, 'active', 0, 0)");
  MODS.forEach((id, i) => i % 4 !== 0 && ins.run(id, `Mod ${id.slice(-4)}`, (i % 7) * 1_000_000));
  await scan();
});
afterAll(() => {
  t.close();
  fake.stop();
});

function randomQuery(rnd: () => number) {
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
  const word = () => {
    const w = pick(rnd() < 0.5 ? RARE : COMMON);
    return rnd() < 0.4 ? w.slice(0, 1 + Math.floor(rnd() * w.length)) : w; // a prefix now and then
  };
  const raw: Record<string, string> = { sort_by: pick(SERVER_SORTS) };
  if (rnd() < 0.7) raw.search = Array.from({ length: 1 + Math.floor(rnd() * 2) }, word).join(" ") + (rnd() < 0.1 ? ` 198.51.10${Math.floor(rnd() * 3)}` : "");
  if (rnd() < 0.35) raw.mod_ids = Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => pick(rnd() < 0.6 ? MODS.slice(0, 3) : MODS)).join(",");
  if (rnd() < 0.3) raw.min_players = String(Math.floor(rnd() * 50));
  if (rnd() < 0.2) raw.max_mod_size = String(Math.floor(rnd() * 15_000_000));
  if (rnd() < 0.2) raw.official = pick(["true", "false"]);
  if (rnd() < 0.2) raw.password_protected = pick(["true", "false"]);
  if (rnd() < 0.2) raw.tags = pick(["pc", "xbox", "modded", "vanilla", "battleye", "pc,modded", "BattlEye"]);
  if (rnd() < 0.5) raw.offset = String(Math.floor(rnd() * (rnd() < 0.5 ? 10 : 300)));
  raw.limit = String(1 + Math.floor(rnd() * (rnd() < 0.5 ? 20 : 200)));
  return { raw, q: listQuery.parse(raw) };
}

describe("the live list's search indexes", () => {
  test("answer exactly as SQLite for 800 random queries, with few candidates and many", () => {
    const rnd = mulberry32(11);
    const n = liveSnapshot(t.deps.sqlite, clock.now()).rows.length;
    let few = 0;
    let many = 0;
    let nonEmpty = 0;
    const decoder = new TextDecoder();
    for (let i = 0; i < 800; i++) {
      const { raw, q } = randomQuery(rnd);
      const want = listServersSql(t.deps, q);
      const got = listServers(t.deps, q);
      if (JSON.stringify(got) !== JSON.stringify(want)) expect({ raw, got: got.map((s) => s.id) }).toEqual({ raw, got: want.map((s) => s.id) });
      const text = JSON.stringify(want);
      expect(listServersJson(t.deps, q)).toBe(text);
      expect(decoder.decode(listServersBytes(t.deps, q))).toBe(text);
      expect(decoder.decode(listServersBytes(t.deps, q))).toBe(text); // the page kept for the snapshot
      if (want.length) nonEmpty++;
      // How many rows the asked mods and words leave (before the other filters): few go through
      // the sorted-candidates path, many through the walk of the order.
      if (q.search || q.mod_ids) {
        const all = listServersSql(t.deps, listQuery.parse({ ...(q.search ? { search: q.search } : {}), ...(q.mod_ids ? { mod_ids: q.mod_ids.join(",") } : {}), limit: "200" }));
        if (all.length * 8 <= n && all.length > 0) few++;
        else if (all.length === 200) many++;
      }
    }
    expect(nonEmpty).toBeGreaterThan(300);
    expect(few).toBeGreaterThan(80);
    expect(many).toBeGreaterThan(80);
    expect(searchIndexBytes(liveSnapshot(t.deps.sqlite, clock.now()))).toBeGreaterThan(0);
  }, 60_000);

  test("kept pages are not served once time moves a held server out of the hour", () => {
    const q = listQuery.parse({ limit: "200", sort_by: "recent" });
    const decoder = new TextDecoder();
    const start = clock.now();
    expect(decoder.decode(listServersBytes(t.deps, q))).toBe(JSON.stringify(listServersSql(t.deps, q)));
    for (const shift of [30 * 60_000, 59 * 60_000, 60 * 60_000, 60 * 60_000 + 1, 61 * 60_000]) {
      clock.set(start + shift);
      const want = JSON.stringify(listServersSql(t.deps, q));
      expect({ shift, got: decoder.decode(listServersBytes(t.deps, q)) }).toEqual({ shift, got: want });
    }
    expect(decoder.decode(listServersBytes(t.deps, q))).toBe("[]");
    clock.set(start);
  });

  test("a scan's new snapshot is searched with its own indexes", async () => {
    const q = listQuery.parse({ search: "zulu", limit: "200", sort_by: "name_asc" });
    const before = listServers(t.deps, q);
    expect(before).toEqual(listServersSql(t.deps, q));
    const old = liveSnapshot(t.deps.sqlite, clock.now());
    // The next scan renames the servers (another seed): other words, other mods.
    fake.setServers(generate(4, 900));
    clock.advance(5 * 60_000);
    await scan();
    expect(liveSnapshot(t.deps.sqlite, clock.now())).not.toBe(old);
    for (const search of ["zulu", "eve", "conflict eu", "x1", "öst", "écho"]) {
      for (const extra of [{}, { mod_ids: MODS[0]! }, { mod_ids: `${MODS[1]},${MODS[2]}` }]) {
        const q2 = listQuery.parse({ search, limit: "200", sort_by: "players_desc", ...extra });
        expect({ search, extra, got: listServers(t.deps, q2).map((s) => s.id) }).toEqual({ search, extra, got: listServersSql(t.deps, q2).map((s) => s.id) });
      }
    }
    expect(listServers(t.deps, q)).not.toEqual(before);
  });
});

// The list's row bitsets (snapshot.ts listIndex: each flag value, tags, min_players and
// max_mod_size values, the asked mods and words, search phrases; kept per snapshot) against the
// straightforward filter over the snapshot's rows, in its order, with the name-first split.
function straightforward(s: LiveSnapshot, q: ListQuery, since: number): string[] {
  const search = parseServerSearch(q.search);
  const first: string[] = [];
  const rest: string[] = [];
  for (const i of s.order[q.sort_by]) {
    const r = s.rows[i]!;
    if (r.last_seen_at < since) continue;
    if (q.min_players !== undefined && r.player_count < q.min_players) continue;
    if (q.max_mod_size !== undefined && r.mods_size_bytes > q.max_mod_size) continue;
    if (q.official !== undefined && !!r.official !== q.official) continue;
    if (q.password_protected !== undefined && !!r.password_protected !== q.password_protected) continue;
    if (q.community_id !== undefined && r.community_id !== q.community_id) continue;
    if ((q.tags ?? []).slice(0, 20).some((tag) => !s.tags[i]!.includes(`,${tag},`))) continue;
    if ((q.mod_ids ?? []).some((m) => !s.byMod.get(m)?.includes(i))) continue;
    if (search.words.some((w) => !r.search_text.includes(w))) continue;
    if (search.address.some((a) => !r.host_address.toLowerCase().includes(a))) continue;
    (search.phrase && !nameHolds(r.search_text, search.phrase) ? rest : first).push(r.id);
  }
  return [...first, ...rest].slice(q.offset, q.offset + q.limit);
}

describe("the live list's row bitsets", () => {
  // Few values a filter, so most queries are answered from bitsets kept by an earlier one.
  function repeatedQuery(rnd: () => number) {
    const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
    const raw: Record<string, string> = { sort_by: pick(SERVER_SORTS) };
    if (rnd() < 0.4) raw.search = pick(["conflict", "eve", "conflict everon", "eu", "zulu", "x1", "öst", "arma 198.51.101", "training conflict"]);
    if (rnd() < 0.3) raw.mod_ids = pick([MODS[0]!, MODS[1]!, `${MODS[0]},${MODS[2]}`, MODS[7]!]);
    if (rnd() < 0.4) raw.min_players = pick(["0", "10", "25", "40", "60"]);
    if (rnd() < 0.3) raw.max_mod_size = pick(["0", "3000000", "6000000", "20000000"]);
    if (rnd() < 0.3) raw.official = pick(["true", "false"]);
    if (rnd() < 0.3) raw.password_protected = pick(["true", "false"]);
    if (rnd() < 0.3) raw.tags = pick(["pc", "xbox", "modded", "vanilla", "battleye", "pc,modded", "BattlEye", "nope"]);
    if (rnd() < 0.05) raw.community_id = "no-such-community";
    if (rnd() < 0.5) raw.offset = String(Math.floor(rnd() * (rnd() < 0.5 ? 10 : 600)));
    raw.limit = String(1 + Math.floor(rnd() * (rnd() < 0.5 ? 20 : 200)));
    return listQuery.parse(raw);
  }

  test("answer as the straightforward filter over the snapshot, first and again from the kept bitsets, and as time passes", () => {
    const rnd = mulberry32(29);
    const start = clock.now();
    let nonEmpty = 0;
    for (let i = 0; i < 600; i++) {
      const q = repeatedQuery(rnd);
      // Now and later in the hour (the kept bitsets do not depend on the time; the window is tested row by row).
      clock.set(start + (i % 3 === 2 ? ONLINE_WINDOW - 60_000 + Math.floor(rnd() * 120_000) : 0));
      const s = liveSnapshot(t.deps.sqlite, clock.now());
      const want = straightforward(s, q, clock.now() - ONLINE_WINDOW);
      for (let k = 0; k < 2; k++) expect({ q, got: listServers(t.deps, q).map((e) => e.id) }).toEqual({ q, got: want });
      if (want.length) nonEmpty++;
    }
    clock.set(start);
    expect(nonEmpty).toBeGreaterThan(200);
    expect(listBitsBytes(liveSnapshot(t.deps.sqlite, clock.now()))).toBeGreaterThan(0);
  }, 60_000);

  test("are bounded: at most LIST_BITS_CACHE_BYTES of kept filter values a snapshot, least recently used out", () => {
    const s = liveSnapshot(t.deps.sqlite, clock.now());
    const fixed = 5 * Math.ceil(s.rows.length / 32) * 4; // every row, official and password false/true
    for (let v = 0; v < 8000; v++) listServers(t.deps, listQuery.parse({ min_players: String(v), sort_by: "players_desc", limit: "5" }));
    expect(listBitsBytes(s)).toBeLessThanOrEqual(fixed + LIST_BITS_CACHE_BYTES);
    expect(listBitsBytes(s)).toBeGreaterThan(fixed + LIST_BITS_CACHE_BYTES * 0.9);
    for (const v of ["0", "10", "7999"]) {
      const q = listQuery.parse({ min_players: v, sort_by: "players_desc", limit: "200" });
      expect(listServers(t.deps, q)).toEqual(listServersSql(t.deps, q));
    }
  });

  test("a scan's new snapshot gets new bitsets: the same queries answer its servers", async () => {
    const qs = [
      { min_players: "20" },
      { tags: "pc" },
      { official: "true" },
      { password_protected: "false", max_mod_size: "6000000" },
      { search: "conflict", min_players: "10" },
      { mod_ids: MODS[0]!, tags: "battleye" },
    ].map((raw) => listQuery.parse({ ...raw, limit: "200", sort_by: "name_asc" }));
    const before = qs.map((q) => listServers(t.deps, q));
    qs.forEach((q, i) => expect(before[i]).toEqual(listServersSql(t.deps, q)));
    const old = liveSnapshot(t.deps.sqlite, clock.now());
    expect(listBitsBytes(old)).toBeGreaterThan(0);
    fake.setServers(generate(6, 1000));
    clock.advance(5 * 60_000);
    await scan();
    const next = liveSnapshot(t.deps.sqlite, clock.now());
    expect(next).not.toBe(old);
    expect(listBitsBytes(next)).toBe(0);
    const after = qs.map((q) => listServers(t.deps, q));
    qs.forEach((q, i) => expect({ q, got: after[i]!.map((e) => e.id) }).toEqual({ q, got: listServersSql(t.deps, q).map((e) => e.id) }));
    expect(after).not.toEqual(before);
  });
});
