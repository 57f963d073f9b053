-- Full truckload or partial (LTL); every load posted before this was a full truckload.
ALTER TABLE `loads` ADD `load_size` text DEFAULT 'full' NOT NULL;--> statement-breakpoint
-- The lane search (origin and destination with their radii, a pickup window): one five-dimensional R*Tree over posted
-- MyTess loads (pickup latitude and longitude, delivery latitude and longitude, pickup day), so a lane is one box and
-- the tree visits only the loads near both ends in the window, whatever the number of loads. Like loads_posted_rtree it
-- holds MyTess loads only (every user may see them); a viewer's own synced loads come from loads_owner_posted_idx.
-- R*Tree coordinates are 32-bit floats rounded outwards, so searches ask for overlap and check the exact values.
CREATE VIRTUAL TABLE `loads_lane_rtree` USING rtree(`id`, `min_plat`, `max_plat`, `min_plng`, `max_plng`,
  `min_dlat`, `max_dlat`, `min_dlng`, `max_dlng`, `min_day`, `max_day`);--> statement-breakpoint
INSERT INTO `loads_lane_rtree`
  SELECT `id`, `pickup_latitude`, `pickup_latitude`, `pickup_longitude`, `pickup_longitude`, `delivery_latitude`,
    `delivery_latitude`, `delivery_longitude`, `delivery_longitude`, `pickup_date` / 86400000.0, `pickup_date` / 86400000.0
  FROM `loads` WHERE `status` = 'posted' AND `source_type` = 'mytess';--> statement-breakpoint
CREATE TRIGGER `loads_lane_rtree_insert` AFTER INSERT ON `loads` WHEN NEW.`status` = 'posted' AND NEW.`source_type` = 'mytess' BEGIN
  INSERT INTO `loads_lane_rtree` VALUES (NEW.`id`, NEW.`pickup_latitude`, NEW.`pickup_latitude`, NEW.`pickup_longitude`,
    NEW.`pickup_longitude`, NEW.`delivery_latitude`, NEW.`delivery_latitude`, NEW.`delivery_longitude`,
    NEW.`delivery_longitude`, NEW.`pickup_date` / 86400000.0, NEW.`pickup_date` / 86400000.0);
END;
--> statement-breakpoint
CREATE TRIGGER `loads_lane_rtree_update` AFTER UPDATE OF `status`, `source_type`, `pickup_latitude`, `pickup_longitude`,
  `delivery_latitude`, `delivery_longitude`, `pickup_date` ON `loads` BEGIN
  DELETE FROM `loads_lane_rtree` WHERE `id` = OLD.`id`;
  INSERT INTO `loads_lane_rtree`
  SELECT NEW.`id`, NEW.`pickup_latitude`, NEW.`pickup_latitude`, NEW.`pickup_longitude`, NEW.`pickup_longitude`,
    NEW.`delivery_latitude`, NEW.`delivery_latitude`, NEW.`delivery_longitude`, NEW.`delivery_longitude`,
    NEW.`pickup_date` / 86400000.0, NEW.`pickup_date` / 86400000.0
  WHERE NEW.`status` = 'posted' AND NEW.`source_type` = 'mytess';
END;
--> statement-breakpoint
CREATE TRIGGER `loads_lane_rtree_delete` AFTER DELETE ON `loads` BEGIN
  DELETE FROM `loads_lane_rtree` WHERE `id` = OLD.`id`;
END;
