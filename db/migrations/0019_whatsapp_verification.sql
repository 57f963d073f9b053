CREATE TABLE `whatsapp_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`number` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`used_at` integer,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `whatsapp_codes_user_idx` ON `whatsapp_codes` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `whatsapp_codes_number_idx` ON `whatsapp_codes` (`number`,`created_at`);--> statement-breakpoint
ALTER TABLE `messaging_preferences` ADD `whatsapp_pending_number` text;--> statement-breakpoint
-- Numbers saved before numbers were proven were never proven: each stays on its account as unverified (sent nothing,
-- reserved by no one) until the account proves it with a code.
UPDATE `messaging_preferences` SET `whatsapp_pending_number` = `whatsapp_number`, `whatsapp_number` = NULL, `whatsapp_last_inbound_at` = NULL WHERE `whatsapp_number` IS NOT NULL;
