-- The schema readable by SQLite 3.37 and later (issue 44 item 5): Debian 12's sqlite3 (3.40),
-- Ubuntu 22.04's (3.37) and Python's sqlite3 module refused every Loadout database with
-- "malformed database schema (game_server_stats_3h_days_ins) - near "ORDER": syntax error",
-- because SQLite parses the whole schema on open. Every object that needed a newer SQLite is
-- dropped and made again with an equivalent definition:
--   * an aggregate's own ORDER BY (`group_concat(x, '' ORDER BY y)`, `json_group_array(x ORDER
--     BY y)`: SQLite 3.44) becomes the aggregate over a subquery ordered the same way (the
--     subquery is not flattened into an aggregate and its rows reach the aggregate in that order;
--     test/sqlite-compat.test.ts runs the old and the new definitions side by side on the same
--     writes and compares every derived row, and runs the new ones on the distribution's 3.40);
--   * the JSON operator `x ->> k` (3.38) becomes, where its value leaves the expression (a view's
--     column, an argument of json_array), the first row of json_tree(x, path): its `atom` (the
--     SQL value of a string, number, true, false or null), else its `value || ''` (an array or
--     object as plain JSON text: `->>` hands them on as text, where json_extract would mark them
--     JSON and json_array would nest them); no element, no row: NULL. The path is the one `->>`
--     builds from k ('$[N]' for an integer; for a text label '$.label', '$."label"', '$[...]' or
--     a full '$' path, as SQLite's json.c does). In comparisons json_extract(x, '$[N]') stands
--     alone (the same value). Reading the views costs about what it did (json_tree stops at the
--     element; two json calls a column cost twice as much).
-- Dropping a view drops its INSTEAD OF triggers: they are made again below, unchanged but for
-- `->>`. Nothing else changes: the tables, their rows and every other object stay as they were.
-- test/sqlite-compat.test.ts also refuses such constructs in the final schema, so a later
-- migration cannot bring them back unnoticed.
DROP TRIGGER game_server_stats_3h_days_ins;
--> statement-breakpoint
DROP TRIGGER game_server_stats_3h_days_del;
--> statement-breakpoint
DROP TRIGGER game_server_stats_3h_days_upd;
--> statement-breakpoint
DROP TRIGGER game_server_stats_hourly_days_ins;
--> statement-breakpoint
DROP TRIGGER game_server_stats_hourly_days_del;
--> statement-breakpoint
DROP TRIGGER game_server_stats_hourly_days_upd;
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
DROP VIEW game_server_mods_by_sid;
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
DROP VIEW game_server_mod_changes;
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
DROP VIEW game_server_mod_first_changes;
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
