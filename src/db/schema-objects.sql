-- The current definition of every schema object drizzle-kit does not make: the tables it cannot
-- express (WITHOUT ROWID, FTS5), and every view, trigger and index it does not declare. Each is
-- defined here once, under a name of its own; the tables drizzle-kit can express are declared in
-- the features' tables.ts (views there too, `.existing()`, so queries can name them).
--
-- The migrations (drizzle/, src/db/custom/*.sql) are history and never change once applied: a
-- database is made by replaying them. To change an object, change it here and add a custom
-- migration that drops it and creates it as written here. test/schema.test.ts builds a database
-- from these definitions and the tables.ts files and compares its sqlite_schema with a database
-- migrated through every migration: they must be the same (it prints the statements that differ).
-- Over 500 lines on purpose: one place for every definition, so a name is defined exactly once.
--
-- Generation counters (docs/architecture.md "Derived reads"): a read model kept in memory follows
-- one or more counters (catalog_state, live_state, auth_state) that triggers here move on every
-- write to what it is derived from, by any code path or process. The live feature's per-row
-- counters are skipped while a bulk writer holds a row of live_bulk_write inside its own
-- transaction (the scan, the roll-up: src/features/live/repository/state.ts withBulkWrite), which
-- moves them once itself; no other connection ever sees that row.
--
-- Every object must parse in SQLite 3.37 (test/sqlite-compat.test.ts): no `->>`, no aggregate
-- ORDER BY. Statements are separated by breakpoint lines, as in a migration.

-- ============================== Catalog (src/features/catalog, scraper) ==============================

-- Generation counters of the catalog's read models (catalog_state): mods_gen (the sort orders:
-- an entry's position or visibility, its tags), fts_gen (the search index: what mods_fts holds),
-- detail_gen (the per-mod answers, the graph, the packed summaries: every mods column but the
-- crawl's listed_at mark, every dependency), growth_gen (the growth answers).
CREATE TABLE catalog_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
--> statement-breakpoint
INSERT OR IGNORE INTO catalog_state (key, value) VALUES ('mods_gen', 0), ('fts_gen', 0), ('detail_gen', 0), ('growth_gen', 0);
--> statement-breakpoint
-- Full-text search over name, author, summary and tags (external content: the mods table). Only
-- catalog entries are indexed (not 'unknown' placeholders), so searches need no join to filter.
-- An update that leaves the indexed text as it was (the crawl's re-scrape) leaves it alone.
CREATE VIRTUAL TABLE mods_fts USING fts5(
  name, author_name, summary, tags_json,
  content='mods', content_rowid='rowid',
  tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);
--> statement-breakpoint
CREATE TRIGGER mods_fts_ai AFTER INSERT ON mods WHEN new.state != 'unknown' BEGIN
  INSERT INTO mods_fts(rowid, name, author_name, summary, tags_json)
  VALUES (new.rowid, new.name, new.author_name, new.summary, new.tags_json);
END;
--> statement-breakpoint
CREATE TRIGGER mods_fts_ad AFTER DELETE ON mods WHEN old.state != 'unknown' BEGIN
  INSERT INTO mods_fts(mods_fts, rowid, name, author_name, summary, tags_json)
  VALUES ('delete', old.rowid, old.name, old.author_name, old.summary, old.tags_json);
END;
--> statement-breakpoint
CREATE TRIGGER mods_fts_au AFTER UPDATE OF name, author_name, summary, tags_json, state ON mods
WHEN old.name IS NOT new.name OR old.author_name IS NOT new.author_name OR old.summary IS NOT new.summary
  OR old.tags_json IS NOT new.tags_json OR old.state IS NOT new.state BEGIN
  INSERT INTO mods_fts(mods_fts, rowid, name, author_name, summary, tags_json)
  SELECT 'delete', old.rowid, old.name, old.author_name, old.summary, old.tags_json WHERE old.state != 'unknown';
  INSERT INTO mods_fts(rowid, name, author_name, summary, tags_json)
  SELECT new.rowid, new.name, new.author_name, new.summary, new.tags_json WHERE new.state != 'unknown';
END;
--> statement-breakpoint
-- GET /mods's sorts over catalog entries only, with a stable tie-breaker.
CREATE INDEX mods_vis_name_idx ON mods(name COLLATE NOCASE, workshop_id) WHERE state != 'unknown';
--> statement-breakpoint
CREATE INDEX mods_vis_size_idx ON mods(size_bytes, workshop_id) WHERE state != 'unknown';
--> statement-breakpoint
CREATE INDEX mods_vis_updated_idx ON mods(updated_at, workshop_id) WHERE state != 'unknown';
--> statement-breakpoint
CREATE TRIGGER mods_gen_ins AFTER INSERT ON mods BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
--> statement-breakpoint
CREATE TRIGGER mods_gen_upd AFTER UPDATE OF workshop_id, name, size_bytes, updated_at, state ON mods
WHEN old.workshop_id IS NOT new.workshop_id OR old.name IS NOT new.name OR old.size_bytes IS NOT new.size_bytes
  OR old.updated_at IS NOT new.updated_at OR old.state IS NOT new.state BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
--> statement-breakpoint
CREATE TRIGGER mods_gen_del AFTER DELETE ON mods BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
--> statement-breakpoint
CREATE TRIGGER mod_tags_gen_ins AFTER INSERT ON mod_tags BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
--> statement-breakpoint
CREATE TRIGGER mod_tags_gen_upd AFTER UPDATE ON mod_tags BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
--> statement-breakpoint
CREATE TRIGGER mod_tags_gen_del AFTER DELETE ON mod_tags BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
--> statement-breakpoint
CREATE TRIGGER mods_fts_gen_ins AFTER INSERT ON mods WHEN new.state != 'unknown' BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'fts_gen';
END;
--> statement-breakpoint
CREATE TRIGGER mods_fts_gen_upd AFTER UPDATE OF name, author_name, summary, tags_json, state ON mods
WHEN (old.state != 'unknown' OR new.state != 'unknown')
  AND (old.name IS NOT new.name OR old.author_name IS NOT new.author_name OR old.summary IS NOT new.summary
    OR old.tags_json IS NOT new.tags_json OR old.state IS NOT new.state) BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'fts_gen';
END;
--> statement-breakpoint
CREATE TRIGGER mods_fts_gen_del AFTER DELETE ON mods WHEN old.state != 'unknown' BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'fts_gen';
END;
--> statement-breakpoint
CREATE TRIGGER catalog_detail_gen_mods_ins AFTER INSERT ON mods BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'detail_gen';
END;
--> statement-breakpoint
CREATE TRIGGER catalog_detail_gen_mods_upd AFTER UPDATE ON mods
WHEN old.workshop_id IS NOT new.workshop_id OR old.name IS NOT new.name OR old.summary IS NOT new.summary
  OR old.description IS NOT new.description OR old.author_id IS NOT new.author_id OR old.author_name IS NOT new.author_name
  OR old.type IS NOT new.type OR old.license IS NOT new.license OR old.version IS NOT new.version
  OR old.size_bytes IS NOT new.size_bytes OR old.image_url IS NOT new.image_url OR old.game_version IS NOT new.game_version
  OR old.rating IS NOT new.rating OR old.rating_count IS NOT new.rating_count OR old.subscriber_count IS NOT new.subscriber_count
  OR old.downloads_total IS NOT new.downloads_total OR old.state IS NOT new.state OR old.obsolete IS NOT new.obsolete
  OR old.tags_json IS NOT new.tags_json OR old.external_links_json IS NOT new.external_links_json
  OR old.created_at IS NOT new.created_at OR old.updated_at IS NOT new.updated_at OR old.detail_scraped_at IS NOT new.detail_scraped_at
BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'detail_gen';
END;
--> statement-breakpoint
CREATE TRIGGER catalog_detail_gen_mods_del AFTER DELETE ON mods BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'detail_gen';
END;
--> statement-breakpoint
CREATE TRIGGER catalog_detail_gen_deps_ins AFTER INSERT ON mod_dependencies BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'detail_gen';
END;
--> statement-breakpoint
CREATE TRIGGER catalog_detail_gen_deps_upd AFTER UPDATE ON mod_dependencies BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'detail_gen';
END;
--> statement-breakpoint
CREATE TRIGGER catalog_detail_gen_deps_del AFTER DELETE ON mod_dependencies BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'detail_gen';
END;
--> statement-breakpoint
-- Growth snapshots: one bucket per 3 hours (bucket = epoch ms / 10,800,000); a row is written only
-- when a mod's values differ from its previous row (mod_growth_latest), so readers carry values
-- forward over the buckets a roll-up ran for (mod_growth_buckets, scraper/tables.ts).
CREATE TABLE mod_growth (
  workshop_id TEXT NOT NULL,
  bucket INTEGER NOT NULL,
  used_by_servers INTEGER NOT NULL,
  players_using INTEGER NOT NULL,
  dependencies INTEGER NOT NULL,
  dependents INTEGER NOT NULL,
  PRIMARY KEY (workshop_id, bucket)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE mod_growth_latest (
  workshop_id TEXT PRIMARY KEY,
  bucket INTEGER NOT NULL,
  used_by_servers INTEGER NOT NULL,
  players_using INTEGER NOT NULL,
  dependencies INTEGER NOT NULL,
  dependents INTEGER NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TRIGGER catalog_growth_gen_ins AFTER INSERT ON mod_growth BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'growth_gen';
END;
--> statement-breakpoint
CREATE TRIGGER catalog_growth_gen_upd AFTER UPDATE ON mod_growth BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'growth_gen';
END;
--> statement-breakpoint
CREATE TRIGGER catalog_growth_gen_del AFTER DELETE ON mod_growth BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'growth_gen';
END;
--> statement-breakpoint
CREATE TRIGGER catalog_growth_gen_buckets_ins AFTER INSERT ON mod_growth_buckets BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'growth_gen';
END;
--> statement-breakpoint
CREATE TRIGGER catalog_growth_gen_buckets_upd AFTER UPDATE ON mod_growth_buckets BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'growth_gen';
END;
--> statement-breakpoint
CREATE TRIGGER catalog_growth_gen_buckets_del AFTER DELETE ON mod_growth_buckets BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'growth_gen';
END;
--> statement-breakpoint
-- ============================== Live (src/features/live) ==============================

-- Stat series (docs/live.md "Series and roll-ups"): raw 5-minute points (24 h), hourly (14 days)
-- and 3-hour buckets (365 days) per server (key sid) and per community; the global series is in
-- live/tables.ts. Buckets carry n, sums and maxima so averages stay exact when rolled up.
CREATE TABLE game_server_stats_raw (
  sid INTEGER NOT NULL,
  time INTEGER NOT NULL,
  players INTEGER NOT NULL,
  queue INTEGER NOT NULL,
  wait INTEGER NOT NULL,
  PRIMARY KEY (sid, time)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX game_server_stats_raw_time_idx ON game_server_stats_raw (time);
--> statement-breakpoint
CREATE TABLE game_server_stats_hourly (
  sid INTEGER NOT NULL,
  time INTEGER NOT NULL,
  n INTEGER NOT NULL,
  players_sum INTEGER NOT NULL,
  players_max INTEGER NOT NULL,
  queue_sum INTEGER NOT NULL,
  queue_max INTEGER NOT NULL,
  wait_sum INTEGER NOT NULL,
  PRIMARY KEY (sid, time)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX game_server_stats_hourly_time_idx ON game_server_stats_hourly (time);
--> statement-breakpoint
CREATE TABLE game_server_stats_3h (
  sid INTEGER NOT NULL,
  time INTEGER NOT NULL,
  n INTEGER NOT NULL,
  players_sum INTEGER NOT NULL,
  players_max INTEGER NOT NULL,
  queue_sum INTEGER NOT NULL,
  queue_max INTEGER NOT NULL,
  wait_sum INTEGER NOT NULL,
  PRIMARY KEY (sid, time)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE live_community_stats_raw (
  community_id TEXT NOT NULL,
  time INTEGER NOT NULL,
  players INTEGER NOT NULL,
  queue INTEGER NOT NULL,
  servers INTEGER NOT NULL,
  PRIMARY KEY (community_id, time)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE live_community_stats_hourly (
  community_id TEXT NOT NULL,
  time INTEGER NOT NULL,
  n INTEGER NOT NULL,
  players_sum INTEGER NOT NULL,
  players_max INTEGER NOT NULL,
  queue_sum INTEGER NOT NULL,
  servers_sum INTEGER NOT NULL,
  servers_max INTEGER NOT NULL,
  PRIMARY KEY (community_id, time)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE live_community_stats_3h (
  community_id TEXT NOT NULL,
  time INTEGER NOT NULL,
  n INTEGER NOT NULL,
  players_sum INTEGER NOT NULL,
  players_max INTEGER NOT NULL,
  queue_sum INTEGER NOT NULL,
  servers_sum INTEGER NOT NULL,
  servers_max INTEGER NOT NULL,
  PRIMARY KEY (community_id, time)
) WITHOUT ROWID;
--> statement-breakpoint
-- A server's buckets one row per UTC day as compact text (series-days.ts): per bucket, in time
-- order, a letter for its place in the day and `n,players_sum,queue_sum,wait_sum,players_max`
-- ('?' for a bucket the form cannot hold). The views define a bucket's text once; the triggers
-- rewrite the day's row after every write to the buckets (both days of an update).
CREATE VIEW game_server_stats_3h_points AS
SELECT sid, time / 86400000 AS day, time,
  CASE WHEN time >= 0 AND time % 10800000 = 0 AND typeof(n) = 'integer' AND typeof(players_sum) = 'integer'
      AND typeof(queue_sum) = 'integer' AND typeof(wait_sum) = 'integer' AND typeof(players_max) = 'integer'
    THEN char(97 + (time % 86400000) / 10800000) || n || ',' || players_sum || ',' || queue_sum || ',' || wait_sum || ',' || players_max
    ELSE '?' END AS point
FROM game_server_stats_3h;
--> statement-breakpoint
CREATE VIEW game_server_stats_hourly_points AS
SELECT sid, time / 86400000 AS day, time,
  CASE WHEN time >= 0 AND time % 3600000 = 0 AND typeof(n) = 'integer' AND typeof(players_sum) = 'integer'
      AND typeof(queue_sum) = 'integer' AND typeof(wait_sum) = 'integer' AND typeof(players_max) = 'integer'
    THEN char(97 + (time % 86400000) / 3600000) || n || ',' || players_sum || ',' || queue_sum || ',' || wait_sum || ',' || players_max
    ELSE '?' END AS point
FROM game_server_stats_hourly;
--> statement-breakpoint
CREATE TABLE game_server_stats_3h_days (
  sid INTEGER NOT NULL,
  day INTEGER NOT NULL,
  points TEXT NOT NULL,
  PRIMARY KEY (sid, day)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE game_server_stats_hourly_days (
  sid INTEGER NOT NULL,
  day INTEGER NOT NULL,
  points TEXT NOT NULL,
  PRIMARY KEY (sid, day)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_3h_days_ins AFTER INSERT ON game_server_stats_3h BEGIN
  DELETE FROM game_server_stats_3h_days WHERE sid = NEW.sid AND day = NEW.time / 86400000;
  INSERT INTO game_server_stats_3h_days (sid, day, points)
    SELECT sid, day, group_concat(point, '') FROM (
      SELECT sid, day, point FROM game_server_stats_3h_points
      WHERE sid = NEW.sid AND time >= (NEW.time / 86400000) * 86400000 AND time < (NEW.time / 86400000 + 1) * 86400000
      ORDER BY sid, day, time)
    GROUP BY sid, day;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_3h_days_del AFTER DELETE ON game_server_stats_3h BEGIN
  DELETE FROM game_server_stats_3h_days WHERE sid = OLD.sid AND day = OLD.time / 86400000;
  INSERT INTO game_server_stats_3h_days (sid, day, points)
    SELECT sid, day, group_concat(point, '') FROM (
      SELECT sid, day, point FROM game_server_stats_3h_points
      WHERE sid = OLD.sid AND time >= (OLD.time / 86400000) * 86400000 AND time < (OLD.time / 86400000 + 1) * 86400000
      ORDER BY sid, day, time)
    GROUP BY sid, day;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_3h_days_upd AFTER UPDATE ON game_server_stats_3h BEGIN
  DELETE FROM game_server_stats_3h_days WHERE sid = OLD.sid AND day = OLD.time / 86400000;
  INSERT INTO game_server_stats_3h_days (sid, day, points)
    SELECT sid, day, group_concat(point, '') FROM (
      SELECT sid, day, point FROM game_server_stats_3h_points
      WHERE sid = OLD.sid AND time >= (OLD.time / 86400000) * 86400000 AND time < (OLD.time / 86400000 + 1) * 86400000
      ORDER BY sid, day, time)
    GROUP BY sid, day;
  DELETE FROM game_server_stats_3h_days WHERE sid = NEW.sid AND day = NEW.time / 86400000;
  INSERT INTO game_server_stats_3h_days (sid, day, points)
    SELECT sid, day, group_concat(point, '') FROM (
      SELECT sid, day, point FROM game_server_stats_3h_points
      WHERE sid = NEW.sid AND time >= (NEW.time / 86400000) * 86400000 AND time < (NEW.time / 86400000 + 1) * 86400000
      ORDER BY sid, day, time)
    GROUP BY sid, day;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_hourly_days_ins AFTER INSERT ON game_server_stats_hourly BEGIN
  DELETE FROM game_server_stats_hourly_days WHERE sid = NEW.sid AND day = NEW.time / 86400000;
  INSERT INTO game_server_stats_hourly_days (sid, day, points)
    SELECT sid, day, group_concat(point, '') FROM (
      SELECT sid, day, point FROM game_server_stats_hourly_points
      WHERE sid = NEW.sid AND time >= (NEW.time / 86400000) * 86400000 AND time < (NEW.time / 86400000 + 1) * 86400000
      ORDER BY sid, day, time)
    GROUP BY sid, day;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_hourly_days_del AFTER DELETE ON game_server_stats_hourly BEGIN
  DELETE FROM game_server_stats_hourly_days WHERE sid = OLD.sid AND day = OLD.time / 86400000;
  INSERT INTO game_server_stats_hourly_days (sid, day, points)
    SELECT sid, day, group_concat(point, '') FROM (
      SELECT sid, day, point FROM game_server_stats_hourly_points
      WHERE sid = OLD.sid AND time >= (OLD.time / 86400000) * 86400000 AND time < (OLD.time / 86400000 + 1) * 86400000
      ORDER BY sid, day, time)
    GROUP BY sid, day;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_hourly_days_upd AFTER UPDATE ON game_server_stats_hourly BEGIN
  DELETE FROM game_server_stats_hourly_days WHERE sid = OLD.sid AND day = OLD.time / 86400000;
  INSERT INTO game_server_stats_hourly_days (sid, day, points)
    SELECT sid, day, group_concat(point, '') FROM (
      SELECT sid, day, point FROM game_server_stats_hourly_points
      WHERE sid = OLD.sid AND time >= (OLD.time / 86400000) * 86400000 AND time < (OLD.time / 86400000 + 1) * 86400000
      ORDER BY sid, day, time)
    GROUP BY sid, day;
  DELETE FROM game_server_stats_hourly_days WHERE sid = NEW.sid AND day = NEW.time / 86400000;
  INSERT INTO game_server_stats_hourly_days (sid, day, points)
    SELECT sid, day, group_concat(point, '') FROM (
      SELECT sid, day, point FROM game_server_stats_hourly_points
      WHERE sid = NEW.sid AND time >= (NEW.time / 86400000) * 86400000 AND time < (NEW.time / 86400000 + 1) * 86400000
      ORDER BY sid, day, time)
    GROUP BY sid, day;
END;
--> statement-breakpoint
-- The live list's online servers by their last sighting.
CREATE INDEX game_servers_online_seen_idx ON game_servers(last_seen_at) WHERE online = 1;
--> statement-breakpoint
-- A server's mod list is one row of game_server_mod_lists (live/tables.ts); these views give its
-- rows with the columns of the per-mod tables they replaced, writable through INSTEAD OF triggers
-- that rewrite the list (refusing what those tables refused), for raw SQL, the tests' truths and
-- the readers that take rows. Values are read with json_tree, not `->>` (SQLite 3.37).
CREATE VIEW game_server_mods_by_sid AS
  SELECT l.server_sid,
    (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[0]') t LIMIT 1) AS workshop_id,
    (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[1]') t LIMIT 1) AS name,
    (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[2]') t LIMIT 1) AS version,
    (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[3]') t LIMIT 1) AS position
  FROM game_server_mod_lists l, json_each(l.mods) j;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_by_sid_ins INSTEAD OF INSERT ON game_server_mods_by_sid BEGIN
  SELECT RAISE(ABORT, 'NOT NULL constraint failed: game_server_mods_by_sid.server_sid') WHERE NEW.server_sid IS NULL;
  SELECT RAISE(ABORT, 'NOT NULL constraint failed: game_server_mods_by_sid.workshop_id') WHERE NEW.workshop_id IS NULL;
  SELECT RAISE(ABORT, 'NOT NULL constraint failed: game_server_mods_by_sid.position') WHERE NEW.position IS NULL;
  SELECT RAISE(ABORT, 'UNIQUE constraint failed: game_server_mods_by_sid.server_sid, game_server_mods_by_sid.workshop_id')
    WHERE EXISTS (SELECT 1 FROM game_server_mod_lists l, json_each(l.mods) j
                  WHERE l.server_sid = NEW.server_sid AND json_extract(j.value, '$[0]') = NEW.workshop_id);
  INSERT INTO game_server_mod_lists (server_sid, mods)
    VALUES (NEW.server_sid, json_array(json_array(CAST(NEW.workshop_id AS TEXT), CAST(coalesce(NEW.name, '') AS TEXT), CAST(NEW.version AS TEXT), NEW.position)))
  ON CONFLICT (server_sid) DO UPDATE SET
    mods = json_insert(game_server_mod_lists.mods, '$[#]', json_array(CAST(NEW.workshop_id AS TEXT), CAST(coalesce(NEW.name, '') AS TEXT), CAST(NEW.version AS TEXT), NEW.position));
END;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_by_sid_upd INSTEAD OF UPDATE ON game_server_mods_by_sid BEGIN
  SELECT RAISE(ABORT, 'NOT NULL constraint failed: game_server_mods_by_sid.workshop_id') WHERE NEW.workshop_id IS NULL;
  SELECT RAISE(ABORT, 'NOT NULL constraint failed: game_server_mods_by_sid.position') WHERE NEW.position IS NULL;
  SELECT RAISE(ABORT, 'UNIQUE constraint failed: game_server_mods_by_sid.server_sid, game_server_mods_by_sid.workshop_id')
    WHERE OLD.server_sid IS NEW.server_sid AND OLD.workshop_id IS NOT NEW.workshop_id
      AND EXISTS (SELECT 1 FROM game_server_mod_lists l, json_each(l.mods) j
                  WHERE l.server_sid = NEW.server_sid AND json_extract(j.value, '$[0]') = NEW.workshop_id);
  -- In place, on the same server: the one element replaced where it is.
  UPDATE game_server_mod_lists SET mods = json_set(mods,
    (SELECT j.fullkey FROM json_each(game_server_mod_lists.mods) j WHERE json_extract(j.value, '$[0]') = OLD.workshop_id),
    json_array(CAST(NEW.workshop_id AS TEXT), CAST(coalesce(NEW.name, '') AS TEXT), CAST(NEW.version AS TEXT), NEW.position))
  WHERE server_sid = OLD.server_sid AND OLD.server_sid IS NEW.server_sid;
  -- To another server: taken out of the old list, inserted into the new one (the insert trigger).
  UPDATE game_server_mod_lists SET mods = (
    SELECT json_group_array(json(j.value)) FROM json_each(game_server_mod_lists.mods) j WHERE json_extract(j.value, '$[0]') IS NOT OLD.workshop_id)
  WHERE server_sid = OLD.server_sid AND OLD.server_sid IS NOT NEW.server_sid;
  DELETE FROM game_server_mod_lists WHERE server_sid = OLD.server_sid AND mods = '[]';
  INSERT INTO game_server_mods_by_sid (server_sid, workshop_id, name, version, position)
    SELECT NEW.server_sid, NEW.workshop_id, NEW.name, NEW.version, NEW.position WHERE OLD.server_sid IS NOT NEW.server_sid;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_by_sid_del INSTEAD OF DELETE ON game_server_mods_by_sid BEGIN
  UPDATE game_server_mod_lists SET mods = (
    SELECT json_group_array(json(j.value)) FROM json_each(game_server_mod_lists.mods) j WHERE json_extract(j.value, '$[0]') IS NOT OLD.workshop_id)
  WHERE server_sid = OLD.server_sid;
  DELETE FROM game_server_mod_lists WHERE server_sid = OLD.server_sid AND mods = '[]';
END;
--> statement-breakpoint
CREATE VIEW game_server_mods AS
  SELECT g.id AS server_id, gm.workshop_id, gm.name, gm.version, gm.position
  FROM game_server_mods_by_sid gm JOIN game_servers g ON g.sid = gm.server_sid;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_view_ins INSTEAD OF INSERT ON game_server_mods BEGIN
  INSERT INTO game_server_mods_by_sid (server_sid, workshop_id, name, version, position)
  VALUES ((SELECT sid FROM game_servers WHERE id = NEW.server_id), NEW.workshop_id, coalesce(NEW.name, ''), NEW.version, NEW.position);
END;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_view_upd INSTEAD OF UPDATE ON game_server_mods BEGIN
  UPDATE game_server_mods_by_sid SET
    server_sid = (SELECT sid FROM game_servers WHERE id = NEW.server_id),
    workshop_id = NEW.workshop_id, name = NEW.name, version = NEW.version, position = NEW.position
  WHERE server_sid = (SELECT sid FROM game_servers WHERE id = OLD.server_id) AND workshop_id = OLD.workshop_id;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_view_del INSTEAD OF DELETE ON game_server_mods BEGIN
  DELETE FROM game_server_mods_by_sid
  WHERE server_sid = (SELECT sid FROM game_servers WHERE id = OLD.server_id) AND workshop_id = OLD.workshop_id;
END;
--> statement-breakpoint
-- The changelog (game_server_mod_events, live/tables.ts): a server's rows by id; the first
-- sightings held by reference. The views give the changes one row each (the old table's columns;
-- an INSERT becomes a row of its own) and a first sighting in full; before a list held by reference
-- is rewritten or deleted, its first sightings are written in full from it.
CREATE INDEX game_server_mod_events_server_idx ON game_server_mod_events (server_sid, id);
--> statement-breakpoint
CREATE INDEX game_server_mod_events_first_idx ON game_server_mod_events (server_sid) WHERE first_sizes IS NOT NULL;
--> statement-breakpoint
CREATE VIEW game_server_mod_changes AS
  SELECT (e.id << 20) + j.key AS id, e.server_sid, e.time,
    (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[0]') t LIMIT 1) AS action,
    (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[1]') t LIMIT 1) AS workshop_id,
    (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[2]') t LIMIT 1) AS mod_name,
    (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[3]') t LIMIT 1) AS old_version,
    (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[4]') t LIMIT 1) AS new_version,
    (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[5]') t LIMIT 1) AS size_bytes
  FROM game_server_mod_events e, json_each(e.changes) j
  UNION ALL
  SELECT (e.id << 20) + j.key, e.server_sid, e.time, 'added',
    (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[0]') t LIMIT 1),
    (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[1]') t LIMIT 1),
    NULL,
    (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[2]') t LIMIT 1),
    (SELECT coalesce(t.atom, t.value || '') FROM json_tree(e.first_sizes,
      CASE WHEN typeof(j.key) = 'integer' THEN '$[' || j.key || ']' WHEN substr(j.key, 1, 1) = '$' THEN j.key WHEN j.key NOT GLOB '*[^A-Za-z0-9_]*' THEN '$.' || j.key WHEN length(j.key) >= 3 AND j.key GLOB '[[]*[]]' THEN '$' || j.key ELSE '$."' || j.key || '"' END) t LIMIT 1)
  FROM game_server_mod_events e JOIN game_server_mod_lists l ON l.server_sid = e.server_sid, json_each(l.mods) j
  WHERE e.first_sizes IS NOT NULL;
--> statement-breakpoint
CREATE TRIGGER game_server_mod_changes_view_ins INSTEAD OF INSERT ON game_server_mod_changes BEGIN
  INSERT INTO game_server_mod_events (server_sid, time, n, changes)
  VALUES (NEW.server_sid, NEW.time, 1,
    json_array(json_array(NEW.action, NEW.workshop_id, coalesce(NEW.mod_name, ''), NEW.old_version, NEW.new_version, NEW.size_bytes)));
END;
--> statement-breakpoint
CREATE VIEW game_server_mod_first_changes AS
  SELECT e.id, (SELECT json_group_array(json(c.change)) FROM (
      SELECT json_array('added',
        (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[0]') t LIMIT 1),
        (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[1]') t LIMIT 1),
        NULL,
        (SELECT coalesce(t.atom, t.value || '') FROM json_tree(j.value, '$[2]') t LIMIT 1),
        (SELECT coalesce(t.atom, t.value || '') FROM json_tree(e.first_sizes,
      CASE WHEN typeof(j.key) = 'integer' THEN '$[' || j.key || ']' WHEN substr(j.key, 1, 1) = '$' THEN j.key WHEN j.key NOT GLOB '*[^A-Za-z0-9_]*' THEN '$.' || j.key WHEN length(j.key) >= 3 AND j.key GLOB '[[]*[]]' THEN '$' || j.key ELSE '$."' || j.key || '"' END) t LIMIT 1)) AS change
      FROM json_each(l.mods) j ORDER BY j.key) c) AS changes
  FROM game_server_mod_events e JOIN game_server_mod_lists l ON l.server_sid = e.server_sid
  WHERE e.first_sizes IS NOT NULL;
--> statement-breakpoint
CREATE TRIGGER game_server_mod_events_first_upd BEFORE UPDATE ON game_server_mod_lists
WHEN EXISTS (SELECT 1 FROM game_server_mod_events WHERE server_sid = OLD.server_sid AND first_sizes IS NOT NULL) BEGIN
  UPDATE game_server_mod_events SET first_sizes = NULL,
    changes = (SELECT f.changes FROM game_server_mod_first_changes f WHERE f.id = game_server_mod_events.id)
  WHERE server_sid = OLD.server_sid AND first_sizes IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_mod_events_first_del BEFORE DELETE ON game_server_mod_lists
WHEN EXISTS (SELECT 1 FROM game_server_mod_events WHERE server_sid = OLD.server_sid AND first_sizes IS NOT NULL) BEGIN
  UPDATE game_server_mod_events SET first_sizes = NULL,
    changes = (SELECT f.changes FROM game_server_mod_first_changes f WHERE f.id = game_server_mod_events.id)
  WHERE server_sid = OLD.server_sid AND first_sizes IS NOT NULL;
END;
--> statement-breakpoint
-- For every mod, the row its name is taken from when the catalog has none (the smallest sid with a
-- name), brought up to date from the lists whose version moved (repository/usage.ts).
CREATE TABLE live_mod_names (
  workshop_id TEXT PRIMARY KEY,
  server_sid INTEGER NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
-- Generation counters of the live feature's read models (live_state): servers_gen (the live
-- snapshot: game_servers, the mod lists, live_mod_usage), catalog_gen (what the scan and the
-- server detail keep of the catalog: a mod's id, name, size, image, version; its items and scans),
-- series_gen (the stat series' answers: every series table, their day rows, the roll-up
-- watermarks), community_gen (the community metrics and series: communities, their public lists).
INSERT OR IGNORE INTO live_state (key, value) VALUES ('servers_gen', 0), ('catalog_gen', 0), ('series_gen', 0), ('community_gen', 0);
--> statement-breakpoint
CREATE TRIGGER game_servers_gen_ins AFTER INSERT ON game_servers WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_servers_gen_upd AFTER UPDATE ON game_servers WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_servers_gen_del AFTER DELETE ON game_servers WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
-- A write to a server's list also gives the list a new version (game_server_mods_ver).
CREATE TRIGGER game_server_mod_lists_gen_ins AFTER INSERT ON game_server_mod_lists WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
  INSERT INTO game_server_mods_ver (sid, ver) VALUES (NEW.server_sid, (SELECT value FROM live_state WHERE key = 'servers_gen'))
    ON CONFLICT (sid) DO UPDATE SET ver = excluded.ver;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_mod_lists_gen_upd AFTER UPDATE ON game_server_mod_lists WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
  INSERT INTO game_server_mods_ver (sid, ver) VALUES (OLD.server_sid, (SELECT value FROM live_state WHERE key = 'servers_gen'))
    ON CONFLICT (sid) DO UPDATE SET ver = excluded.ver;
  INSERT INTO game_server_mods_ver (sid, ver) VALUES (NEW.server_sid, (SELECT value FROM live_state WHERE key = 'servers_gen'))
    ON CONFLICT (sid) DO UPDATE SET ver = excluded.ver;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_mod_lists_gen_del AFTER DELETE ON game_server_mod_lists WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
  INSERT INTO game_server_mods_ver (sid, ver) VALUES (OLD.server_sid, (SELECT value FROM live_state WHERE key = 'servers_gen'))
    ON CONFLICT (sid) DO UPDATE SET ver = excluded.ver;
END;
--> statement-breakpoint
CREATE TRIGGER live_mod_usage_gen_ins AFTER INSERT ON live_mod_usage WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_mod_usage_gen_upd AFTER UPDATE ON live_mod_usage WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_mod_usage_gen_del AFTER DELETE ON live_mod_usage WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_catalog_gen_mods_ins AFTER INSERT ON mods BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_catalog_gen_mods_upd AFTER UPDATE OF workshop_id, name, size_bytes, image_url, version ON mods
WHEN old.workshop_id IS NOT new.workshop_id OR old.name IS NOT new.name OR old.size_bytes IS NOT new.size_bytes
  OR old.image_url IS NOT new.image_url OR old.version IS NOT new.version BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_catalog_gen_mods_del AFTER DELETE ON mods BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_catalog_gen_items_ins AFTER INSERT ON mod_items BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_catalog_gen_items_upd AFTER UPDATE ON mod_items BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_catalog_gen_items_del AFTER DELETE ON mod_items BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_catalog_gen_scans_ins AFTER INSERT ON mod_item_scans BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_catalog_gen_scans_upd AFTER UPDATE ON mod_item_scans BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_catalog_gen_scans_del AFTER DELETE ON mod_item_scans BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_raw_gen_ins AFTER INSERT ON game_server_stats_raw WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_raw_gen_upd AFTER UPDATE ON game_server_stats_raw WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_raw_gen_del AFTER DELETE ON game_server_stats_raw WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_hourly_gen_ins AFTER INSERT ON game_server_stats_hourly WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_hourly_gen_upd AFTER UPDATE ON game_server_stats_hourly WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_hourly_gen_del AFTER DELETE ON game_server_stats_hourly WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_3h_gen_ins AFTER INSERT ON game_server_stats_3h WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_3h_gen_upd AFTER UPDATE ON game_server_stats_3h WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_3h_gen_del AFTER DELETE ON game_server_stats_3h WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_global_stats_raw_gen_ins AFTER INSERT ON live_global_stats_raw WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_global_stats_raw_gen_upd AFTER UPDATE ON live_global_stats_raw WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_global_stats_raw_gen_del AFTER DELETE ON live_global_stats_raw WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_global_stats_hourly_gen_ins AFTER INSERT ON live_global_stats_hourly WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_global_stats_hourly_gen_upd AFTER UPDATE ON live_global_stats_hourly WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_global_stats_hourly_gen_del AFTER DELETE ON live_global_stats_hourly WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_global_stats_3h_gen_ins AFTER INSERT ON live_global_stats_3h WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_global_stats_3h_gen_upd AFTER UPDATE ON live_global_stats_3h WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_global_stats_3h_gen_del AFTER DELETE ON live_global_stats_3h WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_community_stats_raw_gen_ins AFTER INSERT ON live_community_stats_raw WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_community_stats_raw_gen_upd AFTER UPDATE ON live_community_stats_raw WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_community_stats_raw_gen_del AFTER DELETE ON live_community_stats_raw WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_community_stats_hourly_gen_ins AFTER INSERT ON live_community_stats_hourly WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_community_stats_hourly_gen_upd AFTER UPDATE ON live_community_stats_hourly WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_community_stats_hourly_gen_del AFTER DELETE ON live_community_stats_hourly WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_community_stats_3h_gen_ins AFTER INSERT ON live_community_stats_3h WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_community_stats_3h_gen_upd AFTER UPDATE ON live_community_stats_3h WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_community_stats_3h_gen_del AFTER DELETE ON live_community_stats_3h WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_3h_days_gen_ins AFTER INSERT ON game_server_stats_3h_days WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_3h_days_gen_upd AFTER UPDATE ON game_server_stats_3h_days WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_3h_days_gen_del AFTER DELETE ON game_server_stats_3h_days WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_hourly_days_gen_ins AFTER INSERT ON game_server_stats_hourly_days WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_hourly_days_gen_upd AFTER UPDATE ON game_server_stats_hourly_days WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_hourly_days_gen_del AFTER DELETE ON game_server_stats_hourly_days WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_state_series_gen_ins AFTER INSERT ON live_state WHEN NEW.key IN ('hourly_until', '3h_until') BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER live_state_series_gen_upd AFTER UPDATE OF value ON live_state WHEN NEW.key IN ('hourly_until', '3h_until') BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'series_gen';
END;
--> statement-breakpoint
CREATE TRIGGER communities_gen_ins AFTER INSERT ON communities BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'community_gen';
END;
--> statement-breakpoint
CREATE TRIGGER communities_gen_upd AFTER UPDATE ON communities BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'community_gen';
END;
--> statement-breakpoint
CREATE TRIGGER communities_gen_del AFTER DELETE ON communities BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'community_gen';
END;
--> statement-breakpoint
CREATE TRIGGER lists_community_gen_ins AFTER INSERT ON lists WHEN NEW.community_id IS NOT NULL BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'community_gen';
END;
--> statement-breakpoint
CREATE TRIGGER lists_community_gen_upd AFTER UPDATE OF community_id, is_public ON lists BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'community_gen';
END;
--> statement-breakpoint
CREATE TRIGGER lists_community_gen_del AFTER DELETE ON lists WHEN OLD.community_id IS NOT NULL BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'community_gen';
END;
--> statement-breakpoint
-- ============================== Auth (src/shared/auth.ts, features/users) ==============================

-- The callers kept in memory (keys and users) follow auth_state.gen: every change of a key's
-- owner or hash, of a user's e-mail, name, role, approval or access, and every deletion. A key's
-- last use is not among them.
CREATE TABLE auth_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
--> statement-breakpoint
INSERT OR IGNORE INTO auth_state (key, value) VALUES ('gen', 0);
--> statement-breakpoint
CREATE TRIGGER auth_gen_key_upd AFTER UPDATE OF id, user_id, key_hash ON api_keys BEGIN
  UPDATE auth_state SET value = value + 1 WHERE key = 'gen';
END;
--> statement-breakpoint
CREATE TRIGGER auth_gen_key_del AFTER DELETE ON api_keys BEGIN
  UPDATE auth_state SET value = value + 1 WHERE key = 'gen';
END;
--> statement-breakpoint
CREATE TRIGGER auth_gen_user_upd AFTER UPDATE OF id, email, display_name, role, is_approved ON users BEGIN
  UPDATE auth_state SET value = value + 1 WHERE key = 'gen';
END;
--> statement-breakpoint
CREATE TRIGGER auth_gen_user_access_upd AFTER UPDATE OF disabled_at, tokens_valid_from ON users BEGIN
  UPDATE auth_state SET value = value + 1 WHERE key = 'gen';
END;
--> statement-breakpoint
CREATE TRIGGER auth_gen_user_del AFTER DELETE ON users BEGIN
  UPDATE auth_state SET value = value + 1 WHERE key = 'gen';
END;
--> statement-breakpoint
-- ============================== Jobs (src/jobs) ==============================

-- A claim's probe per type: the earliest due queued job of the type.
CREATE INDEX jobs_queued_type_idx ON jobs(type, run_at, id) WHERE status = 'queued';
--> statement-breakpoint
-- ============================== Servers (src/features/servers) ==============================

-- A change to a list linked to an auto-deploying server queues one deploy.auto-change job.
CREATE TRIGGER servers_auto_deploy_item_insert AFTER INSERT ON list_items
WHEN EXISTS (SELECT 1 FROM servers s WHERE s.linked_list_id = NEW.list_id AND s.auto_deploy = 1)
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.status = 'queued' AND j.type = 'deploy.auto-change'
                  AND json_extract(j.payload, '$.list_id') = NEW.list_id)
BEGIN
  INSERT INTO jobs (id, type, payload, status, attempts, max_attempts, run_at, created_at)
  VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
                || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
          'deploy.auto-change', json_object('list_id', NEW.list_id), 'queued', 0, 3, 0,
          CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
--> statement-breakpoint
CREATE TRIGGER servers_auto_deploy_item_delete AFTER DELETE ON list_items
WHEN EXISTS (SELECT 1 FROM servers s WHERE s.linked_list_id = OLD.list_id AND s.auto_deploy = 1)
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.status = 'queued' AND j.type = 'deploy.auto-change'
                  AND json_extract(j.payload, '$.list_id') = OLD.list_id)
BEGIN
  INSERT INTO jobs (id, type, payload, status, attempts, max_attempts, run_at, created_at)
  VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
                || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
          'deploy.auto-change', json_object('list_id', OLD.list_id), 'queued', 0, 3, 0,
          CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
--> statement-breakpoint
CREATE TRIGGER servers_auto_deploy_item_update AFTER UPDATE OF pinned_version, position, workshop_id ON list_items
WHEN (OLD.pinned_version IS NOT NEW.pinned_version OR OLD.position IS NOT NEW.position OR OLD.workshop_id IS NOT NEW.workshop_id)
  AND EXISTS (SELECT 1 FROM servers s WHERE s.linked_list_id = NEW.list_id AND s.auto_deploy = 1)
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.status = 'queued' AND j.type = 'deploy.auto-change'
                  AND json_extract(j.payload, '$.list_id') = NEW.list_id)
BEGIN
  INSERT INTO jobs (id, type, payload, status, attempts, max_attempts, run_at, created_at)
  VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
                || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
          'deploy.auto-change', json_object('list_id', NEW.list_id), 'queued', 0, 3, 0,
          CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
--> statement-breakpoint
-- Deployments whose stored configs are still in clear (sealed at start: db/sealed.ts).
CREATE INDEX deployments_clear_previous_config_idx ON deployments (id) WHERE substr(previous_config, 1, 3) <> 'v1.';
--> statement-breakpoint
CREATE INDEX deployments_clear_new_config_idx ON deployments (id) WHERE substr(new_config, 1, 3) <> 'v1.';
