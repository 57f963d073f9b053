-- Pickup points of every load in an R*Tree, kept in step by triggers: "near me" reads a bounding box, never every row.
CREATE VIRTUAL TABLE `loads_pickup_rtree` USING rtree(`id`, `min_lat`, `max_lat`, `min_lng`, `max_lng`);
--> statement-breakpoint
INSERT INTO `loads_pickup_rtree` (`id`, `min_lat`, `max_lat`, `min_lng`, `max_lng`)
  SELECT `id`, `pickup_latitude`, `pickup_latitude`, `pickup_longitude`, `pickup_longitude` FROM `loads`;
--> statement-breakpoint
CREATE TRIGGER `loads_rtree_insert` AFTER INSERT ON `loads` BEGIN
  INSERT INTO `loads_pickup_rtree` (`id`, `min_lat`, `max_lat`, `min_lng`, `max_lng`)
  VALUES (NEW.`id`, NEW.`pickup_latitude`, NEW.`pickup_latitude`, NEW.`pickup_longitude`, NEW.`pickup_longitude`);
END;
--> statement-breakpoint
CREATE TRIGGER `loads_rtree_update` AFTER UPDATE OF `pickup_latitude`, `pickup_longitude` ON `loads` BEGIN
  UPDATE `loads_pickup_rtree` SET `min_lat` = NEW.`pickup_latitude`, `max_lat` = NEW.`pickup_latitude`,
    `min_lng` = NEW.`pickup_longitude`, `max_lng` = NEW.`pickup_longitude` WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `loads_rtree_delete` AFTER DELETE ON `loads` BEGIN
  DELETE FROM `loads_pickup_rtree` WHERE `id` = OLD.`id`;
END;
--> statement-breakpoint
-- First-start display rates (units per USD; docs/product-rules.md); GBP and CAD serve load budgets and bids. Admins may
-- change them.
INSERT INTO `fx_rates` (`currency`, `name`, `symbol`, `rate_per_usd`, `locale`, `updated_at`) VALUES
  ('USD', 'US Dollar', '$', 1, 'en-US', 0),
  ('EUR', 'Euro', '€', 0.85, 'de-DE', 0),
  ('ETB', 'Ethiopian Birr', 'Br', 60.5, 'am-ET', 0),
  ('GBP', 'British Pound', '£', 0.79, 'en-GB', 0),
  ('CAD', 'Canadian Dollar', 'CA$', 1.37, 'en-CA', 0);
