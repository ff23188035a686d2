CREATE TABLE `list_server_configs` (
	`list_id` text PRIMARY KEY NOT NULL,
	`settings_json` text NOT NULL,
	`secrets` text,
	`has_mods_key` integer DEFAULT true NOT NULL,
	`updated_by` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `list_items` ADD `required` integer;