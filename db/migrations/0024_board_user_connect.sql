ALTER TABLE `marketplace_configs` ADD `oauth_tokens` text;--> statement-breakpoint
ALTER TABLE `marketplace_configs` ADD `oauth_status` text;--> statement-breakpoint
ALTER TABLE `marketplace_configs` ADD `oauth_pending` text;