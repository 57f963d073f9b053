CREATE TABLE `phone_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`phone` text NOT NULL,
	`purpose` text NOT NULL,
	`user_id` integer,
	`job_key` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`sent_at` integer,
	`provider` text,
	`provider_message_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `phone_codes_job_idx` ON `phone_codes` (`job_key`);--> statement-breakpoint
CREATE INDEX `phone_codes_phone_idx` ON `phone_codes` (`phone`,`created_at`);--> statement-breakpoint
CREATE INDEX `phone_codes_created_idx` ON `phone_codes` (`created_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `phone` text;--> statement-breakpoint
CREATE UNIQUE INDEX `users_phone_idx` ON `users` (`phone`);
