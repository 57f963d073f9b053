CREATE TABLE `trucks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`driver_id` integer NOT NULL,
	`origin_name` text NOT NULL,
	`origin_latitude` real NOT NULL,
	`origin_longitude` real NOT NULL,
	`available_start` integer NOT NULL,
	`available_end` integer NOT NULL,
	`destination_name` text,
	`destination_latitude` real,
	`destination_longitude` real,
	`destination_radius_miles` integer,
	`equipment_type` text NOT NULL,
	`capacity_lbs` real NOT NULL,
	`length_ft` real,
	`plate` text,
	`note` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`driver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `trucks_driver_idx` ON `trucks` (`driver_id`,`id`);--> statement-breakpoint
CREATE INDEX `trucks_available_end_idx` ON `trucks` (`available_end`);--> statement-breakpoint
-- Trucks near a shipper's pickup: an R*Tree of every truck's origin point (kept by the triggers below), so the search
-- visits only the trucks in the radius's box. Coordinates are 32-bit floats rounded outwards: searches ask for overlap
-- and check the exact distance.
CREATE VIRTUAL TABLE `trucks_origin_rtree` USING rtree(`id`, `min_lat`, `max_lat`, `min_lng`, `max_lng`);--> statement-breakpoint
CREATE TRIGGER `trucks_origin_rtree_insert` AFTER INSERT ON `trucks` BEGIN
  INSERT INTO `trucks_origin_rtree` VALUES (NEW.`id`, NEW.`origin_latitude`, NEW.`origin_latitude`,
    NEW.`origin_longitude`, NEW.`origin_longitude`);
END;
--> statement-breakpoint
CREATE TRIGGER `trucks_origin_rtree_update` AFTER UPDATE OF `origin_latitude`, `origin_longitude` ON `trucks` BEGIN
  UPDATE `trucks_origin_rtree` SET `min_lat` = NEW.`origin_latitude`, `max_lat` = NEW.`origin_latitude`,
    `min_lng` = NEW.`origin_longitude`, `max_lng` = NEW.`origin_longitude` WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `trucks_origin_rtree_delete` AFTER DELETE ON `trucks` BEGIN
  DELETE FROM `trucks_origin_rtree` WHERE `id` = OLD.`id`;
END;
