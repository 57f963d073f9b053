CREATE TABLE `live_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`payload` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `live_events_created_idx` ON `live_events` (`created_at`);--> statement-breakpoint
CREATE TABLE `messaging_preferences` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`whatsapp_enabled` integer DEFAULT false NOT NULL,
	`whatsapp_number` text,
	`whatsapp_last_inbound_at` integer,
	`telegram_enabled` integer DEFAULT false NOT NULL,
	`telegram_chat_id` text,
	`telegram_blocked_at` integer,
	`load_assigned` integer DEFAULT true NOT NULL,
	`load_updates` integer DEFAULT true NOT NULL,
	`payment_received` integer DEFAULT true NOT NULL,
	`system_alerts` integer DEFAULT false NOT NULL,
	`language` text DEFAULT 'en' NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messaging_preferences_telegram_idx` ON `messaging_preferences` (`telegram_chat_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `messaging_preferences_whatsapp_idx` ON `messaging_preferences` (`whatsapp_number`);--> statement-breakpoint
CREATE TABLE `telegram_link_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `telegram_link_tokens_user_idx` ON `telegram_link_tokens` (`user_id`);--> statement-breakpoint
ALTER TABLE `notifications` ADD `load_id` integer;--> statement-breakpoint
ALTER TABLE `notifications` ADD `read_at` integer;--> statement-breakpoint
CREATE INDEX `notifications_unread_idx` ON `notifications` (`user_id`,`channel`,`read_at`);