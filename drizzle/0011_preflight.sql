ALTER TABLE `deployments` ADD `forced` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `servers` ADD `config_scenario_id` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `config_mods_json` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `config_read_at` integer;