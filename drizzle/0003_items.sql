ALTER TABLE `servers` ADD `items_scan` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `servers` ADD `addons_path` text;