-- Custom SQL migration file, put your code below! ---- from src/db/custom/a2_server_mods_ver.sql
-- A version per server's mod list: the live snapshot's build (snapshot.ts
-- modIndex) re-reads only the lists whose version moved since its last build instead of every
-- list of the ~5,000-10,000 servers in the window (~90 ms of a steady scan). Every write to a
-- server's mod rows, by any path (the scan, raw SQL, the view's triggers, a cascade), sets the
-- server's version to servers_gen just after the same trigger moved it: a value no earlier
-- write had. The scan's bulk insert of a first sight (the one write without this trigger,
-- repository.ts insertMods) sets the versions itself. Rows of servers seen before this
-- migration start at 0.
CREATE TABLE game_server_mods_ver (
  sid INTEGER PRIMARY KEY,
  ver INTEGER NOT NULL
);
--> statement-breakpoint
INSERT INTO game_server_mods_ver (sid, ver) SELECT DISTINCT server_sid, 0 FROM game_server_mods_by_sid;
--> statement-breakpoint
DROP TRIGGER game_server_mods_gen_ins;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_gen_ins AFTER INSERT ON game_server_mods_by_sid BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
  INSERT OR REPLACE INTO game_server_mods_ver (sid, ver) VALUES (NEW.server_sid, (SELECT value FROM live_state WHERE key = 'servers_gen'));
END;
--> statement-breakpoint
DROP TRIGGER game_server_mods_gen_upd;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_gen_upd AFTER UPDATE ON game_server_mods_by_sid BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
  INSERT OR REPLACE INTO game_server_mods_ver (sid, ver) VALUES (OLD.server_sid, (SELECT value FROM live_state WHERE key = 'servers_gen'));
  INSERT OR REPLACE INTO game_server_mods_ver (sid, ver) VALUES (NEW.server_sid, (SELECT value FROM live_state WHERE key = 'servers_gen'));
END;
--> statement-breakpoint
DROP TRIGGER game_server_mods_gen_del;
--> statement-breakpoint
CREATE TRIGGER game_server_mods_gen_del AFTER DELETE ON game_server_mods_by_sid BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
  INSERT OR REPLACE INTO game_server_mods_ver (sid, ver) VALUES (OLD.server_sid, (SELECT value FROM live_state WHERE key = 'servers_gen'));
END;
