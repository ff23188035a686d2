-- The servers' mod lists keyed by the server's integer sid: game_server_mods
-- keyed both its indexes (primary key and the per-mod index) by the 36-character server UUID; the
-- same rows in a WITHOUT ROWID table keyed by (sid, workshop id) cost about 0.6 of the insert of
-- a first sight (~200,000 rows; docs/performance.md "Round 2, scan"). The rows move here, in the
-- same order of each server's mods (the primary key: sid, then workshop id).
-- `game_server_mods` stays as a view with the old columns (server_id, workshop_id, name, version,
-- position), writable through INSTEAD OF triggers, for any raw SQL (tests, the test truths, an
-- operator's query); the service's scan and its hot readers use this table by sid.
-- The live generation triggers of 70_live_snapshot_gen.sql (dropped with the old table) are made
-- again here on the new table under their old names: every write, also through the view, moves
-- servers_gen.
CREATE TABLE game_server_mods_by_sid (
  server_sid INTEGER NOT NULL REFERENCES game_servers(sid) ON DELETE CASCADE,
  workshop_id TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  version TEXT,
  position INTEGER NOT NULL,
  PRIMARY KEY (server_sid, workshop_id)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO game_server_mods_by_sid (server_sid, workshop_id, name, version, position)
  SELECT g.sid, gm.workshop_id, gm.name, gm.version, gm.position
  FROM game_server_mods gm JOIN game_servers g ON g.id = gm.server_id
  ORDER BY g.sid, gm.workshop_id;
--> statement-breakpoint
DROP TABLE game_server_mods;
--> statement-breakpoint
CREATE INDEX game_server_mods_by_sid_mod_idx ON game_server_mods_by_sid (workshop_id, server_sid);
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
CREATE TRIGGER game_server_mods_gen_ins AFTER INSERT ON game_server_mods_by_sid BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_gen_upd AFTER UPDATE ON game_server_mods_by_sid BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_gen_del AFTER DELETE ON game_server_mods_by_sid BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
