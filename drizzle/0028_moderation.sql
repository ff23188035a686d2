CREATE TABLE `moderation_log` (
	`id` text PRIMARY KEY NOT NULL,
	`server_id` text NOT NULL,
	`action` text NOT NULL,
	`actor_id` text,
	`ban_id` text,
	`uid` text,
	`name` text,
	`reason` text,
	`duration_s` integer,
	`result` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `moderation_log_server_idx` ON `moderation_log` (`server_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `server_bans` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`server_id` text NOT NULL,
	`scope` text NOT NULL,
	`uid` text NOT NULL,
	`name` text NOT NULL,
	`reason` text NOT NULL,
	`duration_s` integer NOT NULL,
	`expires_at` integer,
	`created_by` text,
	`created_at` integer NOT NULL,
	`lifted_at` integer,
	`lifted_by` text,
	`expired_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`lifted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `server_bans_owner_idx` ON `server_bans` (`owner_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `server_bans_uid_idx` ON `server_bans` (`owner_id`,`uid`);--> statement-breakpoint
CREATE TABLE `server_moderators` (
	`server_id` text NOT NULL,
	`user_id` text NOT NULL,
	`added_by` text,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`server_id`, `user_id`),
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`added_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `server_moderators_user_idx` ON `server_moderators` (`user_id`);