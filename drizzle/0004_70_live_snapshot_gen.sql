-- Custom SQL migration file, put your code below! ---- from src/db/custom/70_live_snapshot_gen.sql
-- Live snapshot (issue 15): the online game servers are answered from an in-memory snapshot
-- built after each scan commit (src/features/live/snapshot.ts). SQLite stays the truth: every
-- write to game_servers or game_server_mods, by any code path or process (scan, roll-up,
-- community assignment, a deleted community's ON DELETE SET NULL, a test's raw SQL), moves this
-- generation, and a reader whose snapshot was built at another generation builds a new one.
INSERT OR IGNORE INTO live_state (key, value) VALUES ('servers_gen', 0);
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS game_servers_gen_ins AFTER INSERT ON game_servers BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS game_servers_gen_upd AFTER UPDATE ON game_servers BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS game_servers_gen_del AFTER DELETE ON game_servers BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS game_server_mods_gen_ins AFTER INSERT ON game_server_mods BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS game_server_mods_gen_upd AFTER UPDATE ON game_server_mods BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS game_server_mods_gen_del AFTER DELETE ON game_server_mods BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'servers_gen';
END;
