-- Custom SQL migration file, put your code below! ---- from src/db/custom/a4_mod_names.sql
-- The per-mod index of the mod rows (workshop_id, server_sid) goes: a first
-- sight's ~200,000 rows each took an entry scattered over it, ~0.4 s of the scan's ~2.4 s. Its
-- readers: the snapshot counts the usage in memory; the growth job reads the rows of the servers
-- seen in the hour by their primary key; what needs it is live_mod_usage's name for a mod the
-- catalog has no name for: the name of the mod's row with the smallest sid among those with a
-- name (what the index gave, `LIMIT 1` in its order). That row is kept here per mod instead, and
-- brought up to date before each usage write from the servers whose mod-list version moved since
-- (game_server_mods_ver, a2_server_mods_ver.sql; live_state.mod_names_ver: the generation it is
-- up to date at). repository.ts refreshModNames.
CREATE TABLE live_mod_names (
  workshop_id TEXT PRIMARY KEY,
  server_sid INTEGER NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO live_mod_names (workshop_id, server_sid)
  SELECT workshop_id, min(server_sid) FROM game_server_mods_by_sid WHERE name != '' GROUP BY workshop_id;
--> statement-breakpoint
INSERT OR REPLACE INTO live_state (key, value)
  VALUES ('mod_names_ver', coalesce((SELECT value FROM live_state WHERE key = 'servers_gen'), 0));
--> statement-breakpoint
DROP INDEX game_server_mods_by_sid_mod_idx;
