PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text,
	`password_hash` text,
	`phone` text,
	`oidc_issuer` text,
	`oidc_subject` text,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`profile_image_url` text,
	`user_type` text NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`language` text DEFAULT 'en' NOT NULL,
	`calendar` text DEFAULT 'gregorian' NOT NULL,
	`ethiopian_time` integer DEFAULT false NOT NULL,
	`units` text DEFAULT 'imperial' NOT NULL,
	`rating_sum` integer DEFAULT 0 NOT NULL,
	`total_ratings` integer DEFAULT 0 NOT NULL,
	`total_trips` integer DEFAULT 0 NOT NULL,
	`trial_ends_at` integer NOT NULL,
	`paid_until` integer,
	`subscription_cancelled_at` integer,
	`billing_provider` text,
	`stripe_customer_id` text,
	`stripe_subscription_id` text,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`first_paid_at` integer,
	`billing_event_at` integer,
	`reminder_sent_for` integer,
	`latitude` real,
	`longitude` real,
	`location_updated_at` integer,
	`is_available` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_users`("id", "email", "password_hash", "phone", "oidc_issuer", "oidc_subject", "first_name", "last_name", "profile_image_url", "user_type", "currency", "language", "calendar", "ethiopian_time", "units", "rating_sum", "total_ratings", "total_trips", "trial_ends_at", "paid_until", "subscription_cancelled_at", "billing_provider", "stripe_customer_id", "stripe_subscription_id", "cancel_at_period_end", "first_paid_at", "billing_event_at", "reminder_sent_for", "latitude", "longitude", "location_updated_at", "is_available", "created_at", "updated_at") SELECT "id", "email", "password_hash", "phone", "oidc_issuer", "oidc_subject", "first_name", "last_name", "profile_image_url", "user_type", "currency", "language", "calendar", "ethiopian_time", "units", "rating_sum", "total_ratings", "total_trips", "trial_ends_at", "paid_until", "subscription_cancelled_at", "billing_provider", "stripe_customer_id", "stripe_subscription_id", "cancel_at_period_end", "first_paid_at", "billing_event_at", "reminder_sent_for", "latitude", "longitude", "location_updated_at", "is_available", "created_at", "updated_at" FROM `users`;--> statement-breakpoint
DROP TABLE `users`;--> statement-breakpoint
ALTER TABLE `__new_users` RENAME TO `users`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_idx` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_phone_idx` ON `users` (`phone`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_oidc_idx` ON `users` (`oidc_issuer`,`oidc_subject`);--> statement-breakpoint
CREATE INDEX `users_type_idx` ON `users` (`user_type`);
--> statement-breakpoint
CREATE TABLE `email_verifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`email` text NOT NULL,
	`job_key` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_verifications_job_idx` ON `email_verifications` (`job_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `email_verifications_token_idx` ON `email_verifications` (`token_hash`);--> statement-breakpoint
CREATE INDEX `email_verifications_user_idx` ON `email_verifications` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `email_verified_at` integer;
