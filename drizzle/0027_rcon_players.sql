CREATE TABLE `player_names` (
	`server_id` text NOT NULL,
	`uid` text NOT NULL,
	`name` text NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	PRIMARY KEY(`server_id`, `uid`, `name`),
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `player_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` text NOT NULL,
	`uid` text NOT NULL,
	`name` text NOT NULL,
	`joined_at` integer NOT NULL,
	`left_at` integer,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `player_sessions_server_idx` ON `player_sessions` (`server_id`,`joined_at`);--> statement-breakpoint
CREATE INDEX `player_sessions_uid_idx` ON `player_sessions` (`server_id`,`uid`,`joined_at`);--> statement-breakpoint
CREATE TABLE `server_players` (
	`server_id` text NOT NULL,
	`uid` text NOT NULL,
	`player_id` integer NOT NULL,
	`name` text NOT NULL,
	`joined_at` integer NOT NULL,
	PRIMARY KEY(`server_id`, `uid`),
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `servers` ADD `restart_via` text DEFAULT 'connection' NOT NULL;--> statement-breakpoint
ALTER TABLE `servers` ADD `rcon_host` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `rcon_port` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `rcon_password` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `rcon_set_at` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `config_rcon_port` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `players_fetched_at` integer;