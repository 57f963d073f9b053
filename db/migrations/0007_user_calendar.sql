ALTER TABLE `users` ADD `calendar` text DEFAULT 'gregorian' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `ethiopian_time` integer DEFAULT false NOT NULL;