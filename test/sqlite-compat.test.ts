// The database opens in the SQLite the operator's system ships (3.37 and later:
// Ubuntu 22.04, Debian 12, Python's sqlite3 module). SQLite parses the whole schema when it opens
// a file, so one view or trigger written for a newer SQLite makes every Loadout database and
// backup unreadable there ("malformed database schema").
//  1. A static check over the final schema (sqlite_schema.sql of a fresh database) refuses what
//     SQLite 3.37 does not know, so a later migration cannot bring it back unnoticed.
//  2. Debian's /usr/bin/sqlite3 and python3's sqlite3 module (the machine's oldest SQLite; .ci/run
//     installs them) open a fresh database, one migrated through every migration with data, and a
//     backup of it: PRAGMA integrity_check and a read of every table and view.
//  3. The definitions a9_sqlite_3_37.sql made again give what the old ones gave: the same writes
//     on a database migrated to just before it (old definitions, run by Bun's SQLite) and on one
//     migrated through it (new definitions, run by Bun's SQLite, by Debian's sqlite3 and by
//     Python's module) leave the same rows in every table and view they derive.
// Over 500 lines on purpose: the three checks share their migrated files, seeds and runners of the
// distribution's sqlite3 and python3.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadMigrations, openDatabase } from "../src/db/client";
import { testConfig } from "../src/config";
import { writeBackup } from "../src/features/backup/service";
import { mulberry32 } from "./fixtures/prng";

setDefaultTimeout(120_000);
const SQLITE3 = "/usr/bin/sqlite3";
const scratch = mkdtempSync(join(tmpdir(), "loadout-sqlite-compat-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// ---- 1. the static check ------------------------------------------------------------------------

/** The SQL with string literals, quoted names and comments blanked (so a word in them is not code). */
function codeOf(sql: string): string {
  let out = "";
  for (let i = 0; i < sql.length; ) {
    const c = sql[i]!;
    if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end;
      continue;
    }
    if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
      out += " ";
      continue;
    }
    const close = c === "'" ? "'" : c === '"' ? '"' : c === "`" ? "`" : c === "[" ? "]" : null;
    if (close) {
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(close, j);
        if (k < 0) {
          j = sql.length;
          break;
        }
        if (close !== "]" && sql[k + 1] === close) {
          j = k + 2; // a doubled quote inside
          continue;
        }
        j = k + 1;
        break;
      }
      out += c === "'" ? "''" : "x";
      i = j;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** What SQLite 3.37 cannot parse or run, by the version that brought it. */
const NEWER: [RegExp, string][] = [
  [/->/, "the JSON operators -> and ->> (3.38)"],
  [/\bunixepoch\s*\(/i, "unixepoch() (3.38)"],
  [/\bformat\s*\(/i, "format() (3.38)"],
  [/\b(RIGHT|FULL)\s+(OUTER\s+)?JOIN\b/i, "RIGHT or FULL JOIN (3.39)"],
  [/\bIS\s+(NOT\s+)?DISTINCT\s+FROM\b/i, "IS [NOT] DISTINCT FROM (3.39)"],
  [/\bunhex\s*\(/i, "unhex() (3.41)"],
  [/\bjson_error_position\s*\(/i, "json_error_position() (3.42)"],
  [/\b(octet_length|timediff)\s*\(/i, "octet_length() or timediff() (3.43)"],
  [/\b(string_agg|concat|concat_ws)\s*\(/i, "string_agg(), concat() or concat_ws() (3.44)"],
  [/\bjsonb/i, "JSONB and its functions (3.45)"],
  [/\bjson_pretty\s*\(/i, "json_pretty() (3.46)"],
  [/\bif\s*\(/i, "if() (3.48)"],
  [/\bunistr(_quote)?\s*\(/i, "unistr() (3.50)"],
];
const NOT_CALLS = new Set(["OVER", "AS", "FILTER", "WINDOW", "IN", "EXISTS", "VALUES", "FROM", "JOIN", "ON", "USING", "WHERE", "AND", "OR", "NOT", "THEN", "ELSE", "WHEN", "SELECT"]);

/** The constructs of `sql` that need an SQLite newer than 3.37 (empty: none). */
export function newerThan337(sql: string): string[] {
  const code = codeOf(sql);
  const found = NEWER.filter(([re]) => re.test(code)).map(([, what]) => what);
  // An aggregate's own ORDER BY (group_concat(x, ',' ORDER BY y): 3.44): ORDER BY at the top
  // level of a function call's arguments (a subquery, a window or a CTE's body are not calls).
  const call = /([A-Za-z_][A-Za-z0-9_]*)\s*\(/g;
  for (let m; (m = call.exec(code)); ) {
    if (NOT_CALLS.has(m[1]!.toUpperCase())) continue;
    let depth = 0;
    let top = "";
    for (let i = m.index + m[0].length; i < code.length; i++) {
      const ch = code[i]!;
      if (ch === "(") depth++;
      else if (ch === ")") {
        if (depth === 0) break;
        depth--;
      } else if (depth === 0) top += ch;
    }
    if (/^\s*(SELECT|WITH|VALUES)\b/i.test(top)) continue;
    if (/\bORDER\s+BY\b/i.test(top)) {
      found.push(`an aggregate's own ORDER BY, in ${m[1]}(...) (3.44)`);
      break;
    }
  }
  // HAVING without GROUP BY (3.39).
  if (/\bHAVING\b/i.test(code) && !/\bGROUP\s+BY\b/i.test(code)) found.push("HAVING without GROUP BY (3.39)");
  return found;
}

const ALL = loadMigrations();
const A9 = ALL.findIndex((m) => m.sql.join("").includes("-- from src/db/custom/a9_sqlite_3_37.sql"));
const A5 = ALL.findIndex((m) => m.sql.join("").includes("-- from src/db/custom/a5_series_days.sql"));

/** A database file with the first `n` migrations applied (all by default), closed. */
function migratedFile(path: string, n = ALL.length, between?: (sqlite: Database) => void): string {
  mkdirSync(dirname(path), { recursive: true });
  const { db, sqlite } = openDatabase(path);
  if (between) {
    (db as any).dialect.migrate(ALL.slice(0, A5), (db as any).session, {});
    between(sqlite);
  }
  (db as any).dialect.migrate(ALL.slice(0, n), (db as any).session, {});
  sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  sqlite.close();
  return path;
}

describe("the schema needs nothing newer than SQLite 3.37", () => {
  test("no view, trigger, index or table of a fresh database uses a construct of SQLite 3.38 or later", () => {
    const file = migratedFile(join(scratch, "static.db"));
    const db = new Database(file, { readonly: true });
    const objects = db.query("SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL").all() as { type: string; name: string; sql: string }[];
    db.close();
    expect(objects.length).toBeGreaterThan(50);
    expect(objects.map((o) => ({ object: `${o.type} ${o.name}`, newer: newerThan337(o.sql) })).filter((o) => o.newer.length > 0)).toEqual([]);
  });

  test("the check finds what the earlier definitions used, and not what replaced them", () => {
    const a5 = ALL[A5]!.sql.join("");
    const a7 = ALL.find((m) => m.sql.join("").includes("-- from src/db/custom/a7_first_sight_changelog.sql"))!.sql.join("");
    const trigger = a5.slice(a5.indexOf("CREATE TRIGGER game_server_stats_3h_days_ins"), a5.indexOf("END;", a5.indexOf("CREATE TRIGGER game_server_stats_3h_days_ins")) + 4);
    expect(newerThan337(trigger)).toEqual(["an aggregate's own ORDER BY, in group_concat(...) (3.44)"]);
    const view = a7.slice(a7.indexOf("CREATE VIEW game_server_mod_first_changes"), a7.indexOf("WHERE e.first_sizes IS NOT NULL;", a7.indexOf("CREATE VIEW game_server_mod_first_changes")));
    expect(newerThan337(view)).toEqual(["the JSON operators -> and ->> (3.38)", "an aggregate's own ORDER BY, in json_group_array(...) (3.44)"]);
    for (const [sql, what] of [
      ["SELECT a FROM t RIGHT JOIN u ON 1", "RIGHT or FULL JOIN (3.39)"],
      ["SELECT unixepoch('now')", "unixepoch() (3.38)"],
      ["SELECT a IS NOT DISTINCT FROM b", "IS [NOT] DISTINCT FROM (3.39)"],
      ["SELECT string_agg(a, ',') FROM t", "string_agg(), concat() or concat_ws() (3.44)"],
      ["SELECT octet_length(a)", "octet_length() or timediff() (3.43)"],
      ["SELECT jsonb_extract(a, '$')", "JSONB and its functions (3.45)"],
      ["SELECT count(*) FROM t HAVING count(*) > 1", "HAVING without GROUP BY (3.39)"],
    ] as const) {
      expect(newerThan337(sql)).toEqual([what]);
    }
    // Not code: inside strings, quoted names and comments; subqueries and windows may order.
    expect(newerThan337(`SELECT '->' AS "RIGHT JOIN", group_concat(x, '') FROM (SELECT x FROM t ORDER BY y) -- a ->> b`)).toEqual([]);
    expect(newerThan337("SELECT group_concat(x) OVER (ORDER BY y) FROM t")).toEqual([]);
    expect(newerThan337("SELECT iif(a, 1, 2), group_concat(a) FROM t GROUP BY b HAVING count(*) > 1")).toEqual([]);
  });
});

// ---- data: a realistic amount, written before and after the migrations -------------------------

const DAY = 86_400_000;
const wid = (n: number) => n.toString(16).toUpperCase().padStart(16, "0");
const T0 = Date.UTC(2026, 9, 1);

/** Live servers, their roll-ups and mod lists, the catalog and lists, as the version before a5 stored them. */
function seedBeforeA5(sqlite: Database) {
  const rand = mulberry32(44);
  sqlite.transaction(() => {
    const server = sqlite.query(
      `INSERT INTO game_servers (id, sid, source, source_id, host_address, name, ip, port, country, player_count, player_count_limit, queue_players_count,
         wait_time_estimation, scenario_name, game_version, password_protected, official, tags, search_text, mods_count, mods_size_bytes, mods_hash, online,
         players_sum_7d, samples_7d, avg_players_7d, first_seen_at, last_seen_at)
       VALUES (?, ?, 'battlemetrics', ?, ?, ?, ?, 2001, 'DE', ?, 64, 0, 0, 'Conflict', '1.2.1', 0, 0, '[]', ?, 25, 1000000, 'h', 1, 0, 0, 0, ?, ?)`,
    );
    for (let s = 1; s <= 60; s++) server.run(`srv-${s}`, s, `bm-${s}`, `10.0.${s}.1:2001`, `Server ${s}`, `10.0.${s}.1`, Math.floor(rand() * 64), `server ${s}`, T0, T0 + 30 * DAY);
    const mod = sqlite.query(
      `INSERT INTO mods (workshop_id, name, summary, description, author_name, type, version, size_bytes, rating_count, subscriber_count, downloads_total, state, obsolete, tags_json, external_links_json)
       VALUES (?, ?, 's', 'd', 'author', 'mod', '1.0.0', ?, 0, 0, 0, 'ok', 0, '[]', '[]')`,
    );
    for (let m = 1; m <= 300; m++) mod.run(wid(m), `Mod ${m}`, 1000 * m);
    const stat = (table: string) =>
      sqlite.query(`INSERT INTO ${table} (sid, time, n, players_sum, players_max, queue_sum, queue_max, wait_sum) VALUES (?, ?, ?, ?, ?, 0, 0, 0)`);
    const s3h = stat("game_server_stats_3h");
    const s1h = stat("game_server_stats_hourly");
    for (let s = 1; s <= 60; s++) {
      for (let b = 0; b < 30 * 8; b++) s3h.run(s, T0 + b * 3 * 3_600_000, 36, Math.floor(rand() * 2000), Math.floor(rand() * 64));
      for (let b = 0; b < 7 * 24; b++) s1h.run(s, T0 + 23 * DAY + b * 3_600_000, 12, Math.floor(rand() * 700), Math.floor(rand() * 64));
    }
    const smod = sqlite.query("INSERT INTO game_server_mods_by_sid (server_sid, workshop_id, name, version, position) VALUES (?, ?, ?, ?, ?)");
    for (let s = 1; s <= 60; s++) for (let p = 0; p < 25; p++) smod.run(s, wid(1 + ((s * 7 + p * 13) % 300)), `Mod ${p}`, "1.0.0", p);
    const event = sqlite.query("INSERT INTO game_server_mod_events (server_sid, time, n, changes) VALUES (?, ?, 1, ?)");
    for (let e = 0; e < 200; e++) event.run(1 + (e % 60), T0 + e * 3_600_000, JSON.stringify([["updated", wid(1 + e), `Mod ${e}`, "1.0.0", "1.0.1", 1234]]));
    sqlite.query("INSERT INTO users (id, email, email_verified, display_name, role, is_approved, created_at, updated_at) VALUES ('u1', 'a@example.com', 1, 'A', 'admin', 1, 0, 0)").run();
    const list = sqlite.query("INSERT INTO lists (id, owner_id, name, description, is_public, share_token, suggestion_token, require_deploy_approval, created_at, updated_at) VALUES (?, 'u1', ?, '', 1, ?, ?, 0, 0, 0)");
    const item = sqlite.query("INSERT INTO list_items (list_id, workshop_id, name, position, added_at) VALUES (?, ?, ?, ?, 0)");
    for (let l = 1; l <= 20; l++) {
      list.run(`list-${l}`, `List ${l}`, `share-${l}`, `sugg-${l}`);
      for (let p = 0; p < 40; p++) item.run(`list-${l}`, wid(1 + ((l * 11 + p) % 300)), `Mod ${p}`, p);
    }
  })();
}

// ---- the same writes, as SQL text every engine runs ----------------------------------------------

/**
 * Writes through every object a9 made again, in an order no index gives: roll-up buckets inserted
 * shuffled (with values the compact form does not take), updated in place, moved to another day
 * and server, deleted; mod lists written through the views (insert, update in place, move,
 * delete) and directly; first sightings whose changelog is materialised by a later list change.
 */
function workload(): string {
  const rand = mulberry32(4437);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const out: string[] = ["PRAGMA foreign_keys = ON;", "BEGIN;"];
  for (let s = 101; s <= 106; s++) {
    out.push(
      `INSERT INTO game_servers (id, sid, source, source_id, host_address, name, ip, port, country, player_count, player_count_limit, queue_players_count, wait_time_estimation, scenario_name, game_version, password_protected, official, tags, search_text, mods_count, mods_size_bytes, mods_hash, online, players_sum_7d, samples_7d, avg_players_7d, first_seen_at, last_seen_at) VALUES ('w-${s}', ${s}, 'battlemetrics', 'w${s}', '10.1.${s}.1:2001', 'W ${s}', '10.1.${s}.1', 2001, 'DE', 0, 64, 0, 0, 'Conflict', '1.2.1', 0, 0, '[]', 'w', 0, 0, 'h', 1, 0, 0, 0, ${T0}, ${T0});`,
    );
  }
  for (const table of ["game_server_stats_3h", "game_server_stats_hourly"]) {
    const step = table.endsWith("3h") ? 3 * 3_600_000 : 3_600_000;
    const rows: [number, number][] = [];
    for (let s = 101; s <= 106; s++) for (let b = 0; b < (12 * DAY) / step; b++) rows.push([s, T0 + b * step]);
    for (let i = rows.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [rows[i], rows[j]] = [rows[j]!, rows[i]!];
    }
    for (const [s, time] of rows) {
      const odd = rand() < 0.03; // a real or an off-step time: the day's text says '?'
      const t = odd && rand() < 0.5 ? time + 7 : time;
      const players = odd && t === time ? "12.5" : String(Math.floor(rand() * 900));
      out.push(`INSERT INTO ${table} (sid, time, n, players_sum, players_max, queue_sum, queue_max, wait_sum) VALUES (${s}, ${t}, 12, ${players}, ${Math.floor(rand() * 64)}, 0, 0, 0);`);
    }
    for (let k = 0; k < 60; k++) {
      const [s, time] = pick(rows);
      out.push(`UPDATE ${table} SET players_sum = players_sum + 1, n = n + 1 WHERE sid = ${s} AND time = ${time};`);
    }
    for (let k = 0; k < 20; k++) {
      const [s, time] = pick(rows);
      // Moved to another day of another server (a free slot: times end in 5 ms).
      out.push(`UPDATE ${table} SET sid = ${101 + ((s - 100) % 6)}, time = ${time + 3 * DAY + 5} WHERE sid = ${s} AND time = ${time};`);
    }
    for (let k = 0; k < 40; k++) {
      const [s, time] = pick(rows);
      out.push(`DELETE FROM ${table} WHERE sid = ${s} AND time = ${time};`);
    }
  }
  // Mod lists through the views, and directly.
  const lists = new Map<number, string[]>();
  for (let k = 0; k < 150; k++) {
    const s = 101 + Math.floor(rand() * 6);
    const mods = lists.get(s) ?? [];
    const w = wid(1 + Math.floor(rand() * 300));
    if (mods.includes(w)) continue;
    mods.push(w);
    lists.set(s, mods);
    out.push(`INSERT INTO game_server_mods_by_sid (server_sid, workshop_id, name, version, position) VALUES (${s}, '${w}', 'Mod ${k}', ${rand() < 0.2 ? "NULL" : `'1.${k}.0'`}, ${mods.length - 1});`);
  }
  out.push(`INSERT INTO game_server_mods (server_id, workshop_id, name, version, position) VALUES ('w-101', '${wid(999)}', NULL, '2.0', 99);`);
  lists.get(101)!.push(wid(999));
  for (const [s, mods] of lists) {
    const w = mods[Math.floor(rand() * mods.length)]!;
    out.push(`UPDATE game_server_mods_by_sid SET version = '9.9.9', name = 'Renamed' WHERE server_sid = ${s} AND workshop_id = '${w}';`);
  }
  for (const [s, mods] of [...lists].slice(0, 3)) {
    const w = mods[0]!;
    const to = s === 106 ? 105 : 106;
    if (!lists.has(to) || lists.get(to)!.includes(w)) continue;
    out.push(`UPDATE game_server_mods_by_sid SET server_sid = ${to} WHERE server_sid = ${s} AND workshop_id = '${w}';`);
    mods.splice(0, 1);
    lists.get(to)!.push(w);
  }
  for (const [s, mods] of [...lists].slice(2, 5)) {
    const w = mods[mods.length - 1]!;
    out.push(`DELETE FROM game_server_mods_by_sid WHERE server_sid = ${s} AND workshop_id = '${w}';`);
    mods.pop();
  }
  out.push(`UPDATE game_server_mod_lists SET mods = json_insert(mods, '$[#]', json_array('${wid(777)}', 'Direct', '1.0', 500)) WHERE server_sid = 104;`);
  // First sightings: the changelog is the list as first seen until the list changes.
  for (const s of [101, 102, 103]) {
    const n = (lists.get(s) ?? []).length;
    out.push(
      `INSERT INTO game_server_mod_events (server_sid, time, n, changes, first_sizes) VALUES (${s}, ${T0 + s}, ${n}, '[]', '${JSON.stringify(Array.from({ length: n }, (_, i) => (i % 4 === 0 ? null : 1000 + i)))}');`,
    );
  }
  out.push(`INSERT INTO game_server_mod_changes (server_sid, time, action, workshop_id, mod_name, old_version, new_version, size_bytes) VALUES (105, ${T0 + 9}, 'updated', '${wid(5)}', NULL, '1.0', '1.1', 42);`);
  // Lists of other shapes (raw SQL may write anything): an object, whose keys `->>` read as
  // labels, '$' paths and '[N]' paths; entries whose name or version is an array or an object;
  // first sizes that are not numbers.
  const shaped: [number, unknown, string][] = [
    [104, { a: [wid(41), "Object", null, 0], "$[0]": [wid(42), "Dollar", "1", 1], "[1]": [wid(43), "Bracket", "2", 2], "we ird": [wid(44), "Space", "3", 3], b_2: [wid(45), "Under", "4", 4] }, '{"a": 11, "we ird": 44, "b_2": [5, 5]}'],
    [105, [[wid(51), ["nested"], { v: 1 }, 1.5], [wid(52), "Plain", true, 2], [wid(53), { n: "x" }, "3", null]], '[[1, 2], {"k": 3}, null]'],
  ];
  for (const [sid, mods, sizes] of shaped) {
    out.push(`UPDATE game_server_mod_lists SET mods = '${JSON.stringify(mods)}' WHERE server_sid = ${sid};`);
    out.push(`INSERT INTO game_server_mod_events (server_sid, time, n, changes, first_sizes) VALUES (${sid}, ${T0 + 2 * sid}, 3, '[]', '${sizes}');`);
  }
  out.push("COMMIT;");
  // What the views show while the first sightings stand (also as JSON built from their columns),
  // then the changes that materialise them.
  out.push("CREATE TABLE compat_first_changes AS SELECT * FROM game_server_mod_first_changes;");
  out.push("CREATE TABLE compat_changes AS SELECT * FROM game_server_mod_changes;");
  out.push("CREATE TABLE compat_mods_json AS SELECT server_sid, json_array(workshop_id, name, version, position) AS entry FROM game_server_mods_by_sid;");
  out.push("CREATE TABLE compat_changes_json AS SELECT id, json_array(action, workshop_id, mod_name, old_version, new_version, size_bytes) AS entry FROM game_server_mod_changes;");
  out.push(`UPDATE game_server_mod_lists SET mods = json_insert(mods, '$[#]', json_array('${wid(888)}', 'Later', '1.0', 600)) WHERE server_sid = 101;`);
  out.push("DELETE FROM game_server_mod_lists WHERE server_sid = 102;");
  out.push("UPDATE game_server_mod_lists SET mods = '[]' WHERE server_sid IN (104, 105);");
  return out.join("\n") + "\n";
}

/** Every row of what the workload writes or derives, as text (ordered by every column). */
function dump(file: string): Record<string, string> {
  const db = new Database(file, { readonly: true });
  try {
    const out: Record<string, string> = {};
    for (const name of [
      "game_server_stats_3h",
      "game_server_stats_3h_days",
      "game_server_stats_3h_points",
      "game_server_stats_hourly",
      "game_server_stats_hourly_days",
      "game_server_stats_hourly_points",
      "game_server_mod_lists",
      "game_server_mods_by_sid",
      "game_server_mods",
      "game_server_mods_ver",
      "game_server_mod_events",
      "game_server_mod_changes",
      "game_server_mod_first_changes",
      "compat_first_changes",
      "compat_changes",
      "compat_mods_json",
      "compat_changes_json",
      "live_state",
    ]) {
      const cols = (db.query(`SELECT name FROM pragma_table_info('${name}')`).all() as { name: string }[]).map((c) => c.name);
      // The counters a9's definitions moved (a later migration adds others: series_gen, community_gen).
      const where = name === "live_state" ? ` WHERE key IN ('servers_gen', 'catalog_gen', 'mod_names_ver')` : "";
      // quote(): the value with its type (1 and 1.0 and '1' differ).
      const rows = db.query(`SELECT ${cols.map((c) => `quote("${c}")`).join(", ")} FROM ${name}${where} ORDER BY ${cols.map((_, i) => i + 1).join(", ")}`).values();
      out[name] = JSON.stringify(rows);
    }
    return out;
  } finally {
    db.close();
  }
}

const run = (cmd: string[], stdin?: string) => {
  const p = Bun.spawnSync(cmd, { stdin: stdin === undefined ? "ignore" : Buffer.from(stdin), stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

/** Every table and view of the file, read by Debian's sqlite3 and by Python's module: what each says. */
function readWithDistributionTools(file: string) {
  const names = (() => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.query("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    } finally {
      db.close();
    }
  })();
  const reads = names.map((n) => `SELECT * FROM "${n}" LIMIT 1;`).join("\n");
  const cli = run([SQLITE3, "-readonly", "-bail", file], `PRAGMA integrity_check;\n.mode list\nSELECT 'tables-read', count(*) FROM sqlite_schema;\n${reads}\nSELECT 'all-read';\n`);
  const py = run([
    "python3",
    "-c",
    [
      "import sqlite3, sys",
      "c = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)",
      "print(sqlite3.sqlite_version)",
      "print(c.execute('PRAGMA integrity_check').fetchone()[0])",
      "names = [r[0] for r in c.execute(\"SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY name\")]",
      "for n in names: c.execute('SELECT * FROM \"%s\" LIMIT 1' % n).fetchall()",
      "print(len(names))",
    ].join("\n"),
    file,
  ]);
  return { names, cli, py };
}

describe("the distribution's SQLite opens every Loadout database", () => {
  let fresh: string;
  let migrated: string;
  let backup: string;

  beforeAll(() => {
    expect(existsSync(SQLITE3)).toBe(true); // .ci/run installs Debian's sqlite3
    fresh = migratedFile(join(scratch, "fresh.db"));
    const dataDir = join(scratch, "data");
    migrated = migratedFile(join(dataDir, "loadout.db"), ALL.length, seedBeforeA5);
    backup = writeBackup(testConfig({ LOADOUT_DATA_DIR: dataDir }), join(scratch, "backup.db")).file;
  });

  test("the machine's sqlite3 and python3 are there (their SQLite versions logged beside Bun's)", () => {
    const cli = run([SQLITE3, "--version"]);
    expect(cli.code).toBe(0);
    const py = run(["python3", "-c", "import sqlite3; print(sqlite3.sqlite_version)"]);
    expect(py.code).toBe(0);
    const bun = (new Database(":memory:").query("SELECT sqlite_version() AS v").get() as { v: string }).v;
    console.log(`SQLite: Bun ${bun}, ${SQLITE3} ${cli.out.split(" ")[0]}, python3 ${py.out.trim()}`);
  });

  test("the migrated database holds the data written before the migrations, carried through them", () => {
    const db = new Database(migrated, { readonly: true });
    try {
      const count = (sql: string) => (db.query(sql).get() as { n: number }).n;
      expect(count("SELECT count(*) AS n FROM __drizzle_migrations")).toBe(ALL.length);
      expect(count("SELECT count(*) AS n FROM game_server_stats_3h")).toBe(60 * 240);
      expect(count("SELECT count(*) AS n FROM game_server_stats_3h_days")).toBe(60 * 30);
      expect(count("SELECT count(*) AS n FROM game_server_stats_hourly_days")).toBe(60 * 7);
      expect(count("SELECT count(*) AS n FROM game_server_mod_lists")).toBe(60);
      expect(count("SELECT count(*) AS n FROM game_server_mods_by_sid")).toBe(60 * 25);
      expect(count("SELECT count(*) AS n FROM game_server_mod_changes")).toBe(200);
      expect(count("SELECT count(*) AS n FROM list_items")).toBe(800);
    } finally {
      db.close();
    }
  });

  for (const which of ["fresh", "migrated", "backup"] as const) {
    test(`a ${which === "fresh" ? "fresh database" : which === "migrated" ? "database migrated through every migration with data" : "backup (loadout backup) of it"}: integrity_check ok, every table and view read, by sqlite3 and by python3`, () => {
      const file = which === "fresh" ? fresh : which === "migrated" ? migrated : backup;
      const { names, cli, py } = readWithDistributionTools(file);
      expect(names.length).toBeGreaterThan(70);
      expect({ code: cli.code, err: cli.err }).toEqual({ code: 0, err: "" });
      const lines = cli.out.trim().split("\n");
      expect(lines[0]).toBe("ok");
      expect(lines[lines.length - 1]).toBe("all-read");
      expect({ code: py.code, err: py.err }).toEqual({ code: 0, err: "" });
      expect(py.out.trim().split("\n").slice(1)).toEqual(["ok", String(names.length)]);
    });
  }

  test("the definitions made again by a9 give what the old ones gave: Bun's SQLite before and after a9, Debian's sqlite3 and python3 after", () => {
    const base = migratedFile(join(scratch, "base-old.db"), A9, seedBeforeA5);
    const baseNew = migratedFile(join(scratch, "base-new.db"), ALL.length, seedBeforeA5);
    const sql = workload();
    writeFileSync(join(scratch, "workload.sql"), sql);
    const copy = (from: string, name: string) => {
      const to = join(scratch, name);
      copyFileSync(from, to);
      return to;
    };
    const exec = (file: string) => {
      const db = new Database(file);
      db.exec(sql);
      db.close();
      return file;
    };
    const oldBun = exec(copy(base, "old-bun.db"));
    const newBun = exec(copy(baseNew, "new-bun.db"));
    const newCli = copy(baseNew, "new-cli.db");
    const cli = run([SQLITE3, "-bail", newCli], sql);
    expect({ code: cli.code, err: cli.err }).toEqual({ code: 0, err: "" });
    const newPy = copy(baseNew, "new-py.db");
    const py = run(["python3", "-c", "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\nc.executescript(open(sys.argv[2]).read())\nc.close()", newPy, join(scratch, "workload.sql")]);
    expect({ code: py.code, err: py.err }).toEqual({ code: 0, err: "" });

    const expected = dump(oldBun);
    // The workload reached what it is about.
    expect(JSON.parse(expected.game_server_stats_3h_days!).length).toBeGreaterThan(60 * 30);
    expect(expected.game_server_stats_3h_days).toContain("?");
    expect(JSON.parse(expected.compat_first_changes!).length).toBe(5);
    // The first sightings of servers 101 and 102 were materialised by their list's change, 103's stands.
    // Columns: id, server_sid, time, n, changes, first_sizes (quoted). The first sightings the
    // workload wrote: those of 101, 102, 104 and 105 materialised by their list's change, 103's stands.
    const firstTimes = [T0 + 101, T0 + 102, T0 + 103, T0 + 208, T0 + 210].map(String);
    const firsts = (JSON.parse(expected.game_server_mod_events!) as string[][]).filter((r) => firstTimes.includes(r[2]!));
    expect(firsts.map((r) => [r[1], r[4] !== "'[]'", r[5] === "NULL"])).toEqual([
      ["101", true, true],
      ["102", true, true],
      ["103", false, false],
      ["104", true, true],
      ["105", true, true],
    ]);
    // The shapes `->>` reads in its own way were there, as the old definitions read them: an
    // object's keys as a label ('a', 'b_2'), a '$' path, a '[N]' path and a quoted label; an
    // array or object value handed on as text, not nested.
    const old = new Database(oldBun, { readonly: true });
    const firstOf = (sid: number) =>
      JSON.parse((old.query("SELECT f.changes FROM compat_first_changes f JOIN game_server_mod_events e ON e.id = f.id WHERE e.server_sid = ?").get(sid) as { changes: string }).changes);
    expect(firstOf(104).map((c: unknown[]) => [c[2], c[5]])).toEqual([["Dollar", null], ["Bracket", null], ["Object", 11], ["Under", "[5,5]"], ["Space", 44]]);
    expect(firstOf(105).map((c: unknown[]) => [c[2], c[4], c[5]])).toEqual([['["nested"]', '{"v":1}', "[1,2]"], ["Plain", 1, '{"k":3}'], ['{"n":"x"}', "3", null]]);
    old.close();
    for (const [engine, file] of [["bun", newBun], ["sqlite3", newCli], ["python3", newPy]] as const) {
      const got = dump(file);
      for (const name of Object.keys(expected)) expect({ engine, name, rows: got[name] }).toEqual({ engine, name, rows: expected[name] });
    }
    // And the days' texts are what the bucket rows say, in time order (the truth of a5).
    const db = new Database(newCli, { readonly: true });
    const truth = db.query("SELECT sid, day, point FROM game_server_stats_3h_points ORDER BY sid, day, time").all() as { sid: number; day: number; point: string }[];
    const days = new Map<string, string>();
    for (const r of truth) days.set(`${r.sid}:${r.day}`, (days.get(`${r.sid}:${r.day}`) ?? "") + r.point);
    const stored = db.query("SELECT sid, day, points FROM game_server_stats_3h_days").all() as { sid: number; day: number; points: string }[];
    db.close();
    expect(stored.length).toBe(days.size);
    expect(stored.filter((r) => days.get(`${r.sid}:${r.day}`) !== r.points)).toEqual([]);
  });
});
