CREATE TABLE `fx_rate_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`currency` text NOT NULL,
	`day` text NOT NULL,
	`rate_per_usd` real NOT NULL,
	`source` text NOT NULL,
	`valid_until` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fx_rate_history_currency_day_source_idx` ON `fx_rate_history` (`currency`,`day`,`source`);--> statement-breakpoint
ALTER TABLE `fx_rates` ADD `rate_date` text;--> statement-breakpoint
ALTER TABLE `fx_rates` ADD `source` text DEFAULT 'seed' NOT NULL;