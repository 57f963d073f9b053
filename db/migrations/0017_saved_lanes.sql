CREATE TABLE `saved_lanes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text,
	`origin_name` text NOT NULL,
	`origin_latitude` real NOT NULL,
	`origin_longitude` real NOT NULL,
	`origin_radius_miles` integer NOT NULL,
	`destination_name` text,
	`destination_latitude` real,
	`destination_longitude` real,
	`destination_radius_miles` integer,
	`equipment_types` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saved_lanes_user_idx` ON `saved_lanes` (`user_id`,`id`);