ALTER TABLE `deployments` ADD `rename_keys` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `config_issues_json` text;