CREATE TABLE `billing_events` (
	`id` text PRIMARY KEY NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`provider` text NOT NULL,
	`provider_ref` text NOT NULL,
	`refund_ref` text,
	`status` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`months` integer DEFAULT 1 NOT NULL,
	`period_start` integer,
	`period_end` integer,
	`receipt_url` text,
	`note` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_provider_ref_idx` ON `payments` (`provider`,`provider_ref`);--> statement-breakpoint
CREATE INDEX `payments_user_idx` ON `payments` (`user_id`,`id`);--> statement-breakpoint
ALTER TABLE `users` ADD `billing_provider` text;--> statement-breakpoint
ALTER TABLE `users` ADD `stripe_customer_id` text;--> statement-breakpoint
ALTER TABLE `users` ADD `stripe_subscription_id` text;--> statement-breakpoint
ALTER TABLE `users` ADD `cancel_at_period_end` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `first_paid_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `billing_event_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `reminder_sent_for` integer;