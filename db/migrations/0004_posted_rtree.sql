-- Pickup points of posted loads only: the board's default question ("posted loads near me") then needs no look-up of
-- each candidate's status. Kept in step with every change of status or pickup point.
CREATE VIRTUAL TABLE `loads_posted_rtree` USING rtree(`id`, `min_lat`, `max_lat`, `min_lng`, `max_lng`);
--> statement-breakpoint
INSERT INTO `loads_posted_rtree` (`id`, `min_lat`, `max_lat`, `min_lng`, `max_lng`)
  SELECT `id`, `pickup_latitude`, `pickup_latitude`, `pickup_longitude`, `pickup_longitude` FROM `loads` WHERE `status` = 'posted';
--> statement-breakpoint
CREATE TRIGGER `loads_posted_rtree_insert` AFTER INSERT ON `loads` WHEN NEW.`status` = 'posted' BEGIN
  INSERT INTO `loads_posted_rtree` (`id`, `min_lat`, `max_lat`, `min_lng`, `max_lng`)
  VALUES (NEW.`id`, NEW.`pickup_latitude`, NEW.`pickup_latitude`, NEW.`pickup_longitude`, NEW.`pickup_longitude`);
END;
--> statement-breakpoint
CREATE TRIGGER `loads_posted_rtree_update` AFTER UPDATE OF `status`, `pickup_latitude`, `pickup_longitude` ON `loads` BEGIN
  DELETE FROM `loads_posted_rtree` WHERE `id` = OLD.`id`;
  INSERT INTO `loads_posted_rtree` (`id`, `min_lat`, `max_lat`, `min_lng`, `max_lng`)
  SELECT NEW.`id`, NEW.`pickup_latitude`, NEW.`pickup_latitude`, NEW.`pickup_longitude`, NEW.`pickup_longitude` WHERE NEW.`status` = 'posted';
END;
--> statement-breakpoint
CREATE TRIGGER `loads_posted_rtree_delete` AFTER DELETE ON `loads` BEGIN
  DELETE FROM `loads_posted_rtree` WHERE `id` = OLD.`id`;
END;
