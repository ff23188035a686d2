ALTER TABLE `deployments` ADD `restart_mode` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `deployments` ADD `empty_wait_s` integer;--> statement-breakpoint
ALTER TABLE `deployments` ADD `verify_timeout_s` integer;--> statement-breakpoint
ALTER TABLE `deployments` ADD `phase` text;--> statement-breakpoint
ALTER TABLE `deployments` ADD `phase_started_at` integer;--> statement-breakpoint
ALTER TABLE `deployments` ADD `previous_config` text;--> statement-breakpoint
ALTER TABLE `deployments` ADD `new_config` text;--> statement-breakpoint
ALTER TABLE `deployments` ADD `restart_now_requested_at` integer;--> statement-breakpoint
ALTER TABLE `deployments` ADD `restart_requested_at` integer;--> statement-breakpoint
ALTER TABLE `deployments` ADD `restarted_at` integer;--> statement-breakpoint
ALTER TABLE `deployments` ADD `restart_exit_status` integer;--> statement-breakpoint
ALTER TABLE `deployments` ADD `restart_output` text;--> statement-breakpoint
ALTER TABLE `deployments` ADD `wait_ended` text;--> statement-breakpoint
ALTER TABLE `deployments` ADD `verified_at` integer;--> statement-breakpoint
ALTER TABLE `deployments` ADD `verify_note` text;--> statement-breakpoint
ALTER TABLE `deployments` ADD `rolled_back` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `deployments` ADD `rollback_reason` text;--> statement-breakpoint
ALTER TABLE `deployments` ADD `rollback_written_at` integer;--> statement-breakpoint
ALTER TABLE `deployments` ADD `rollback_restart_requested_at` integer;--> statement-breakpoint
ALTER TABLE `deployments` ADD `rollback_restarted_at` integer;--> statement-breakpoint
ALTER TABLE `deployments` ADD `rollback_verified_at` integer;--> statement-breakpoint
ALTER TABLE `servers` ADD `restart` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `servers` ADD `empty_wait_s` integer DEFAULT 3600 NOT NULL;--> statement-breakpoint
ALTER TABLE `servers` ADD `verify_timeout_s` integer DEFAULT 600 NOT NULL;--> statement-breakpoint
ALTER TABLE `servers` ADD `restart_command` text;