CREATE TABLE `bids` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`load_id` integer NOT NULL,
	`driver_id` integer NOT NULL,
	`amount_minor` integer NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`proposed_pickup_date` integer,
	`notes` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`load_id`) REFERENCES `loads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`driver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `bids_load_idx` ON `bids` (`load_id`,`status`);--> statement-breakpoint
CREATE INDEX `bids_driver_idx` ON `bids` (`driver_id`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `bids_one_pending_idx` ON `bids` (`load_id`,`driver_id`) WHERE status = 'pending';--> statement-breakpoint
CREATE TABLE `fx_rates` (
	`currency` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`symbol` text NOT NULL,
	`rate_per_usd` real NOT NULL,
	`locale` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `loads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`shipper_id` integer,
	`title` text NOT NULL,
	`description` text,
	`pickup_address` text NOT NULL,
	`pickup_city` text NOT NULL,
	`pickup_state` text,
	`pickup_country` text NOT NULL,
	`pickup_latitude` real NOT NULL,
	`pickup_longitude` real NOT NULL,
	`delivery_address` text NOT NULL,
	`delivery_city` text NOT NULL,
	`delivery_state` text,
	`delivery_country` text NOT NULL,
	`delivery_latitude` real NOT NULL,
	`delivery_longitude` real NOT NULL,
	`pickup_date` integer NOT NULL,
	`delivery_date` integer NOT NULL,
	`weight_lbs` real NOT NULL,
	`equipment_type` text NOT NULL,
	`budget_minor` integer NOT NULL,
	`budget_currency` text DEFAULT 'USD' NOT NULL,
	`trip_miles` real NOT NULL,
	`special_instructions` text,
	`status` text DEFAULT 'posted' NOT NULL,
	`source_type` text DEFAULT 'mytess' NOT NULL,
	`source_provider` text,
	`source_external_id` text,
	`assigned_driver_id` integer,
	`accepted_bid_id` integer,
	`cancelled_by_id` integer,
	`cancel_reason` text,
	`cancelled_at` integer,
	`picked_up_at` integer,
	`delivered_at` integer,
	`completed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`shipper_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assigned_driver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `loads_status_pickup_idx` ON `loads` (`status`,`pickup_date`);--> statement-breakpoint
CREATE INDEX `loads_shipper_idx` ON `loads` (`shipper_id`);--> statement-breakpoint
CREATE INDEX `loads_driver_idx` ON `loads` (`assigned_driver_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `loads_source_idx` ON `loads` (`source_provider`,`source_external_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`user_agent` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`password_hash` text,
	`oidc_issuer` text,
	`oidc_subject` text,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`profile_image_url` text,
	`user_type` text NOT NULL,
	`currency` text DEFAULT 'USD' NOT NULL,
	`language` text DEFAULT 'en' NOT NULL,
	`rating_sum` integer DEFAULT 0 NOT NULL,
	`total_ratings` integer DEFAULT 0 NOT NULL,
	`total_trips` integer DEFAULT 0 NOT NULL,
	`trial_ends_at` integer NOT NULL,
	`paid_until` integer,
	`subscription_cancelled_at` integer,
	`latitude` real,
	`longitude` real,
	`location_updated_at` integer,
	`is_available` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_idx` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_oidc_idx` ON `users` (`oidc_issuer`,`oidc_subject`);--> statement-breakpoint
CREATE INDEX `users_type_idx` ON `users` (`user_type`);