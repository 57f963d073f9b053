ALTER TABLE `sync_runs` ADD `unreadable` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sync_runs` ADD `lanes_outside` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `marketplace_configs` ADD `oauth_tokens` text;--> statement-breakpoint
ALTER TABLE `marketplace_configs` ADD `oauth_status` text;--> statement-breakpoint
ALTER TABLE `marketplace_configs` ADD `oauth_pending` text;