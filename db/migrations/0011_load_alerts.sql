CREATE TABLE `load_alerts` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`radius_miles` integer DEFAULT 50 NOT NULL,
	`equipment_types` text DEFAULT '[]' NOT NULL,
	`latitude` real,
	`longitude` real,
	`min_lat` real,
	`max_lat` real,
	`min_lng` real,
	`max_lng` real,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- The bounding boxes of enabled alerts that have a position: matching a new load asks which boxes hold its pickup.
CREATE VIRTUAL TABLE `load_alerts_rtree` USING rtree(`id`, `min_lat`, `max_lat`, `min_lng`, `max_lng`);
--> statement-breakpoint
CREATE TRIGGER `load_alerts_rtree_insert` AFTER INSERT ON `load_alerts`
WHEN NEW.`enabled` AND NEW.`min_lat` IS NOT NULL BEGIN
  INSERT INTO `load_alerts_rtree` (`id`, `min_lat`, `max_lat`, `min_lng`, `max_lng`)
  VALUES (NEW.`user_id`, NEW.`min_lat`, NEW.`max_lat`, NEW.`min_lng`, NEW.`max_lng`);
END;
--> statement-breakpoint
CREATE TRIGGER `load_alerts_rtree_update` AFTER UPDATE ON `load_alerts` BEGIN
  DELETE FROM `load_alerts_rtree` WHERE `id` = OLD.`user_id`;
  INSERT INTO `load_alerts_rtree` (`id`, `min_lat`, `max_lat`, `min_lng`, `max_lng`)
  SELECT NEW.`user_id`, NEW.`min_lat`, NEW.`max_lat`, NEW.`min_lng`, NEW.`max_lng`
  WHERE NEW.`enabled` AND NEW.`min_lat` IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `load_alerts_rtree_delete` AFTER DELETE ON `load_alerts` BEGIN
  DELETE FROM `load_alerts_rtree` WHERE `id` = OLD.`user_id`;
END;
