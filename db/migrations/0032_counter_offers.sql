CREATE TABLE `bid_counters` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bid_id` integer NOT NULL,
	`load_id` integer NOT NULL,
	`side` text NOT NULL,
	`author_id` integer NOT NULL,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`created_at` integer NOT NULL,
	`answered_at` integer,
	FOREIGN KEY (`bid_id`) REFERENCES `bids`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`load_id`) REFERENCES `loads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `bid_counters_bid_idx` ON `bid_counters` (`bid_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `bid_counters_one_open_idx` ON `bid_counters` (`bid_id`) WHERE status = 'open';--> statement-breakpoint
ALTER TABLE `loads` ADD `agreed_amount_minor` integer;--> statement-breakpoint
ALTER TABLE `loads` ADD `agreed_currency` text;--> statement-breakpoint
-- Loads awarded before counter-offers agreed their accepted bid's amount.
UPDATE `loads` SET `agreed_amount_minor` = (SELECT `amount_minor` FROM `bids` WHERE `bids`.`id` = `loads`.`accepted_bid_id`), `agreed_currency` = (SELECT `currency` FROM `bids` WHERE `bids`.`id` = `loads`.`accepted_bid_id`) WHERE `accepted_bid_id` IS NOT NULL;
