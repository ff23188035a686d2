-- Custom SQL migration file, put your code below! ---- from src/db/custom/a6_server_mod_lists.sql
-- A server's mod list as one row (issue 29, item 4): game_server_mods_by_sid held one row per
-- (server, mod), ~200,000 rows written by a first sight of 5,000 servers (~0.3-0.4 s of its CPU,
-- the primary key's appends and the record work; docs/performance.md "Round 3, scan"). The list
-- is now one row per server in game_server_mod_lists: `mods` a JSON array of
-- [workshop_id, name, version, position], in the order the scan found them (by position; rows
-- written through the views below are appended). A reader that needs an order says so (the
-- snapshot's list read sorts by workshop id, the detail by position).
-- `game_server_mods_by_sid` becomes a view with the old columns over the lists (json_each), and
-- stays writable through INSTEAD OF triggers (each rewrites the server's list), so raw SQL (the
-- tests, an operator) and the readers that take rows keep working (the ids, names and versions
-- stored as text, as the old columns' affinity did); `game_server_mods` (the
-- view of a1_server_mods_by_sid.sql, columns server_id, workshop_id, name, version, position)
-- is made again over it, unchanged. The generation triggers (a1, a2) move to the lists' table
-- under their old names: every write by any path moves servers_gen and sets the server's
-- mod-list version, as before (by upserts: an INSERT OR REPLACE in a trigger takes the conflict
-- rule of the statement that fired it, and the scan's upsert of a list would make it abort).
CREATE TABLE game_server_mod_lists (
  server_sid INTEGER PRIMARY KEY REFERENCES game_servers(sid) ON DELETE CASCADE,
  mods TEXT NOT NULL
);
--> statement-breakpoint
INSERT INTO game_server_mod_lists (server_sid, mods)
  SELECT server_sid, json_group_array(json_array(workshop_id, name, version, position) ORDER BY position, workshop_id)
  FROM game_server_mods_by_sid GROUP BY server_sid ORDER BY server_sid;
--> statement-breakpoint
DROP VIEW game_server_mods;
--> statement-breakpoint
DROP TABLE game_server_mods_by_sid;
--> statement-breakpoint
CREATE VIEW game_server_mods_by_sid AS
  SELECT l.server_sid, j.value ->> 0 AS workshop_id, j.value ->> 1 AS name, j.value ->> 2 AS version, j.value ->> 3 AS position
  FROM game_server_mod_lists l, json_each(l.mods) j;
--> statement-breakpoint
CREATE VIEW game_server_mods AS
  SELECT g.id AS server_id, gm.workshop_id, gm.name, gm.version, gm.position
  FROM game_server_mods_by_sid gm JOIN game_servers g ON g.sid = gm.server_sid;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_by_sid_ins INSTEAD OF INSERT ON game_server_mods_by_sid BEGIN
  SELECT RAISE(ABORT, 'NOT NULL constraint failed: game_server_mods_by_sid.server_sid') WHERE NEW.server_sid IS NULL;
  SELECT RAISE(ABORT, 'NOT NULL constraint failed: game_server_mods_by_sid.workshop_id') WHERE NEW.workshop_id IS NULL;
  SELECT RAISE(ABORT, 'NOT NULL constraint failed: game_server_mods_by_sid.position') WHERE NEW.position IS NULL;
  SELECT RAISE(ABORT, 'UNIQUE constraint failed: game_server_mods_by_sid.server_sid, game_server_mods_by_sid.workshop_id')
    WHERE EXISTS (SELECT 1 FROM game_server_mod_lists l, json_each(l.mods) j
                  WHERE l.server_sid = NEW.server_sid AND j.value ->> 0 = NEW.workshop_id);
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
                  WHERE l.server_sid = NEW.server_sid AND j.value ->> 0 = NEW.workshop_id);
  -- In place, on the same server: the one element replaced where it is.
  UPDATE game_server_mod_lists SET mods = json_set(mods,
    (SELECT j.fullkey FROM json_each(game_server_mod_lists.mods) j WHERE j.value ->> 0 = OLD.workshop_id),
    json_array(CAST(NEW.workshop_id AS TEXT), CAST(coalesce(NEW.name, '') AS TEXT), CAST(NEW.version AS TEXT), NEW.position))
  WHERE server_sid = OLD.server_sid AND OLD.server_sid IS NEW.server_sid;
  -- To another server: taken out of the old list, inserted into the new one (the insert trigger).
  UPDATE game_server_mod_lists SET mods = (
    SELECT json_group_array(json(j.value)) FROM json_each(game_server_mod_lists.mods) j WHERE j.value ->> 0 IS NOT OLD.workshop_id)
  WHERE server_sid = OLD.server_sid AND OLD.server_sid IS NOT NEW.server_sid;
  DELETE FROM game_server_mod_lists WHERE server_sid = OLD.server_sid AND mods = '[]';
  INSERT INTO game_server_mods_by_sid (server_sid, workshop_id, name, version, position)
    SELECT NEW.server_sid, NEW.workshop_id, NEW.name, NEW.version, NEW.position WHERE OLD.server_sid IS NOT NEW.server_sid;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_by_sid_del INSTEAD OF DELETE ON game_server_mods_by_sid BEGIN
  UPDATE game_server_mod_lists SET mods = (
    SELECT json_group_array(json(j.value)) FROM json_each(game_server_mod_lists.mods) j WHERE j.value ->> 0 IS NOT OLD.workshop_id)
  WHERE server_sid = OLD.server_sid;
  DELETE FROM game_server_mod_lists WHERE server_sid = OLD.server_sid AND mods = '[]';
END;
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
CREATE TRIGGER game_server_mods_gen_ins AFTER INSERT ON game_server_mod_lists BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
  INSERT INTO game_server_mods_ver (sid, ver) VALUES (NEW.server_sid, (SELECT value FROM live_state WHERE key = 'servers_gen'))
    ON CONFLICT (sid) DO UPDATE SET ver = excluded.ver;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_gen_upd AFTER UPDATE ON game_server_mod_lists BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
  INSERT INTO game_server_mods_ver (sid, ver) VALUES (OLD.server_sid, (SELECT value FROM live_state WHERE key = 'servers_gen'))
    ON CONFLICT (sid) DO UPDATE SET ver = excluded.ver;
  INSERT INTO game_server_mods_ver (sid, ver) VALUES (NEW.server_sid, (SELECT value FROM live_state WHERE key = 'servers_gen'))
    ON CONFLICT (sid) DO UPDATE SET ver = excluded.ver;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_gen_del AFTER DELETE ON game_server_mod_lists BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
  INSERT INTO game_server_mods_ver (sid, ver) VALUES (OLD.server_sid, (SELECT value FROM live_state WHERE key = 'servers_gen'))
    ON CONFLICT (sid) DO UPDATE SET ver = excluded.ver;
END;
