// Migration a6_crawl_write (issue 29 round 4): mod_tags, mod_screenshots and mod_scenarios become
// WITHOUT ROWID (a scenario's description last). An existing database keeps
// every row, and every catalog read of those tables answers exactly as before the migration; the
// generations a new mod moves (one trigger instead of four) move as before.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadMigrations, openDatabase } from "../../db/client";
import * as catalog from "../catalog/repository";
import { writeMod, type NormalisedMod } from "./repository";
import { mulberry32 } from "../../../test/fixtures/prng";

const dir = mkdtempSync(join(tmpdir(), "loadout-a6-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Random mods as the scraper stores them: versions (timestamps that tie within a mod too), tags, screenshots, scenarios, dependencies. */
function randomMods(n: number): NormalisedMod[] {
  const rand = mulberry32(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const id = (i: number) => (0x5965550f24a00000n + BigInt(i * 7919)).toString(16).toUpperCase();
  const out: NormalisedMod[] = [];
  for (let i = 0; i < n; i++) {
    const nv = 1 + Math.floor(rand() * 12);
    const versions = Array.from({ length: nv }, (_, v) => ({
      version: `${1 + Math.floor(rand() * 3)}.${v}.${Math.floor(rand() * 10)}`,
      game_version: rand() < 0.2 ? null : `1.${Math.floor(rand() * 3)}.0.${Math.floor(rand() * 100)}`,
      size_bytes: Math.floor(rand() * 1e8),
      changelog: rand() < 0.5 ? null : `changes ${i}.${v}`,
      approved: rand() < 0.9,
      published: rand() < 0.9,
      scenarios_count: Math.floor(rand() * 3),
      dependencies_count: Math.floor(rand() * 4),
      created_at: 1_700_000_000_000 + Math.floor(rand() * 6) * 86_400_000, // ties are likely
    }));
    const uniq = [...new Map(versions.map((v) => [v.version, v])).values()];
    const current = pick(uniq);
    out.push({
      workshop_id: id(i),
      name: `${pick(["Alpha", "Bravo", "Ćharlie", "delta"])} mod ${i}`,
      summary: `summary ${i}`,
      description: "",
      author_id: null,
      author_name: pick(["ann", "bob"]),
      type: "addon",
      license: null,
      version: current.version,
      size_bytes: current.size_bytes,
      image_url: null,
      game_version: current.game_version,
      rating: rand() < 0.5 ? null : rand(),
      rating_count: Math.floor(rand() * 100),
      subscriber_count: Math.floor(rand() * 1000),
      downloads_total: Math.floor(rand() * 5000),
      state: rand() < 0.9 ? "active" : "private",
      obsolete: false,
      tags: [...new Set(Array.from({ length: Math.floor(rand() * 5) }, () => pick(["WEAPONS", "VEHICLES", "MAP", "AI", "GEAR"])))],
      external_links: [],
      created_at: 1_600_000_000_000 + i,
      updated_at: 1_700_000_000_000 + Math.floor(rand() * 1e9),
      versions: uniq,
      dependencies: i > 0 && rand() < 0.6 ? [{ workshop_id: id(Math.floor(rand() * i)), name: "dep", version: "1.0.0", size_bytes: 5 }] : [],
      dependency_tree_ids: [],
      screenshots: Array.from({ length: Math.floor(rand() * 5) }, (_, s) => ({ url: `https://x/${i}/${s}.jpg`, width: rand() < 0.5 ? null : 1920, height: 1080 })),
      scenarios: Array.from({ length: Math.floor(rand() * 4) }, (_, s) => ({
        game_id: `{${(s * 7 + i).toString(16).padStart(16, "0").toUpperCase()}}Missions/m${s}.conf`,
        name: `Mission ${s}`,
        game_mode: pick([null, "Conflict", "Coop"]),
        player_count: pick([null, 32, 64]),
        description: null,
        image_url: null,
      })),
    });
  }
  return out;
}

const TABLES: Record<string, string> = {
  mod_versions: "workshop_id, version",
  mod_tags: "workshop_id, tag",
  mod_screenshots: "workshop_id, position",
  mod_scenarios: "workshop_id, version, game_id",
  mods: "workshop_id",
  mod_dependencies: "rowid",
};

describe("migration a6_crawl_write on an existing database", () => {
  test("keeps every row, and the catalog's reads of the converted tables answer as before", () => {
    const migrations = loadMigrations();
    const at = migrations.findIndex((m) => m.sql.join("").includes("-- from src/db/custom/a6_crawl_write.sql"));
    expect(at).toBeGreaterThan(0);
    const path = join(dir, "loadout.db");
    const { db, sqlite } = openDatabase(path);
    // The schema as it was before: every migration before this one.
    const before = migrations.slice(0, at);
    (db as any).dialect.migrate(before, (db as any).session, {});
    expect((sqlite.query("SELECT sql FROM sqlite_master WHERE name = 'mod_tags'").get() as { sql: string }).sql).not.toContain("WITHOUT ROWID");

    const mods = randomMods(300);
    sqlite.transaction(() => {
      for (const m of mods) writeMod(sqlite, m, [], 1_750_000_000_000);
      // Older versions' scenarios stay as they were scraped: some of another version.
      sqlite.run("INSERT INTO mod_scenarios (workshop_id, version, game_id, name, position) SELECT workshop_id, version, 'old', 'Old', 0 FROM mod_versions WHERE rowid % 5 = 0");
    })();
    const dump = () =>
      Object.fromEntries(Object.entries(TABLES).map(([t, key]) => [t, sqlite.query(`SELECT * FROM ${t} ORDER BY ${key}`).all()]));
    const reads = () =>
      mods.map((m) => {
        const id = m.workshop_id;
        const missionVersion = catalog.latestMissionVersion(sqlite, id);
        return {
          versions: catalog.getVersions(sqlite, id),
          exists: m.versions.map((v) => catalog.versionExists(sqlite, id, v.version)),
          screenshots: catalog.getScreenshots(sqlite, id),
          missionVersion,
          missions: missionVersion ? catalog.getMissions(sqlite, id, missionVersion) : [],
          deps: catalog.getDirectDependencies(sqlite, id),
          counts: catalog.getDependencyCounts(sqlite, id),
        };
      });
    const gens = () => sqlite.query("SELECT key, value FROM catalog_state UNION ALL SELECT key, value FROM live_state ORDER BY 1").all();
    const rowsBefore = dump();
    const readsBefore = reads();
    const tags = () => sqlite.query("SELECT tag, count(*) AS n FROM mod_tags GROUP BY tag ORDER BY tag").all();
    const tagsBefore = tags();
    const gensBefore = gens();

    (db as any).dialect.migrate(migrations, (db as any).session, {});
    for (const t of ["mod_tags", "mod_screenshots", "mod_scenarios"])
      expect((sqlite.query("SELECT sql FROM sqlite_master WHERE name = ?").get(t) as { sql: string }).sql).toContain("WITHOUT ROWID");
    expect(dump()).toEqual(rowsBefore);
    expect(reads()).toEqual(readsBefore);
    expect(tags()).toEqual(tagsBefore);
    expect(gens()).toEqual(gensBefore);
    expect(sqlite.query("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);

    // A new mod moves the same generations by the same amounts as the four triggers did (fts_gen
    // only for a catalog entry), and a tag row still moves mods_gen.
    const gen = () => Object.fromEntries((gens() as { key: string; value: number }[]).map((r) => [r.key, r.value]));
    const g0 = gen();
    sqlite.run("INSERT INTO mods (workshop_id, name, state) VALUES ('PLACEHOLDER00001', '', 'unknown')");
    const g1 = gen();
    expect([g1.mods_gen - g0.mods_gen, g1.detail_gen - g0.detail_gen, g1.fts_gen - g0.fts_gen, g1.catalog_gen - g0.catalog_gen]).toEqual([1, 1, 0, 1]);
    const [fresh] = randomMods(1);
    writeMod(sqlite, { ...fresh!, workshop_id: "NEWMOD0000000001", tags: ["MAP"], dependencies: [] }, [], 1);
    const g2 = gen();
    // mods row (1 each, fts_gen too) + one tag (mods_gen).
    expect([g2.mods_gen - g1.mods_gen, g2.detail_gen - g1.detail_gen, g2.fts_gen - g1.fts_gen, g2.catalog_gen - g1.catalog_gen]).toEqual([2, 1, 1, 1]);
    sqlite.close();
  });
});
