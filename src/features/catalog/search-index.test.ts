// The catalog search in memory answers exactly what FTS5 answers: the same rows match, ranked in
// bm25()'s order with its tie-breaker, the same totals, for random searches over a catalog with
// words in every column, repeated words, case and diacritics, other scripts and placeholders;
// a stale index is never used; a write is seen after the next build.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../../test/helpers";
import { mulberry32 } from "../../../test/fixtures/prng";
import { insertCatalogRows } from "../../../test/fixtures/catalog-rows";
import { autocompleteSql, listModsSql } from "../../../test/truth/catalog-sql";
import { catalogStatements, searchWords, ftsQueryOf, type ModSort } from "./repository";
import { answerCacheCounts, autocomplete, listMods } from "./list";
import { buildSearchIndex, foldWord, peekSearchIndex, REBUILD_MS, searchIndex } from "./search-index";
import { matchRows, rankNameRows, rankRows } from "./search-rank";

let t: TestApp;
const WORDS = [
  "Alpha", "alphabet", "bravo", "CONFLICT", "conflicts", "Everon", "arland", "Training", "milsim", "école", "Ecole", "Öst",
  "RHS", "rhs", "Zeta", "a", "Штурм", "штурмовик", "Straße", "İstanbul", "戦車", "Ελλάδα", "Cafe\u0301", "2v2", "42", "x",
];
const TAGS = ["WEAPONS", "VEHICLES", "MAP", "GEAR", "MISC"];
const N = 900;

function insertCatalog(seed: number) {
  const rnd = mulberry32(seed);
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(rnd() < 0.5 ? " " : "-");
  insertCatalogRows(t.deps.sqlite, N, 0x5b00000000000000n, (i) => {
    const tags = [...new Set(Array.from({ length: Math.floor(rnd() * 3) }, () => pick(TAGS)))];
    return {
      name: words(1 + Math.floor(rnd() * 4)),
      summary: rnd() < 0.15 ? "" : words(Math.floor(rnd() * 12)),
      author_name: pick(["Bohemia", "rhs team", "Solo", "Öst Works", ""]),
      size_bytes: Math.floor(rnd() * 5) * 1_000_000,
      state: rnd() < 0.08 ? "unknown" : "active",
      tags,
      updated_at: 1_700_000_000_000 + i,
    };
  });
}

function randomSearch(rnd: () => number): string {
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
  const word = () => {
    const w = pick(WORDS);
    return rnd() < 0.4 ? w.slice(0, 1 + Math.floor(rnd() * w.length)) : rnd() < 0.5 ? w.toUpperCase() : w;
  };
  return Array.from({ length: 1 + Math.floor(rnd() * 3) }, word).join(pick([" ", ", ", "-"]));
}

/** What FTS5 answers: the matches by bm25() then rowid. */
function fromFts(search: string): { ranked: number[]; matches: number[] } {
  const cs = catalogStatements(t.deps.sqlite);
  const q = ftsQueryOf(searchWords(search)!);
  const rows = cs.ftsRanked.values({ q }) as [number, number][];
  rows.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  const matches = (cs.ftsRowids.values({ q }) as [number][]).map((r) => r[0]).sort((a, b) => a - b);
  return { ranked: rows.map((r) => r[0]), matches };
}

beforeAll(async () => {
  t = await createTestApp();
  insertCatalog(23);
});
afterAll(() => t.close());

describe("catalog search in memory", () => {
  test("folds words as the FTS5 tokenizer does (ASCII by lower-casing, others by the tokenizer itself)", () => {
    expect(foldWord("RHS")).toBe("rhs");
    expect(foldWord("École")).toBe("ecole");
    expect(foldWord("ШТУРМ")).toBe("штурм");
    expect(foldWord("ΕΛΛΆΔΑ")).toBe("ελλάδα"); // the tokenizer keeps the Greek tonos
    expect(foldWord("戦車")).toBe("戦車");
  });

  test("the same matches, order and totals as FTS5 with bm25() for 1,500 random searches", () => {
    const ix = buildSearchIndex(t.deps.sqlite, -1);
    const rnd = mulberry32(5);
    let nonEmpty = 0;
    let multiWord = 0;
    for (let k = 0; k < 1500; k++) {
      const search = randomSearch(rnd);
      const words = searchWords(search)!;
      const want = fromFts(search);
      const all = rankRows(ix, words, Infinity);
      expect({ search, got: Array.from(all!.rowids) }).toEqual({ search, got: want.ranked });
      expect(all!.total).toBe(want.ranked.length);
      // The best `top` alone (a bounded heap) are the first `top` of the full order.
      const top = 1 + Math.floor(rnd() * 30);
      const best = rankRows(ix, words, top)!;
      expect({ search, top, got: Array.from(best.rowids) }).toEqual({ search, top, got: want.ranked.slice(0, top) });
      expect(best.total).toBe(want.ranked.length);
      expect({ search, m: Array.from(matchRows(ix, words)!) }).toEqual({ search, m: want.matches });
      if (want.ranked.length > 0) nonEmpty++;
      if (words.length > 1 && want.ranked.length > 1) multiWord++;
    }
    expect(nonEmpty).toBeGreaterThan(600);
    expect(multiWord).toBeGreaterThan(200);
  });

  test("any page of a ranking (offset + limit, with a row filter) is that window of FTS5's full order", () => {
    const ix = buildSearchIndex(t.deps.sqlite, -1);
    const rnd = mulberry32(17);
    let windows = 0;
    for (let k = 0; k < 600; k++) {
      const search = randomSearch(rnd);
      const words = searchWords(search)!;
      const keepAll = rnd() < 0.5;
      const keep = keepAll ? undefined : (row: number) => row % 3 !== 0;
      const want = fromFts(search).ranked.filter((row) => !keep || keep(row));
      const limit = [1, 5, 20][Math.floor(rnd() * 3)]!;
      const offset = limit * Math.floor(rnd() * 6);
      const got = rankRows(ix, words, offset + limit, keep)!;
      expect({ search, keepAll, offset, limit, got: Array.from(got.rowids.subarray(offset)) }).toEqual({ search, keepAll, offset, limit, got: want.slice(offset, offset + limit) });
      expect(got.total).toBe(want.length);
      if (want.length > offset) windows++;
    }
    expect(windows).toBeGreaterThan(150);
  });

  test("the autocomplete's names ranked as FTS5 ranks `name : (…)` (only the name's instances count) for 1,500 random texts", () => {
    const ix = buildSearchIndex(t.deps.sqlite, -1);
    const rnd = mulberry32(31);
    let nonEmpty = 0;
    let differs = 0;
    for (let k = 0; k < 1500; k++) {
      const search = randomSearch(rnd);
      const words = searchWords(search)!;
      const q = `name : (${ftsQueryOf(words)})`;
      const want = (t.deps.sqlite.query("SELECT rowid FROM mods_fts WHERE mods_fts MATCH ? ORDER BY rank, rowid").values(q) as [number][]).map((r) => r[0]);
      const all = rankNameRows(ix, words, Infinity)!;
      expect({ search, got: Array.from(all.rowids) }).toEqual({ search, got: want });
      expect(all.total).toBe(want.length);
      const top = rankNameRows(ix, words, 20)!;
      expect({ search, got: Array.from(top.rowids) }).toEqual({ search, got: want.slice(0, 20) });
      if (want.length > 0) nonEmpty++;
      // Where the name-only order differs from the whole-row search's, the name postings decided it.
      const whole = Array.from(rankRows(ix, words, Infinity)!.rowids).filter((r) => want.includes(r));
      if (whole.join() !== want.join()) differs++;
    }
    expect(nonEmpty).toBeGreaterThan(400);
    expect(differs).toBeGreaterThan(50);
  });

  test("GET /mods with a search answers as the SQL path (every sort, tags, pages)", () => {
    const rnd = mulberry32(9);
    const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
    const sorts: ModSort[] = ["relevance", "relevance", "name_asc", "size_desc", "updated_desc"];
    for (let k = 0; k < 600; k++) {
      const p = { search: randomSearch(rnd), tag: rnd() < 0.3 ? pick([...TAGS, "NO SUCH TAG"]) : undefined, sort: pick(sorts), page: 1 + Math.floor(rnd() * 3), limit: pick([1, 5, 20]) };
      expect({ p, got: listMods(t.deps.sqlite, p) }).toEqual({ p, got: listModsSql(t.deps.sqlite, p) });
    }
    // Answered from the index of the current generation.
    const ix = peekSearchIndex(t.deps.sqlite);
    expect(ix).not.toBeNull();
    expect(searchIndex(t.deps.sqlite)).toBe(ix);
    expect(ix!.nRow).toBe((t.deps.sqlite.query("SELECT count(*) AS n FROM mods WHERE state != 'unknown'").get() as { n: number }).n);
  });

  test("a write to an indexed column moves the generation: the stale index is never used, the next build sees it", () => {
    const sqlite = t.deps.sqlite;
    const now = performance.now();
    // A build at a known time (a write first, so the generation differs from the last build's).
    sqlite.query("UPDATE mods SET summary = summary || ' zulu' WHERE rowid = 2").run();
    const before = searchIndex(sqlite, now + 10 * REBUILD_MS)!;
    expect(before).not.toBeNull();
    // A write that changes nothing mods_fts holds keeps the index.
    sqlite.query("UPDATE mods SET subscriber_count = subscriber_count + 1 WHERE rowid = 1").run();
    expect(searchIndex(sqlite, now + 10 * REBUILD_MS + 1)).toBe(before);
    const id = (sqlite.query("SELECT workshop_id FROM mods WHERE state = 'active' ORDER BY rowid DESC LIMIT 1").get() as { workshop_id: string }).workshop_id;
    sqlite.query("UPDATE mods SET summary = 'quetzalcoatl' WHERE workshop_id = ?").run(id);
    // Within REBUILD_MS of the last build: no index, FTS5 answers, and sees the write.
    expect(searchIndex(sqlite, now + 10 * REBUILD_MS + 2)).toBeNull();
    const p = { search: "quetz", sort: "relevance" as const, page: 1, limit: 20 };
    expect(listMods(sqlite, p).rows.map((r) => r.workshop_id)).toEqual([id]);
    // Later a read builds the index of the new generation, which holds the new word.
    const later = searchIndex(sqlite, now + 12 * REBUILD_MS)!;
    expect(later.gen).toBeGreaterThan(before.gen);
    expect(Array.from(rankRows(later, searchWords("quetz")!, 10)!.rowids)).toEqual(fromFts("quetz").ranked);
    // A placeholder becoming a catalog entry, and a deletion, move it too.
    sqlite.query("UPDATE mods SET state = 'active' WHERE workshop_id = (SELECT workshop_id FROM mods WHERE state = 'unknown' LIMIT 1)").run();
    expect(searchIndex(sqlite, now + 14 * REBUILD_MS)!.gen).toBeGreaterThan(later.gen);
    const ix = peekSearchIndex(sqlite)!;
    sqlite.query("DELETE FROM mods WHERE workshop_id = ?").run(id);
    const after = searchIndex(sqlite, now + 16 * REBUILD_MS)!;
    expect(after.gen).toBeGreaterThan(ix.gen);
    expect(rankRows(after, searchWords("quetz")!, 10)!.total).toBe(0);
  });
  test("GET /mods/autocomplete answers as the SQL path for random prefixes, and a write to a name is seen at once", () => {
    const sqlite = t.deps.sqlite;
    // Current (built now; the last test built at a time ahead of the clock).
    expect(searchIndex(sqlite, performance.now() + 20 * REBUILD_MS)).not.toBeNull();
    const rnd = mulberry32(43);
    let filled = 0;
    for (let k = 0; k < 800; k++) {
      const text = randomSearch(rnd).slice(0, 1 + Math.floor(rnd() * 12));
      const want = autocompleteSql(sqlite, text);
      expect({ text, got: autocomplete(sqlite, text) }).toEqual({ text, got: want });
      if (want.length > 0) filled++;
    }
    expect(filled).toBeGreaterThan(300);
    // Kept while the catalog's generations stand: a write elsewhere does not drop the answer.
    const acHits = () => answerCacheCounts(sqlite).find((c) => c.cache === "autocomplete")!.hits;
    const a = autocomplete(sqlite, "zeta alp");
    sqlite.query("UPDATE catalog_state SET value = value WHERE key = 'mods_gen'").run(); // a write that moves no generation
    const hits = acHits();
    expect(autocomplete(sqlite, "zeta alp")).toEqual(a);
    expect(acHits()).toBe(hits + 1);
    // A renamed mod is seen by the next read (its generation moved: the cached answers are dropped).
    const id = (sqlite.query("SELECT workshop_id FROM mods WHERE state = 'active' ORDER BY rowid LIMIT 1").get() as { workshop_id: string }).workshop_id;
    sqlite.query("UPDATE mods SET name = 'Zeta Alpzzz Renamed' WHERE workshop_id = ?").run(id);
    const after = autocomplete(sqlite, "zeta alp");
    expect(after).toEqual(autocompleteSql(sqlite, "zeta alp"));
    expect(after.map((r) => r.name)).toContain("Zeta Alpzzz Renamed");
    expect(autocomplete(sqlite, "alpzzz")).toEqual(autocompleteSql(sqlite, "alpzzz"));
    expect(autocomplete(sqlite, "alpzzz").map((r) => r.workshop_id)).toEqual([id]);
  });
});
