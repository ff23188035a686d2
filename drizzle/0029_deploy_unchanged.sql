ALTER TABLE `deployments` ADD `config_unchanged` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `deployments` ADD `restart_anyway` integer DEFAULT false NOT NULL;