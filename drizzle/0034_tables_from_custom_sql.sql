CREATE TABLE `mod_growth_buckets` (
	`bucket` integer PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `game_server_mod_events` (
	`id` integer PRIMARY KEY NOT NULL,
	`server_sid` integer NOT NULL,
	`time` integer NOT NULL,
	`n` integer NOT NULL,
	`changes` text NOT NULL,
	`first_sizes` text
);
--> statement-breakpoint
CREATE TABLE `game_server_mod_lists` (
	`server_sid` integer PRIMARY KEY NOT NULL,
	`mods` text NOT NULL,
	FOREIGN KEY (`server_sid`) REFERENCES `game_servers`(`sid`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `game_server_mods_ver` (
	`sid` integer PRIMARY KEY NOT NULL,
	`ver` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `live_bulk_write` (
	`writer` text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE `live_global_stats_hourly` (
	`time` integer PRIMARY KEY NOT NULL,
	`n` integer NOT NULL,
	`players_sum` integer NOT NULL,
	`players_max` integer NOT NULL,
	`queue_sum` integer NOT NULL,
	`servers_sum` integer NOT NULL,
	`servers_max` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `live_global_stats_raw` (
	`time` integer PRIMARY KEY NOT NULL,
	`players` integer NOT NULL,
	`queue` integer NOT NULL,
	`servers` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `live_global_stats_3h` (
	`time` integer PRIMARY KEY NOT NULL,
	`n` integer NOT NULL,
	`players_sum` integer NOT NULL,
	`players_max` integer NOT NULL,
	`queue_sum` integer NOT NULL,
	`servers_sum` integer NOT NULL,
	`servers_max` integer NOT NULL
);
