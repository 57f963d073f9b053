CREATE TABLE `trip_alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`load_id` integer NOT NULL,
	`kind` text NOT NULL,
	`eta_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`load_id`) REFERENCES `loads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `trip_alerts_load_idx` ON `trip_alerts` (`load_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `trip_alerts_arrival_idx` ON `trip_alerts` (`load_id`,`kind`) WHERE kind <> 'delayed';--> statement-breakpoint
DROP INDEX `trip_points_load_idx`;--> statement-breakpoint
ALTER TABLE `trip_points` ADD `accuracy` real;--> statement-breakpoint
ALTER TABLE `trip_points` ADD `speed` real;--> statement-breakpoint
ALTER TABLE `trip_points` ADD `heading` real;--> statement-breakpoint
-- A point is stored once per load and time: keep the first of any that the old location update wrote twice.
DELETE FROM `trip_points` WHERE `id` NOT IN (SELECT MIN(`id`) FROM `trip_points` GROUP BY `load_id`, `recorded_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `trip_points_load_time_idx` ON `trip_points` (`load_id`,`recorded_at`);
