CREATE TABLE `list_server_config_revisions` (
	`audit_id` text PRIMARY KEY NOT NULL,
	`list_id` text NOT NULL,
	`document` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`audit_id`) REFERENCES `list_audit`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `list_server_configs` ADD `document` text;