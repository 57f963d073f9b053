CREATE TABLE `tracking_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`load_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`load_id`) REFERENCES `loads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tracking_links_loadId_unique` ON `tracking_links` (`load_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `tracking_links_tokenHash_unique` ON `tracking_links` (`token_hash`);
