-- External loads (synced from a user's board) are always posted: the posted loads' R*Tree finds them, and the R*Tree of
-- every load (searches of a party's own loads in other states) has no use for them. Skipping it halves a sync's writes.
DROP TRIGGER `loads_rtree_insert`;--> statement-breakpoint
CREATE TRIGGER `loads_rtree_insert` AFTER INSERT ON `loads` WHEN NEW.`source_type` = 'mytess' BEGIN
  INSERT INTO `loads_pickup_rtree` (`id`, `min_lat`, `max_lat`, `min_lng`, `max_lng`)
  VALUES (NEW.`id`, NEW.`pickup_latitude`, NEW.`pickup_latitude`, NEW.`pickup_longitude`, NEW.`pickup_longitude`);
END;
