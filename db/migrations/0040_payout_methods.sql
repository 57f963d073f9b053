CREATE TABLE `payout_methods` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`provider` text NOT NULL,
	`stripe_account_id` text,
	`payouts_enabled` integer DEFAULT false NOT NULL,
	`details_submitted` integer DEFAULT false NOT NULL,
	`requirements_due` text,
	`bank_code` integer,
	`bank_name` text,
	`mobile_money` integer DEFAULT false NOT NULL,
	`account_number` text,
	`account_name` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payout_methods_user_idx` ON `payout_methods` (`user_id`,`provider`);--> statement-breakpoint
CREATE UNIQUE INDEX `payout_methods_stripe_idx` ON `payout_methods` (`stripe_account_id`);
