-- The schema as the code says it (docs/architecture.md "The schema"), first of three steps. Every
-- table drizzle-kit can express is declared in a tables.ts from now on, so the next migrations
-- (drizzle-kit's) create game_server_mod_lists, game_server_mods_ver, game_server_mod_events,
-- live_global_stats_raw/_hourly/_3h and mod_growth_buckets, which custom SQL made: each steps aside
-- here under another name (a rename rewrites no row) and b3 moves its rows into the table
-- drizzle-kit makes. The views and triggers that read or write them are dropped here and made
-- again in b3 as src/db/schema-objects.sql defines them. game_server_mods and
-- game_server_mod_changes, views since a1 and a3 but tables in drizzle-kit's snapshot, become
-- placeholder tables that drizzle-kit's next migration drops (it knows them as views from then on).
DROP VIEW game_server_mods;
--> statement-breakpoint
DROP VIEW game_server_mod_changes;
--> statement-breakpoint
DROP VIEW game_server_mod_first_changes;
--> statement-breakpoint
DROP VIEW game_server_mods_by_sid;
--> statement-breakpoint
DROP TRIGGER game_server_mods_gen_ins;
--> statement-breakpoint
DROP TRIGGER game_server_mods_gen_upd;
--> statement-breakpoint
DROP TRIGGER game_server_mods_gen_del;
--> statement-breakpoint
DROP TRIGGER game_server_mod_events_first_upd;
--> statement-breakpoint
DROP TRIGGER game_server_mod_events_first_del;
--> statement-breakpoint
DROP TRIGGER catalog_growth_gen_buckets_ins;
--> statement-breakpoint
DROP TRIGGER catalog_growth_gen_buckets_upd;
--> statement-breakpoint
DROP TRIGGER catalog_growth_gen_buckets_del;
--> statement-breakpoint
DROP INDEX game_server_mod_events_server_idx;
--> statement-breakpoint
DROP INDEX game_server_mod_events_first_idx;
--> statement-breakpoint
CREATE TABLE game_server_mods (placeholder INTEGER);
--> statement-breakpoint
CREATE TABLE game_server_mod_changes (placeholder INTEGER);
--> statement-breakpoint
ALTER TABLE game_server_mod_lists RENAME TO moving_game_server_mod_lists;
--> statement-breakpoint
ALTER TABLE game_server_mods_ver RENAME TO moving_game_server_mods_ver;
--> statement-breakpoint
ALTER TABLE game_server_mod_events RENAME TO moving_game_server_mod_events;
--> statement-breakpoint
ALTER TABLE live_global_stats_raw RENAME TO moving_live_global_stats_raw;
--> statement-breakpoint
ALTER TABLE live_global_stats_hourly RENAME TO moving_live_global_stats_hourly;
--> statement-breakpoint
ALTER TABLE live_global_stats_3h RENAME TO moving_live_global_stats_3h;
--> statement-breakpoint
ALTER TABLE mod_growth_buckets RENAME TO moving_mod_growth_buckets;
