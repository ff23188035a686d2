CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_idx` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_user_idx` ON `api_keys` (`user_id`);--> statement-breakpoint
CREATE TABLE `auth_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`token_hash` text NOT NULL,
	`email` text NOT NULL,
	`user_id` text,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auth_tokens_hash_idx` ON `auth_tokens` (`token_hash`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text,
	`email_verified` integer DEFAULT false NOT NULL,
	`display_name` text NOT NULL,
	`password_hash` text,
	`role` text DEFAULT 'user' NOT NULL,
	`is_approved` integer DEFAULT false NOT NULL,
	`discord_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_idx` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_discord_idx` ON `users` (`discord_id`);--> statement-breakpoint
CREATE INDEX `users_display_name_idx` ON `users` (`display_name`);--> statement-breakpoint
CREATE INDEX `users_pending_idx` ON `users` (`is_approved`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`payload` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer DEFAULT 3 NOT NULL,
	`run_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`lease_until` integer,
	`error` text,
	`progress` text,
	`result` text,
	`created_by` text,
	`created_at` integer NOT NULL,
	`dedupe_key` text,
	`lane` text
);
--> statement-breakpoint
CREATE INDEX `jobs_claim_idx` ON `jobs` (`status`,`run_at`);--> statement-breakpoint
CREATE INDEX `jobs_type_idx` ON `jobs` (`type`,`created_at`);--> statement-breakpoint
CREATE INDEX `jobs_created_idx` ON `jobs` (`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_dedupe_idx` ON `jobs` (`dedupe_key`) WHERE dedupe_key IS NOT NULL AND status IN ('queued', 'running');--> statement-breakpoint
CREATE INDEX `jobs_lane_idx` ON `jobs` (`lane`,`status`);--> statement-breakpoint
CREATE TABLE `mod_dependencies` (
	`workshop_id` text NOT NULL,
	`depends_on_id` text NOT NULL,
	`depends_on_name` text DEFAULT '' NOT NULL,
	`version` text,
	`size_bytes` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`workshop_id`, `depends_on_id`)
);
--> statement-breakpoint
CREATE INDEX `mod_dependencies_reverse_idx` ON `mod_dependencies` (`depends_on_id`);--> statement-breakpoint
CREATE TABLE `mod_item_scans` (
	`workshop_id` text NOT NULL,
	`version` text NOT NULL,
	`item_count` integer NOT NULL,
	`scanned_at` integer NOT NULL,
	PRIMARY KEY(`workshop_id`, `version`)
);
--> statement-breakpoint
CREATE TABLE `mod_items` (
	`workshop_id` text NOT NULL,
	`version` text NOT NULL,
	`item_key` text NOT NULL,
	`item_type` text NOT NULL,
	`name` text NOT NULL,
	`path` text NOT NULL,
	`guid` text,
	PRIMARY KEY(`workshop_id`, `version`, `item_key`)
);
--> statement-breakpoint
CREATE INDEX `mod_items_type_idx` ON `mod_items` (`workshop_id`,`version`,`item_type`);--> statement-breakpoint
CREATE TABLE `mod_scenarios` (
	`workshop_id` text NOT NULL,
	`version` text NOT NULL,
	`game_id` text NOT NULL,
	`name` text NOT NULL,
	`game_mode` text,
	`player_count` integer,
	`description` text,
	`image_url` text,
	`position` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`workshop_id`, `version`, `game_id`)
);
--> statement-breakpoint
CREATE TABLE `mod_screenshots` (
	`workshop_id` text NOT NULL,
	`position` integer NOT NULL,
	`url` text NOT NULL,
	`width` integer,
	`height` integer,
	PRIMARY KEY(`workshop_id`, `position`)
);
--> statement-breakpoint
CREATE TABLE `mod_tags` (
	`workshop_id` text NOT NULL,
	`tag` text NOT NULL,
	PRIMARY KEY(`workshop_id`, `tag`)
);
--> statement-breakpoint
CREATE INDEX `mod_tags_tag_idx` ON `mod_tags` (`tag`,`workshop_id`);--> statement-breakpoint
CREATE TABLE `mod_versions` (
	`workshop_id` text NOT NULL,
	`version` text NOT NULL,
	`game_version` text,
	`size_bytes` integer DEFAULT 0 NOT NULL,
	`changelog` text,
	`approved` integer DEFAULT true NOT NULL,
	`published` integer DEFAULT true NOT NULL,
	`scenarios_count` integer DEFAULT 0 NOT NULL,
	`dependencies_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer,
	PRIMARY KEY(`workshop_id`, `version`)
);
--> statement-breakpoint
CREATE INDEX `mod_versions_time_idx` ON `mod_versions` (`workshop_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `mods` (
	`workshop_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`summary` text DEFAULT '' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`author_id` text,
	`author_name` text DEFAULT '' NOT NULL,
	`type` text DEFAULT 'addon' NOT NULL,
	`license` text,
	`version` text DEFAULT '' NOT NULL,
	`size_bytes` integer DEFAULT 0 NOT NULL,
	`image_url` text,
	`game_version` text,
	`rating` real,
	`rating_count` integer DEFAULT 0 NOT NULL,
	`subscriber_count` integer DEFAULT 0 NOT NULL,
	`downloads_total` integer DEFAULT 0 NOT NULL,
	`state` text DEFAULT 'unknown' NOT NULL,
	`obsolete` integer DEFAULT false NOT NULL,
	`tags_json` text DEFAULT '[]' NOT NULL,
	`external_links_json` text DEFAULT '[]' NOT NULL,
	`created_at` integer,
	`updated_at` integer,
	`listed_at` integer,
	`detail_scraped_at` integer
);
--> statement-breakpoint
CREATE INDEX `mods_name_idx` ON `mods` (`name`);--> statement-breakpoint
CREATE INDEX `mods_size_idx` ON `mods` (`size_bytes`);--> statement-breakpoint
CREATE INDEX `mods_updated_idx` ON `mods` (`updated_at`);--> statement-breakpoint
CREATE INDEX `mods_state_idx` ON `mods` (`state`);--> statement-breakpoint
CREATE TABLE `scraper_state` (
	`key` text PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `communities` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `communities_slug_idx` ON `communities` (`slug`);--> statement-breakpoint
CREATE INDEX `communities_owner_idx` ON `communities` (`owner_id`);--> statement-breakpoint
CREATE TABLE `community_members` (
	`community_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text DEFAULT 'member' NOT NULL,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`community_id`, `user_id`),
	FOREIGN KEY (`community_id`) REFERENCES `communities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `community_members_user_idx` ON `community_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `folders` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `folders_owner_idx` ON `folders` (`owner_id`);--> statement-breakpoint
CREATE TABLE `list_audit` (
	`id` text PRIMARY KEY NOT NULL,
	`list_id` text NOT NULL,
	`action` text NOT NULL,
	`workshop_id` text,
	`mod_name` text,
	`old_value` text,
	`new_value` text,
	`user_id` text,
	`reverted` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `list_audit_list_idx` ON `list_audit` (`list_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `list_items` (
	`list_id` text NOT NULL,
	`workshop_id` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`position` integer NOT NULL,
	`pinned_version` text,
	`added_by` text,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`list_id`, `workshop_id`),
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `list_items_position_idx` ON `list_items` (`list_id`,`position`);--> statement-breakpoint
CREATE INDEX `list_items_mod_idx` ON `list_items` (`workshop_id`);--> statement-breakpoint
CREATE TABLE `list_pins` (
	`user_id` text NOT NULL,
	`list_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `list_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `list_snapshots` (
	`id` text PRIMARY KEY NOT NULL,
	`list_id` text NOT NULL,
	`version_name` text,
	`tag` text,
	`notes` text,
	`is_release` integer DEFAULT false NOT NULL,
	`snapshot_json` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `list_snapshots_list_idx` ON `list_snapshots` (`list_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `list_tags` (
	`list_id` text NOT NULL,
	`tag_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`list_id`, `tag_id`),
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tag_id`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `list_tags_tag_idx` ON `list_tags` (`tag_id`);--> statement-breakpoint
CREATE TABLE `lists` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`is_public` integer DEFAULT false NOT NULL,
	`share_token` text NOT NULL,
	`suggestion_token` text NOT NULL,
	`require_deploy_approval` integer DEFAULT false NOT NULL,
	`community_id` text,
	`folder_id` text,
	`max_mod_age_days` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`community_id`) REFERENCES `communities`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`folder_id`) REFERENCES `folders`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `lists_owner_idx` ON `lists` (`owner_id`);--> statement-breakpoint
CREATE INDEX `lists_public_idx` ON `lists` (`is_public`,`updated_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `lists_share_token_idx` ON `lists` (`share_token`);--> statement-breakpoint
CREATE UNIQUE INDEX `lists_suggestion_token_idx` ON `lists` (`suggestion_token`);--> statement-breakpoint
CREATE INDEX `lists_community_idx` ON `lists` (`community_id`);--> statement-breakpoint
CREATE TABLE `tags` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`color` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tags_owner_idx` ON `tags` (`owner_id`);--> statement-breakpoint
CREATE TABLE `template_links` (
	`list_id` text NOT NULL,
	`template_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`list_id`, `template_id`),
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `template_links_template_idx` ON `template_links` (`template_id`);--> statement-breakpoint
CREATE TABLE `template_mods` (
	`template_id` text NOT NULL,
	`workshop_id` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`version` text,
	`position` integer NOT NULL,
	PRIMARY KEY(`template_id`, `workshop_id`),
	FOREIGN KEY (`template_id`) REFERENCES `templates`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `templates` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`source_list_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`source_list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `templates_owner_idx` ON `templates` (`owner_id`);--> statement-breakpoint
CREATE TABLE `form_fields` (
	`id` text PRIMARY KEY NOT NULL,
	`list_id` text NOT NULL,
	`label` text NOT NULL,
	`type` text NOT NULL,
	`required` integer DEFAULT false NOT NULL,
	`options_json` text DEFAULT '[]' NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `form_fields_list_idx` ON `form_fields` (`list_id`,`position`);--> statement-breakpoint
CREATE TABLE `group_members` (
	`group_id` text NOT NULL,
	`user_id` text NOT NULL,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`group_id`, `user_id`),
	FOREIGN KEY (`group_id`) REFERENCES `permission_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `group_members_user_idx` ON `group_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `group_owners` (
	`group_id` text NOT NULL,
	`user_id` text NOT NULL,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`group_id`, `user_id`),
	FOREIGN KEY (`group_id`) REFERENCES `permission_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `group_owners_user_idx` ON `group_owners` (`user_id`);--> statement-breakpoint
CREATE TABLE `list_blocks` (
	`list_id` text NOT NULL,
	`user_id` text NOT NULL,
	`blocked_by` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`list_id`, `user_id`),
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `list_collaborators` (
	`list_id` text NOT NULL,
	`user_id` text NOT NULL,
	`can_add` integer DEFAULT true NOT NULL,
	`can_remove` integer DEFAULT false NOT NULL,
	`can_deploy` integer DEFAULT false NOT NULL,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`list_id`, `user_id`),
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `list_collaborators_user_idx` ON `list_collaborators` (`user_id`);--> statement-breakpoint
CREATE TABLE `list_groups` (
	`list_id` text NOT NULL,
	`group_id` text NOT NULL,
	`can_add` integer,
	`can_remove` integer,
	`can_deploy` integer,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`list_id`, `group_id`),
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `permission_groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `list_groups_group_idx` ON `list_groups` (`group_id`);--> statement-breakpoint
CREATE TABLE `list_owners` (
	`list_id` text NOT NULL,
	`user_id` text NOT NULL,
	`added_at` integer NOT NULL,
	PRIMARY KEY(`list_id`, `user_id`),
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `list_owners_user_idx` ON `list_owners` (`user_id`);--> statement-breakpoint
CREATE TABLE `permission_groups` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`can_add` integer DEFAULT false NOT NULL,
	`can_remove` integer DEFAULT false NOT NULL,
	`can_deploy` integer DEFAULT false NOT NULL,
	`community_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`community_id`) REFERENCES `communities`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `permission_groups_owner_idx` ON `permission_groups` (`owner_id`);--> statement-breakpoint
CREATE TABLE `suggestion_votes` (
	`suggestion_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`suggestion_id`, `user_id`),
	FOREIGN KEY (`suggestion_id`) REFERENCES `suggestions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `suggestions` (
	`id` text PRIMARY KEY NOT NULL,
	`list_id` text NOT NULL,
	`user_id` text NOT NULL,
	`workshop_id` text NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`form_answers_json` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`note` text,
	`reviewed_by` text,
	`reviewed_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `suggestions_list_idx` ON `suggestions` (`list_id`,`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `event_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`list_id` text,
	`actor_id` text,
	`data` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`dispatched_at` integer
);
--> statement-breakpoint
CREATE INDEX `event_outbox_pending_idx` ON `event_outbox` (`dispatched_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `notification_preferences` (
	`user_id` text NOT NULL,
	`event` text NOT NULL,
	`enabled` integer NOT NULL,
	PRIMARY KEY(`user_id`, `event`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`event` text NOT NULL,
	`event_id` text,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`list_id` text,
	`data` text DEFAULT '{}' NOT NULL,
	`read` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `notifications_inbox_idx` ON `notifications` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `notifications_unread_idx` ON `notifications` (`user_id`) WHERE "read" = 0;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_event_idx` ON `notifications` (`user_id`,`event_id`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event` text NOT NULL,
	`attempt` integer NOT NULL,
	`success` integer NOT NULL,
	`response_status` integer,
	`error` text,
	`duration_ms` integer NOT NULL,
	`next_retry_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`webhook_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`url` text NOT NULL,
	`type` text NOT NULL,
	`events` text DEFAULT '[]' NOT NULL,
	`scope` text NOT NULL,
	`list_id` text,
	`secret` text,
	`enabled` integer DEFAULT true NOT NULL,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`disabled_at` integer,
	`last_delivery_at` integer,
	`last_status` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhooks_user_idx` ON `webhooks` (`user_id`);--> statement-breakpoint
CREATE INDEX `webhooks_list_idx` ON `webhooks` (`list_id`);--> statement-breakpoint
CREATE TABLE `game_server_mod_changes` (
	`id` integer PRIMARY KEY NOT NULL,
	`server_sid` integer NOT NULL,
	`time` integer NOT NULL,
	`action` text NOT NULL,
	`workshop_id` text NOT NULL,
	`mod_name` text DEFAULT '' NOT NULL,
	`old_version` text,
	`new_version` text,
	`size_bytes` integer
);
--> statement-breakpoint
CREATE INDEX `game_server_mod_changes_server_idx` ON `game_server_mod_changes` (`server_sid`,`id`);--> statement-breakpoint
CREATE TABLE `game_server_mods` (
	`server_id` text NOT NULL,
	`workshop_id` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`version` text,
	`position` integer NOT NULL,
	PRIMARY KEY(`server_id`, `workshop_id`),
	FOREIGN KEY (`server_id`) REFERENCES `game_servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `game_server_mods_mod_idx` ON `game_server_mods` (`workshop_id`,`server_id`);--> statement-breakpoint
CREATE TABLE `game_servers` (
	`id` text PRIMARY KEY NOT NULL,
	`sid` integer NOT NULL,
	`source` text DEFAULT 'battlemetrics' NOT NULL,
	`source_id` text,
	`host_address` text NOT NULL,
	`name` text NOT NULL,
	`ip` text NOT NULL,
	`port` integer NOT NULL,
	`country` text,
	`player_count` integer DEFAULT 0 NOT NULL,
	`player_count_limit` integer DEFAULT 0 NOT NULL,
	`queue_players_count` integer DEFAULT 0 NOT NULL,
	`wait_time_estimation` integer DEFAULT 0 NOT NULL,
	`scenario_name` text DEFAULT '' NOT NULL,
	`game_version` text DEFAULT '' NOT NULL,
	`password_protected` integer DEFAULT false NOT NULL,
	`official` integer DEFAULT false NOT NULL,
	`tags` text DEFAULT ',' NOT NULL,
	`search_text` text DEFAULT '' NOT NULL,
	`mods_count` integer DEFAULT 0 NOT NULL,
	`mods_size_bytes` integer DEFAULT 0 NOT NULL,
	`mods_hash` text DEFAULT '' NOT NULL,
	`online` integer DEFAULT false NOT NULL,
	`players_sum_7d` integer DEFAULT 0 NOT NULL,
	`samples_7d` integer DEFAULT 0 NOT NULL,
	`avg_players_7d` real DEFAULT 0 NOT NULL,
	`community_id` text,
	`first_seen_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	FOREIGN KEY (`community_id`) REFERENCES `communities`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `game_servers_address_idx` ON `game_servers` (`host_address`);--> statement-breakpoint
CREATE UNIQUE INDEX `game_servers_sid_idx` ON `game_servers` (`sid`);--> statement-breakpoint
CREATE INDEX `game_servers_seen_idx` ON `game_servers` (`last_seen_at`);--> statement-breakpoint
CREATE INDEX `game_servers_popularity_idx` ON `game_servers` (`avg_players_7d`);--> statement-breakpoint
CREATE INDEX `game_servers_community_idx` ON `game_servers` (`community_id`);--> statement-breakpoint
CREATE TABLE `live_mod_usage` (
	`workshop_id` text PRIMARY KEY NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`server_count` integer NOT NULL,
	`player_count` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `live_mod_usage_count_idx` ON `live_mod_usage` (`server_count`);--> statement-breakpoint
CREATE TABLE `live_state` (
	`key` text PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `deploy_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`server_id` text NOT NULL,
	`list_id` text NOT NULL,
	`requested_by` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`note` text,
	`decided_by` text,
	`decided_at` integer,
	`deployment_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`requested_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `deploy_requests_list_idx` ON `deploy_requests` (`list_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `deploy_requests_server_idx` ON `deploy_requests` (`server_id`);--> statement-breakpoint
CREATE TABLE `deployments` (
	`id` text PRIMARY KEY NOT NULL,
	`server_id` text NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`list_id` text,
	`requested_by` text,
	`request_id` text,
	`trigger` text DEFAULT 'manual' NOT NULL,
	`item_count` integer,
	`snapshot_json` text,
	`error_message` text,
	`job_id` text,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`requested_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `deployments_server_idx` ON `deployments` (`server_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `deployments_status_idx` ON `deployments` (`status`);--> statement-breakpoint
CREATE TABLE `server_credentials` (
	`server_id` text PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`key_id` text NOT NULL,
	`host_key_sha256` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `servers` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`connection_type` text NOT NULL,
	`file_path` text NOT NULL,
	`linked_list_id` text,
	`auto_deploy` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`linked_list_id`) REFERENCES `lists`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `servers_owner_idx` ON `servers` (`owner_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `servers_linked_list_idx` ON `servers` (`linked_list_id`);