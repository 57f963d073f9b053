-- The version of what a shipper's trust signals are made of (the board's per-shipper cache, src/server/modules/trust/
-- trust-cache.ts): every write to a table they are read from bumps it in the same transaction, so a process that sees
-- the version unchanged knows its cached signals are still what the database says, whichever process wrote.
CREATE TABLE `cache_versions` (
  `name` text PRIMARY KEY NOT NULL,
  `version` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `cache_versions` (`name`, `version`) VALUES ('trust', 0);
--> statement-breakpoint
CREATE TRIGGER `users_trust_update` AFTER UPDATE OF `first_name`, `last_name`, `rating_sum`, `total_ratings` ON `users` WHEN OLD.first_name IS NOT NEW.first_name OR OLD.last_name IS NOT NEW.last_name OR OLD.rating_sum IS NOT NEW.rating_sum OR OLD.total_ratings IS NOT NEW.total_ratings BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `users_trust_delete` AFTER DELETE ON `users` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `companies_trust_update` AFTER UPDATE OF `name`, `kind` ON `companies` WHEN OLD.name IS NOT NEW.name OR OLD.kind IS NOT NEW.kind BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `companies_trust_delete` AFTER DELETE ON `companies` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `company_members_trust_insert` AFTER INSERT ON `company_members` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `company_members_trust_update` AFTER UPDATE ON `company_members` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `company_members_trust_delete` AFTER DELETE ON `company_members` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `loads_trust_insert` AFTER INSERT ON `loads` WHEN NEW.shipper_id IS NOT NULL BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `loads_trust_update` AFTER UPDATE OF `shipper_id`, `delivered_at` ON `loads` WHEN OLD.shipper_id IS NOT NEW.shipper_id OR OLD.delivered_at IS NOT NEW.delivered_at BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `loads_trust_delete` AFTER DELETE ON `loads` WHEN OLD.shipper_id IS NOT NULL BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `freight_payments_trust_insert` AFTER INSERT ON `freight_payments` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `freight_payments_trust_update` AFTER UPDATE OF `shipper_id`, `load_id`, `state` ON `freight_payments` WHEN OLD.shipper_id IS NOT NEW.shipper_id OR OLD.load_id IS NOT NEW.load_id OR OLD.state IS NOT NEW.state BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `freight_payments_trust_delete` AFTER DELETE ON `freight_payments` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `freight_payment_events_trust_insert` AFTER INSERT ON `freight_payment_events` WHEN NEW.state = 'released' BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `freight_payment_events_trust_update` AFTER UPDATE ON `freight_payment_events` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `freight_payment_events_trust_delete` AFTER DELETE ON `freight_payment_events` WHEN OLD.state = 'released' BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `verifications_trust_insert` AFTER INSERT ON `verifications` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `verifications_trust_update` AFTER UPDATE ON `verifications` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `verifications_trust_delete` AFTER DELETE ON `verifications` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `verification_files_trust_insert` AFTER INSERT ON `verification_files` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `verification_files_trust_update` AFTER UPDATE ON `verification_files` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
--> statement-breakpoint
CREATE TRIGGER `verification_files_trust_delete` AFTER DELETE ON `verification_files` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'trust';
END;
