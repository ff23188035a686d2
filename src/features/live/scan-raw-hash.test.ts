// The scan compares the stored mods_hash with the hash of each server's mod list as the page sent
// it (its bytes: page-reader.ts). The hashes of the servers seen lately are read before the fetch,
// and a list whose bytes hash to its server's one is not parsed at all (modsSettled): an unchanged
// list is neither parsed nor diffed; a changed one is, and so is one sent in other bytes (its keys
// in another order), whose diff finds nothing. A page of servers the scan does not hold (a first
// sight) is parsed whole, its lists' parsed form hashed; the next scan finds those lists the same
// by that hash and stores their bytes' one. A stored hash that moves, or a row that goes, between
// that read and the scan's write transaction leaves the list to the next scan's diff.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../../test/helpers";
import { generateBmServers, startFakeBattleMetrics, type BmResource, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { BattleMetricsClient, type LiveServer, type StoredHashes } from "./battlemetrics";
import { modsHash, runScan } from "./scan";

let t: TestApp;
let fake: FakeBattleMetrics;
const servers = generateBmServers(30, { seed: 3, modPool: 300 });

beforeEach(async () => {
  fake = startFakeBattleMetrics({ servers });
  t = await createTestApp({ env: { LOADOUT_BATTLEMETRICS_URL: fake.url } });
});
afterEach(async () => {
  fake.stop();
  await t.close();
});

/** The client, keeping every server it read; `between` runs after its first page (another writer). */
class Keeping extends BattleMetricsClient {
  read: LiveServer[] = [];
  between: (() => void) | null = null;
  override async *pages(signal?: AbortSignal, stored?: StoredHashes) {
    for await (const p of super.pages(signal, stored)) {
      this.read.push(...p.servers);
      yield p;
      this.between?.();
      this.between = null;
    }
  }
}
const client = () => new Keeping({ baseUrl: fake.url, pageSize: 7, minIntervalMs: 0, sleep: async () => {} });
const reforger = (s: BmResource) => (s.attributes.details as any).reforger as { mods: { modId: string; name: string; version: string }[] };
const stored = () =>
  new Map((t.deps.sqlite.query(`SELECT source_id, mods_hash FROM game_servers`).all() as { source_id: string; mods_hash: string }[]).map((r) => [r.source_id, r.mods_hash]));
const listOf = (sourceId: string) =>
  t.deps.sqlite
    .query(`SELECT m.workshop_id, m.version FROM game_server_mods m JOIN game_servers g ON g.id = m.server_id WHERE g.source_id = ? ORDER BY m.position`)
    .all(sourceId);
const summaryOf = (sourceId: string) => t.deps.sqlite.query(`SELECT mods_count, mods_hash FROM game_servers WHERE source_id = ?`).get(sourceId) as { mods_count: number; mods_hash: string };
const changesOf = (id: string) =>
  t.deps.sqlite
    .query(`SELECT c.action, c.workshop_id, c.new_version FROM game_server_mod_changes c JOIN game_servers g ON g.sid = c.server_sid WHERE g.source_id = ? ORDER BY c.id, c.workshop_id`)
    .all(id) as { action: string; workshop_id: string; new_version: string | null }[];
const modded = servers.filter((s) => reforger(s).mods.length > 0);

test("an unchanged list is not parsed or diffed; a changed one is, and one in other bytes is diffed to nothing", async () => {
  // A first sight: every page parsed whole, each list's parsed form hashed.
  const first = client();
  const r1 = await runScan(t.deps, { client: first });
  expect(r1).toMatchObject({ servers: 30, new_servers: 30 });
  const normalised = stored();
  for (const s of first.read) {
    expect([s.modsHash, s.modsSettled]).toEqual([undefined, undefined]);
    expect(normalised.get(s.source_id)).toBe(modsHash(s.mods));
  }
  expect(first.read.reduce((n, s) => n + s.mods.length, 0)).toBeGreaterThan(100);

  // Read from their bytes next: the same lists, found the same by their parsed form, not diffed,
  // their stored hash now their bytes' one.
  const lists = () => t.deps.sqlite.query(`SELECT * FROM game_server_mod_lists ORDER BY server_sid`).all();
  const events = () => t.deps.sqlite.query(`SELECT count(*) AS n FROM game_server_mod_events`).get();
  const [lists1, events1] = [lists(), events()];
  const second = client();
  const r2 = await runScan(t.deps, { client: second });
  expect(r2).toMatchObject({ servers: 30, new_servers: 0, mod_changes: 0 });
  const hashes = stored();
  for (const s of second.read) {
    expect(s.modsSettled).toBeUndefined();
    expect(hashes.get(s.source_id)).toBe(s.modsHash!);
    expect(s.modsHash).not.toBe(normalised.get(s.source_id));
  }
  expect([lists(), events()]).toEqual([lists1, events1]);

  // One server updates a mod; another's list comes with its keys in another order (same list).
  const updated = modded[0]!;
  const reordered = modded[1]!;
  const next = structuredClone(servers);
  const u = reforger(next.find((s) => s.id === updated.id)!).mods;
  u[0] = { ...u[0]!, version: "9.9.9" };
  const r = reforger(next.find((s) => s.id === reordered.id)!);
  r.mods = r.mods.map((m) => ({ version: m.version, name: m.name, modId: m.modId }));
  fake.setServers(next);
  const listBefore = listOf(reordered.id);

  const third = client();
  const r3 = await runScan(t.deps, { client: third });
  expect(r3).toMatchObject({ servers: 30, new_servers: 0, mod_changes: 1 });
  const after = stored();
  for (const s of third.read) {
    const changed = s.source_id === updated.id || s.source_id === reordered.id;
    expect([s.source_id, s.modsSettled ?? false]).toEqual([s.source_id, !changed]);
    if (!changed) expect(s.mods).toEqual([]);
    expect(after.get(s.source_id) === hashes.get(s.source_id)).toBe(!changed);
    expect(after.get(s.source_id)).toBe(s.modsHash!);
  }
  expect(changesOf(updated.id).filter((c) => c.action !== "added")).toEqual([{ action: "updated", workshop_id: u[0]!.modId, new_version: "9.9.9" }]);
  expect(changesOf(reordered.id).filter((c) => c.action !== "added")).toEqual([]);
  expect(listOf(reordered.id)).toEqual(listBefore);

  // Nothing changed: no list parsed, every server's tags and list as they were.
  const tags = () => t.deps.sqlite.query(`SELECT source_id, tags, mods_count, mods_size_bytes FROM game_servers ORDER BY source_id`).all();
  const before4 = tags();
  const fourth = client();
  const r4 = await runScan(t.deps, { client: fourth });
  expect(r4).toMatchObject({ servers: 30, mod_changes: 0 });
  expect(fourth.read.filter((s) => !s.modsSettled).length).toBe(0);
  expect(tags()).toEqual(before4);
  expect(listOf(updated.id).map((m: any) => m.version)[0]).toBe("9.9.9");
});

test("pages of servers the scan holds are read from their bytes, and after a page of mostly new ones the next is parsed whole", async () => {
  await runScan(t.deps, { client: client() });
  await runScan(t.deps, { client: client() });
  // 30 known servers (pages 1-5 of 7, the fifth holding 2 new ones), then 30 new (pages 5-9; with
  // no players, the fake sends them last).
  const fresh = generateBmServers(30, { seed: 4, modPool: 300 }).map((s, i) => ({ ...s, id: `new-${i}`, attributes: { ...s.attributes, ip: "10.9.9.9", port: 4000 + i, players: 0 } }));
  fake.setServers([...servers, ...fresh]);
  const c = client();
  await runScan(t.deps, { client: c });
  const read = c.read.map((s) => [s.source_id.startsWith("new-") ? "new" : "known", s.modsHash === undefined ? "whole" : "bytes"]);
  // Pages 1-5 from their bytes (each follows a page of known servers), then pages 6-9 whole (each
  // follows a page of mostly new ones: page 5 holds 2 known and 5 new).
  expect(read).toEqual([...servers.map(() => ["known", "bytes"]), ...fresh.map((_, i) => ["new", 30 + i < 35 ? "bytes" : "whole"])]);
  expect(c.read.filter((s) => s.modsSettled).length).toBe(30);
  // Every new server's list stored as reported, whichever way its page was read.
  for (const s of fresh) expect(listOf(s.id).map((m: any) => m.workshop_id)).toEqual([...new Set(reforger(s).mods.map((m) => m.modId))]);
});

test("a stored hash that moves during the fetch leaves the list to the next scan, which diffs it", async () => {
  await runScan(t.deps, { client: client() });
  await runScan(t.deps, { client: client() });
  const target = modded[2]!;
  const list = listOf(target.id);
  const hash = summaryOf(target.id).mods_hash;
  // Its list changes at the source; while the pages are fetched, another writer sets its stored
  // hash to something else (the scan read it before: the new list still hashes otherwise).
  const next = structuredClone(servers);
  const m = reforger(next.find((s) => s.id === target.id)!).mods;
  m[0] = { ...m[0]!, version: "7.7.7" };
  fake.setServers(next);
  const c = client();
  c.between = () => t.deps.sqlite.run(`UPDATE game_servers SET mods_hash = 'moved' WHERE source_id = ?`, [target.id]);
  await runScan(t.deps, { client: c });
  // Read in full (its hash was not the stored one), diffed: the change is recorded.
  expect(c.read.find((s) => s.source_id === target.id)!.modsSettled).toBeUndefined();
  expect(changesOf(target.id).filter((x) => x.action === "updated").map((x) => x.new_version)).toEqual(["7.7.7"]);
  expect(summaryOf(target.id).mods_hash).not.toBe(hash);

  // The list unchanged at the source this time, but its stored hash moved mid-fetch: settled as
  // read, so this scan leaves it (no diff, the moved hash kept), and the next one diffs it to nothing.
  const settledHash = summaryOf(target.id).mods_hash;
  const c2 = client();
  c2.between = () => t.deps.sqlite.run(`UPDATE game_servers SET mods_hash = 'moved' WHERE source_id = ?`, [target.id]);
  await runScan(t.deps, { client: c2 });
  expect(c2.read.find((s) => s.source_id === target.id)!.modsSettled).toBe(true);
  expect(summaryOf(target.id).mods_hash).toBe("moved");
  expect(listOf(target.id).length).toBe(list.length);
  const c3 = client();
  const r3 = await runScan(t.deps, { client: c3 });
  expect(c3.read.find((s) => s.source_id === target.id)!.modsSettled).toBeUndefined();
  expect(r3.mod_changes).toBe(0);
  expect(summaryOf(target.id)).toEqual({ mods_count: list.length, mods_hash: settledHash });
  expect(changesOf(target.id).filter((x) => x.action === "updated").length).toBe(1);
});

test("a server whose row goes during the fetch is seen again with its list unknown, and read in full next scan", async () => {
  await runScan(t.deps, { client: client() });
  await runScan(t.deps, { client: client() });
  const target = modded[3]!;
  const list = listOf(target.id);
  const { mods_hash } = summaryOf(target.id);
  const c = client();
  c.between = () => t.deps.sqlite.run(`DELETE FROM game_servers WHERE source_id = ?`, [target.id]);
  await runScan(t.deps, { client: c });
  // Settled as read, its row gone by the write: seen anew, its list stored as unknown.
  expect(c.read.find((s) => s.source_id === target.id)!.modsSettled).toBe(true);
  expect(summaryOf(target.id)).toEqual({ mods_count: 0, mods_hash: "" });
  expect(listOf(target.id)).toEqual([]);
  const c2 = client();
  await runScan(t.deps, { client: c2 });
  expect(c2.read.find((s) => s.source_id === target.id)!.modsSettled).toBeUndefined();
  expect(summaryOf(target.id)).toEqual({ mods_count: list.length, mods_hash });
  expect(listOf(target.id)).toEqual(list);
  expect(changesOf(target.id).map((x) => x.action)).toEqual(list.map(() => "added"));
});
