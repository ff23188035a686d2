-- Custom SQL migration file, put your code below! ---- from src/db/custom/b3_bulk_flag_and_counters.sql
-- The schema as the code says it, third of three steps (b2 has the first): the rows of the
-- tables that stepped aside move into the tables drizzle-kit made for them in the migration
-- before (same columns, same rowids), and every view, trigger and index b2 dropped is made again
-- as src/db/schema-objects.sql defines it. With them:
--   * the live feature's per-row generation triggers skip while a bulk writer holds a row of
--     live_bulk_write (in its own transaction; the scan, the roll-up: they move the counters once
--     themselves) instead of the scan dropping and creating them in its transaction;
--   * game_server_mods_gen_* (on game_server_mod_lists since a6) are named after their table:
--     game_server_mod_lists_gen_*;
--   * live_mod_usage moves servers_gen (the snapshot holds its top) like the snapshot's other tables;
--   * series_gen (the stat series' answers: every series table, their day rows, the roll-up's
--     watermarks) and community_gen (the community metrics and series: communities, their public
--     lists) are counters moved by triggers, which the answers follow instead of any write to the
--     database (total_changes(), data_version).
INSERT INTO game_server_mod_lists (server_sid, mods) SELECT server_sid, mods FROM moving_game_server_mod_lists;
--> statement-breakpoint
DROP TABLE moving_game_server_mod_lists;
--> statement-breakpoint
INSERT INTO game_server_mods_ver (sid, ver) SELECT sid, ver FROM moving_game_server_mods_ver;
--> statement-breakpoint
DROP TABLE moving_game_server_mods_ver;
--> statement-breakpoint
INSERT INTO game_server_mod_events (id, server_sid, time, n, changes, first_sizes) SELECT id, server_sid, time, n, changes, first_sizes FROM moving_game_server_mod_events;
--> statement-breakpoint
DROP TABLE moving_game_server_mod_events;
--> statement-breakpoint
INSERT INTO live_global_stats_raw (time, players, queue, servers) SELECT time, players, queue, servers FROM moving_live_global_stats_raw;
--> statement-breakpoint
DROP TABLE moving_live_global_stats_raw;
--> statement-breakpoint
INSERT INTO live_global_stats_hourly (time, n, players_sum, players_max, queue_sum, servers_sum, servers_max) SELECT time, n, players_sum, players_max, queue_sum, servers_sum, servers_max FROM moving_live_global_stats_hourly;
--> statement-breakpoint
DROP TABLE moving_live_global_stats_hourly;
--> statement-breakpoint
INSERT INTO live_global_stats_3h (time, n, players_sum, players_max, queue_sum, servers_sum, servers_max) SELECT time, n, players_sum, players_max, queue_sum, servers_sum, servers_max FROM moving_live_global_stats_3h;
--> statement-breakpoint
DROP TABLE moving_live_global_stats_3h;
--> statement-breakpoint
INSERT INTO mod_growth_buckets (bucket, created_at) SELECT bucket, created_at FROM moving_mod_growth_buckets;
--> statement-breakpoint
DROP TABLE moving_mod_growth_buckets;
--> statement-breakpoint
CREATE INDEX game_server_mod_events_server_idx ON game_server_mod_events (server_sid, id);
--> statement-breakpoint
CREATE INDEX game_server_mod_events_first_idx ON game_server_mod_events (server_sid) WHERE first_sizes IS NOT NULL;
--> statement-breakpoint
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
INSERT OR IGNORE INTO live_state (key, value) VALUES ('series_gen', 0), ('community_gen', 0);
--> statement-breakpoint
DROP TRIGGER game_servers_gen_ins;
--> statement-breakpoint
CREATE TRIGGER game_servers_gen_ins AFTER INSERT ON game_servers WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
DROP TRIGGER game_servers_gen_upd;
--> statement-breakpoint
CREATE TRIGGER game_servers_gen_upd AFTER UPDATE ON game_servers WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
DROP TRIGGER game_servers_gen_del;
--> statement-breakpoint
CREATE TRIGGER game_servers_gen_del AFTER DELETE ON game_servers WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_mod_lists_gen_ins AFTER INSERT ON game_server_mod_lists WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
  INSERT INTO game_server_mods_ver (sid, ver) VALUES (NEW.server_sid, (SELECT value FROM live_state WHERE key = 'servers_gen'))
    ON CONFLICT (sid) DO UPDATE SET ver = excluded.ver;
END;
--> statement-breakpoint
CREATE TRIGGER live_mod_usage_gen_ins AFTER INSERT ON live_mod_usage WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
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
CREATE TRIGGER live_mod_usage_gen_upd AFTER UPDATE ON live_mod_usage WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_mod_lists_gen_del AFTER DELETE ON game_server_mod_lists WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
  INSERT INTO game_server_mods_ver (sid, ver) VALUES (OLD.server_sid, (SELECT value FROM live_state WHERE key = 'servers_gen'))
    ON CONFLICT (sid) DO UPDATE SET ver = excluded.ver;
END;
--> statement-breakpoint
CREATE TRIGGER live_mod_usage_gen_del AFTER DELETE ON live_mod_usage WHEN NOT EXISTS (SELECT 1 FROM live_bulk_write) BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
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
