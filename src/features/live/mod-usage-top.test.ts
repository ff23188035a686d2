// live_mod_usage keeps the top of the usage a scan counts (GET /stats/top-mods): topOfUsage picks
// it in one pass, which must be SQLite's `ORDER BY server_count DESC, workshop_id LIMIT n` of
// the same rows, ties and text order included (ids past U+FFFF sort after U+E000-U+FFFF in
// SQLite's BINARY order, before them in UTF-16's).
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { mulberry32 } from "../../../test/fixtures/prng";
import { topOfUsage } from "./repository";

test("topOfUsage is SQLite's ORDER BY server_count DESC, workshop_id LIMIT n, ties and text order included", () => {
  const rnd = mulberry32(29);
  const chars = ["0", "9", "A", "F", "a", "z", "é", "\u{e000}", "\u{fffd}", "\u{1f600}", "\u{10000}"];
  const ids = new Set<string>();
  while (ids.size < 2_000) {
    let id = "5A";
    for (let k = 0, n = 1 + Math.floor(rnd() * 4); k < n; k++) id += chars[Math.floor(rnd() * chars.length)];
    ids.add(id);
  }
  // Few distinct counts: most of the top is decided by the workshop id.
  const usage = [...ids].map((id) => [id, 1 + Math.floor(rnd() * 6), Math.floor(rnd() * 100)] as [string, number, number]);
  const db = new Database(":memory:");
  db.run("CREATE TABLE u (workshop_id TEXT, server_count INTEGER, player_count INTEGER)");
  const ins = db.query("INSERT INTO u VALUES (?, ?, ?)");
  for (const u of usage) ins.run(...u);
  for (const n of [0, 1, 3, 10, 57, 2_000, 2_500]) {
    const sql = db.query("SELECT workshop_id, server_count, player_count FROM u ORDER BY server_count DESC, workshop_id LIMIT ?").values(n);
    expect({ n, top: topOfUsage(usage, n) }).toEqual({ n, top: sql as [string, number, number][] });
  }
  // The input order does not matter, and the input is left as it was.
  const reversed = [...usage].reverse();
  const copy = reversed.map((u) => [...u]);
  expect(topOfUsage(reversed, 10)).toEqual(topOfUsage(usage, 10));
  expect(reversed).toEqual(copy as [string, number, number][]);
  db.close();
});
