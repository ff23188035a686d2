// The scan compares the stored mods_hash with the hash of each server's mod list as the page sent
// it (its bytes: page-reader.ts) and parses a list only when that differs or the server is new:
// an unchanged list is neither parsed nor diffed; a changed one is, and so is one sent in other
// bytes (its keys in another order), whose diff finds nothing.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../../test/helpers";
import { generateBmServers, startFakeBattleMetrics, type BmResource, type FakeBattleMetrics } from "../../../test/fakes/battlemetrics";
import { BattleMetricsClient, rawModsHash, rawModsParsed, type LiveServer } from "./battlemetrics";
import { runScan } from "./scan";

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

/** The client, keeping every server it read (to ask which lists were parsed). */
class Keeping extends BattleMetricsClient {
  read: LiveServer[] = [];
  override async *pages(signal?: AbortSignal) {
    for await (const p of super.pages(signal)) {
      this.read.push(...p.servers);
      yield p;
    }
  }
}
const client = () => new Keeping({ baseUrl: fake.url, pageSize: 7, minIntervalMs: 0, sleep: async () => {} });
const reforger = (s: BmResource) => (s.attributes.details as any).reforger as { mods: { modId: string; name: string; version: string }[] };
const stored = () =>
  new Map((t.deps.sqlite.query(`SELECT source_id, mods_hash FROM game_servers`).all() as { source_id: string; mods_hash: string }[]).map((r) => [r.source_id, r.mods_hash]));

test("an unchanged list is not parsed or diffed; a changed one is, and one in other bytes is diffed to nothing", async () => {
  const first = client();
  const r1 = await runScan(t.deps, { client: first });
  expect(r1).toMatchObject({ servers: 30, new_servers: 30 });
  // A first sight parses every list (modded ones: at least their first entry) and stores the hash of its bytes.
  const hashes = stored();
  for (const s of first.read) {
    expect(rawModsParsed(s)).toBe(true);
    expect(hashes.get(s.source_id)).toBe(rawModsHash(s)!);
  }

  // One server updates a mod; another's list comes with its keys in another order (same list).
  const modded = servers.filter((s) => reforger(s).mods.length > 0);
  const updated = modded[0]!;
  const reordered = modded[1]!;
  const next = structuredClone(servers);
  const u = reforger(next.find((s) => s.id === updated.id)!).mods;
  u[0] = { ...u[0]!, version: "9.9.9" };
  const r = reforger(next.find((s) => s.id === reordered.id)!);
  r.mods = r.mods.map((m) => ({ version: m.version, name: m.name, modId: m.modId }));
  fake.setServers(next);

  const second = client();
  const r2 = await runScan(t.deps, { client: second });
  expect(r2).toMatchObject({ servers: 30, new_servers: 0, mod_changes: 1 });
  const after = stored();
  for (const s of second.read) {
    const changed = s.source_id === updated.id || s.source_id === reordered.id;
    expect([s.source_id, rawModsParsed(s)]).toEqual([s.source_id, changed]);
    expect(after.get(s.source_id) === hashes.get(s.source_id)).toBe(!changed);
    expect(after.get(s.source_id)).toBe(rawModsHash(s)!);
  }
  const changesOf = (id: string) =>
    t.deps.sqlite
      .query(`SELECT c.action, c.workshop_id, c.new_version FROM game_server_mod_changes c JOIN game_servers g ON g.sid = c.server_sid WHERE g.source_id = ? AND c.action != 'added'`)
      .all(id);
  expect(changesOf(updated.id)).toEqual([{ action: "updated", workshop_id: u[0]!.modId, new_version: "9.9.9" }]);
  expect(changesOf(reordered.id)).toEqual([]);

  // Nothing changed: no list parsed.
  const third = client();
  const r3 = await runScan(t.deps, { client: third });
  expect(r3).toMatchObject({ servers: 30, mod_changes: 0 });
  expect(third.read.filter((s) => rawModsParsed(s)).length).toBe(0);
});
