// What writing a first sighting in full costs when its list first changes
// (a7_first_sight_changelog.sql's BEFORE UPDATE trigger): 5,000 servers of 40 mods, each with
// its first sighting held by reference, then every 20th server's list updated in one
// transaction, with the migrated trigger or without any (`none`: the update alone):
//   bun bench/first-sighting-trigger.ts [as-is|none]
import { loadMigrations, openDatabase } from "../src/db/client";

const variant = process.argv[2] ?? "as-is";
const { db, sqlite } = openDatabase(":memory:");
(db as any).dialect.migrate(loadMigrations(), (db as any).session, {});
if (variant === "none") sqlite.exec("DROP TRIGGER game_server_mod_events_first_upd");
const N = 5000;
sqlite.exec("BEGIN");
const server = sqlite.query(
  "INSERT INTO game_servers (id, sid, source, host_address, name, ip, port, first_seen_at, last_seen_at) VALUES (?, ?, 'battlemetrics', ?, 'x', '1.1.1.1', 1, 0, 0)",
);
const list = sqlite.query("INSERT INTO game_server_mod_lists (server_sid, mods) VALUES (?, ?)");
const event = sqlite.query("INSERT INTO game_server_mod_events (server_sid, time, n, changes, first_sizes) VALUES (?, 1, ?, '[]', ?)");
for (let sid = 1; sid <= N; sid++) {
  server.run(`server-${sid}`, sid, `10.0.${sid >> 8}.${sid & 255}:2001`);
  const entries = Array.from({ length: 40 }, (_, k) => [(0x5a00000000000000n + BigInt(sid * 40 + k)).toString(16).toUpperCase(), `Mod name ${k}`, `1.0.${k}`, k]);
  list.run(sid, JSON.stringify(entries));
  event.run(sid, entries.length, JSON.stringify(entries.map((_, k) => 1000 + k)));
}
sqlite.exec("COMMIT");
const t = performance.now();
sqlite.exec("BEGIN");
const update = sqlite.query("UPDATE game_server_mod_lists SET mods = json_remove(mods, '$[0]') WHERE server_sid = ?");
for (let sid = 1; sid <= N; sid += 20) update.run(sid);
sqlite.exec("COMMIT");
const ms = performance.now() - t;
const full = (sqlite.query("SELECT count(*) AS n FROM game_server_mod_events WHERE first_sizes IS NULL").get() as { n: number }).n;
console.log(`${variant}: ${ms.toFixed(1)} ms for ${N / 20} lists updated (${full} rows now in full)`);
