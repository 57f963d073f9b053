-- The posted loads' R*Tree holds MyTess loads only: every user may see them, so "posted loads near me" checks no row of
-- `loads` per candidate when no other filter is set. External loads (synced from a user's own board, seen by that user
-- alone) are found through an index of their owner and pickup point instead, so one user's synced loads never cost
-- another user's search anything. Not declared in db/schema.ts, like the R*Trees: drizzle-kit cannot say either.
DROP TRIGGER `loads_posted_rtree_insert`;--> statement-breakpoint
DROP TRIGGER `loads_posted_rtree_update`;--> statement-breakpoint
DELETE FROM `loads_posted_rtree` WHERE `id` IN (SELECT `id` FROM `loads` WHERE `source_type` <> 'mytess');--> statement-breakpoint
CREATE TRIGGER `loads_posted_rtree_insert` AFTER INSERT ON `loads` WHEN NEW.`status` = 'posted' AND NEW.`source_type` = 'mytess' BEGIN
  INSERT INTO `loads_posted_rtree` (`id`, `min_lat`, `max_lat`, `min_lng`, `max_lng`)
  VALUES (NEW.`id`, NEW.`pickup_latitude`, NEW.`pickup_latitude`, NEW.`pickup_longitude`, NEW.`pickup_longitude`);
END;
--> statement-breakpoint
CREATE TRIGGER `loads_posted_rtree_update` AFTER UPDATE OF `status`, `pickup_latitude`, `pickup_longitude`, `source_type` ON `loads` BEGIN
  DELETE FROM `loads_posted_rtree` WHERE `id` = OLD.`id`;
  INSERT INTO `loads_posted_rtree` (`id`, `min_lat`, `max_lat`, `min_lng`, `max_lng`)
  SELECT NEW.`id`, NEW.`pickup_latitude`, NEW.`pickup_latitude`, NEW.`pickup_longitude`, NEW.`pickup_longitude`
  WHERE NEW.`status` = 'posted' AND NEW.`source_type` = 'mytess';
END;
--> statement-breakpoint
CREATE INDEX `loads_owner_posted_idx` ON `loads` (`source_owner_id`, `pickup_latitude`, `pickup_longitude`)
  WHERE `source_owner_id` IS NOT NULL AND `status` = 'posted';
