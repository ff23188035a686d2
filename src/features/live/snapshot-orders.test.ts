// The snapshot's eight server orders: sorted from the rows a build holds
// (sortOrders), they must be the orders SQLite gives with entry.ts ORDER (the SQL path's), for
// names that NOCASE folds (ASCII only, with the characters between 'Z' and 'a'), code points past
// U+FFFF against U+E000-U+FFFF, equal names, players, sizes and times (the id decides), negative
// and fractional numbers; and SQLite sorts where a value is not one the JavaScript sort mirrors.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { migrate, openDatabase } from "../../db/client";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { mulberry32 } from "../../../test/fixtures/prng";
import { ORDER } from "./entry";
import { SERVER_SORTS } from "./model";
import { SERVER_COLUMNS } from "./repository";
import { buildSnapshot, sortOrders } from "./snapshot";

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const CUT = NOW - 3_600_000;
const ONLINE = `FROM game_servers g INDEXED BY game_servers_seen_idx WHERE g.last_seen_at >= $cut AND g.online = 1`;

const NAMES = [
  "abc", "ABC", "Abc", "abd", "ab", "", "_x", "[x", "`x", "Zed", "zed", "ZED", "~", "{", "a b", "a\tb",
  "é", "É", "e", "E", "z", "ß", "SS", "Ωmega", "ωmega", "\ue000", "\uffff", "😀", "😀a", "\ud83d\ude00", "𝔸", "中文", "１２",
  "Server 1", "server 1", "Server 10", "Server 2", " lead", "lead ",
];

function insert(s: Database, i: number, v: { name: string; players: unknown; first: unknown; seen: unknown; avg: unknown; size: unknown }) {
  s.query(
    `INSERT INTO game_servers (id, sid, host_address, name, ip, port, player_count, player_count_limit, scenario_name, game_version,
       tags, search_text, mods_count, mods_size_bytes, avg_players_7d, online, first_seen_at, last_seen_at)
     VALUES (?, ?, ?, ?, '10.0.0.1', ?, ?, 64, 'Conflict', '1.2.0', ',pc,', ' x ', 0, ?, ?, 1, ?, ?)`,
  ).run(`0190aaaa-0000-7000-8000-${String((i * 7919) % 100_000).padStart(12, "0")}`, i + 1, `10.0.0.1:${2000 + i}`, v.name, 2000 + i, v.players as number, v.size as number, v.avg as number, v.first as number, v.seen as number);
}

/** The orders as SQLite gives them, as row indexes of the rows read in id order. */
function sqlOrders(s: Database) {
  const rows = s.query(`SELECT ${SERVER_COLUMNS}, g.search_text ${ONLINE} ORDER BY g.id`).all({ cut: CUT }) as any[];
  const at = new Map(rows.map((r, i) => [r.sid as number, i]));
  const out: Record<string, number[]> = {};
  for (const sort of SERVER_SORTS) out[sort] = (s.query(`SELECT g.sid ${ONLINE} ORDER BY ${ORDER[sort]}`).values({ cut: CUT }) as [number][]).map(([sid]) => at.get(sid)!);
  return { rows, out };
}

describe("sortOrders", () => {
  test("gives SQLite's order for every sort on adversarial rows", () => {
    for (let round = 0; round < 6; round++) {
      const { db, sqlite: s } = openDatabase(":memory:");
      migrate(db);
      const rand = mulberry32(round + 1);
      const pick = <T,>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
      for (let i = 0; i < 400; i++) {
        insert(s, i, {
          name: pick(NAMES) + (rand() < 0.3 ? pick(NAMES) : ""),
          players: pick([0, 0, 1, 2, 64, 3]),
          first: NOW - pick([0, 1000, 1000, 86_400_000]),
          seen: NOW - pick([0, 0, 60_000]),
          avg: pick([0, 0.5, 1 / 3, 2, 2.0000000001, -1]),
          size: pick([0, 0, 5, 1_000_000_000_000, -3]),
        });
      }
      const { rows, out } = sqlOrders(s);
      const mine = sortOrders(rows)!;
      expect(mine).not.toBeNull();
      for (const sort of SERVER_SORTS) expect({ sort, order: Array.from(mine[sort]) }).toEqual({ sort, order: out[sort]! });
      s.close();
    }
  });

  test("leaves to SQLite a value it does not mirror", () => {
    const row = { last_seen_at: NOW, first_seen_at: NOW, player_count: 1, avg_players_7d: 1, mods_size_bytes: 1, name: "a" } as any;
    expect(sortOrders([row])).not.toBeNull();
    for (const odd of [{ name: "a\u0000b" }, { name: "bad \ufffd" }, { name: null }, { player_count: "7" }, { mods_size_bytes: null }, { avg_players_7d: Infinity }, { last_seen_at: 2 ** 60 }]) {
      expect(sortOrders([row, { ...row, ...odd }])).toBeNull();
    }
  });
});

describe("a build's orders", () => {
  let t: TestApp;
  const clock = new TestClock(NOW);
  beforeAll(async () => {
    t = await createTestApp({ clock });
  });
  afterAll(() => t.close());

  test("are SQLite's, sorted here or (a name with a NUL) by SQLite", () => {
    const s = t.deps.sqlite;
    for (let i = 0; i < 120; i++) insert(s, i, { name: NAMES[i % NAMES.length]!, players: i % 4, first: NOW - (i % 3), seen: NOW, avg: (i % 5) / 3, size: i % 6 });
    const check = () => {
      const snap = buildSnapshot(s, NOW);
      const { out } = sqlOrders(s);
      for (const sort of SERVER_SORTS) expect({ sort, order: Array.from(snap.order[sort]) }).toEqual({ sort, order: out[sort]! });
    };
    check();
    insert(s, 500, { name: "nul\u0000name", players: 1, first: NOW, seen: NOW, avg: 0, size: 0 });
    insert(s, 501, { name: "nul", players: 1, first: NOW, seen: NOW, avg: 0, size: 0 });
    check();
  });
});
