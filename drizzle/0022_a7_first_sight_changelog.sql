-- Custom SQL migration file, put your code below! ---- from src/db/custom/a7_first_sight_changelog.sql
-- A server's first sighting in the changelog by reference (issue 29, item 4): the first sighting
-- records the whole list as `added` (docs/live.md), and each entry was the list's own entry again
-- (workshop id, name, version) with the catalog's size of the mod at that time: a first sight of
-- 5,000 servers wrote ~15 MB of changelog JSON beside the ~11 MB of the lists (and its share of
-- the commit's checkpoint), ~0.25 s of the scan's CPU, and every server ever seen kept its first
-- list twice. Such a row now holds `changes` '[]' and `first_sizes`, a JSON array of the sizes
-- (null: not in the catalog) in the list's order; its changes are its server's
-- game_server_mod_lists row read as `added` entries: [`added`, workshop_id, name, null, version,
-- first_sizes[k]] for each entry k, which is what the full form held. `n` is the list's length.
-- The scan writes this form only when every entry's changelog name is the list's name (a mod
-- reported with an empty name and named by the catalog is written in full, as before).
-- The list must stay the one first written while the row refers to it: before any update or
-- delete of the list row (the scan's upsert of a changed list, a write through the views, a
-- server deleted with its list), the rows of that server still by reference are written in full
-- from the list as it was (the triggers below, which find such rows through a partial index of
-- them and take the full form from the view game_server_mod_first_changes, read before the list
-- changes), so every reader sees the same changes as before.
-- Rows written before keep their full form (first_sizes NULL). The view game_server_mod_changes
-- gives both forms as the old rows (its id: the row's id * 2^20 + the change's index).
ALTER TABLE game_server_mod_events ADD COLUMN first_sizes TEXT;
--> statement-breakpoint
CREATE INDEX game_server_mod_events_first_idx ON game_server_mod_events (server_sid) WHERE first_sizes IS NOT NULL;
--> statement-breakpoint
DROP VIEW game_server_mod_changes;
--> statement-breakpoint
CREATE VIEW game_server_mod_changes AS
  SELECT (e.id << 20) + j.key AS id, e.server_sid, e.time, j.value ->> 0 AS action, j.value ->> 1 AS workshop_id,
    j.value ->> 2 AS mod_name, j.value ->> 3 AS old_version, j.value ->> 4 AS new_version, j.value ->> 5 AS size_bytes
  FROM game_server_mod_events e, json_each(e.changes) j
  UNION ALL
  SELECT (e.id << 20) + j.key, e.server_sid, e.time, 'added', j.value ->> 0, j.value ->> 1, NULL, j.value ->> 2,
    e.first_sizes ->> j.key
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
  SELECT e.id, (SELECT json_group_array(json_array('added', j.value ->> 0, j.value ->> 1, NULL, j.value ->> 2,
      e.first_sizes ->> j.key) ORDER BY j.key) FROM json_each(l.mods) j) AS changes
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
