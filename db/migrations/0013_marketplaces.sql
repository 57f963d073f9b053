CREATE TABLE `marketplace_configs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`provider` text NOT NULL,
	`name` text NOT NULL,
	`api_base_url` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`sync_enabled` integer DEFAULT false NOT NULL,
	`sync_interval_minutes` integer DEFAULT 30 NOT NULL,
	`rate_limit_per_hour` integer DEFAULT 1000 NOT NULL,
	`credentials` text NOT NULL,
	`credential_fields` text NOT NULL,
	`last_sync_at` integer,
	`last_error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `marketplace_configs_user_idx` ON `marketplace_configs` (`user_id`);--> statement-breakpoint
CREATE TABLE `sync_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`config_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`trigger` text NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`found` integer DEFAULT 0 NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	`updated` integer DEFAULT 0 NOT NULL,
	`expired` integer DEFAULT 0 NOT NULL,
	`duration_ms` integer,
	`error` text,
	FOREIGN KEY (`config_id`) REFERENCES `marketplace_configs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sync_runs_user_idx` ON `sync_runs` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `sync_runs_config_idx` ON `sync_runs` (`config_id`,`id`);--> statement-breakpoint
DROP INDEX `loads_source_idx`;--> statement-breakpoint
ALTER TABLE `loads` ADD `source_config_id` integer REFERENCES marketplace_configs(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `loads` ADD `source_owner_id` integer REFERENCES users(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `loads` ADD `source_contact` text;--> statement-breakpoint
ALTER TABLE `loads` ADD `source_hash` text;--> statement-breakpoint
ALTER TABLE `loads` ADD `source_seen_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `loads_source_idx` ON `loads` (`source_config_id`,`source_external_id`);