CREATE TABLE `source_status` (
	`source` text PRIMARY KEY NOT NULL,
	`last_ok_at` integer,
	`last_error` text,
	`last_error_at` integer
);
--> statement-breakpoint
ALTER TABLE `game_servers` ADD `registered_server_id` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `query_address` text;