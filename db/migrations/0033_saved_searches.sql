CREATE TABLE `saved_search_matches` (
	`saved_search_id` integer NOT NULL,
	`load_id` integer NOT NULL,
	`matched_at` integer NOT NULL,
	PRIMARY KEY(`saved_search_id`, `load_id`),
	FOREIGN KEY (`saved_search_id`) REFERENCES `saved_searches`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`load_id`) REFERENCES `loads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saved_search_matches_at_idx` ON `saved_search_matches` (`saved_search_id`,`matched_at`);--> statement-breakpoint
CREATE TABLE `saved_searches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`params` text NOT NULL,
	`origin_name` text,
	`destination_name` text,
	`min_lat` real,
	`max_lat` real,
	`min_lng` real,
	`max_lng` real,
	`last_opened_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saved_searches_user_idx` ON `saved_searches` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `saved_searches_box_idx` ON `saved_searches` (`min_lat`,`max_lat`);
