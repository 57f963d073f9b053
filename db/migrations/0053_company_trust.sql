-- A load of a shipper company shows the company's signals (modules/trust/trust.ts): its loads posted and completed
-- (`loads.shipper_company_id`, `status`), the ratings its side received on them (`ratings`) and its pay speed. The
-- trust version (0048) is bumped on these too, so a kept board row gives way to the next such write. A person's
-- signals count their completed loads as well, so a load of theirs entering or leaving `completed` bumps it alike.
CREATE TRIGGER `loads_company_trust_update` AFTER UPDATE OF `shipper_company_id`, `status` ON `loads` WHEN NEW.shipper_id IS NOT NULL AND (OLD.shipper_company_id IS NOT NEW.shipper_company_id OR (OLD.status = 'completed') IS NOT (NEW.status = 'completed')) BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `ratings_trust_insert` AFTER INSERT ON `ratings` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `ratings_trust_update` AFTER UPDATE ON `ratings` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `ratings_trust_delete` AFTER DELETE ON `ratings` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
