DROP TABLE `game_server_mod_changes`;--> statement-breakpoint
DROP TABLE `game_server_mods`;