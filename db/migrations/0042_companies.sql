CREATE TABLE `companies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`country` text NOT NULL,
	`created_by_id` integer,
	`rating_sum` integer DEFAULT 0 NOT NULL,
	`total_ratings` integer DEFAULT 0 NOT NULL,
	`total_trips` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `companies_kind_idx` ON `companies` (`kind`);--> statement-breakpoint
CREATE TABLE `company_invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`email` text,
	`phone` text,
	`role` text NOT NULL,
	`language` text NOT NULL,
	`invited_by_id` integer,
	`job_key` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`accepted_by_id` integer,
	`used_at` integer,
	`revoked_at` integer,
	`sent_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`accepted_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `company_invitations_job_idx` ON `company_invitations` (`job_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `company_invitations_token_idx` ON `company_invitations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `company_invitations_company_idx` ON `company_invitations` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `company_members` (
	`company_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `company_members_user_idx` ON `company_members` (`user_id`);--> statement-breakpoint
CREATE INDEX `company_members_company_idx` ON `company_members` (`company_id`);
--> statement-breakpoint
ALTER TABLE `bids` ADD `company_id` integer;--> statement-breakpoint
ALTER TABLE `loads` ADD `carrier_company_id` integer;
