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
import { listQuery, SERVER_SORTS } from "./model";
import { liveSnapshot, searchIndexBytes } from "./snapshot";

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
