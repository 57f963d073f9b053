-- The version of what a board page is made of (the REST board's page cache, src/server/modules/boards/page-cache.ts),
-- and a log of what each version changed. Every write to the loads, the board configurations (a synced load's board
-- name, which boards are searched), truck invitations (a page's "invited") and exchange rates (the rate sort and filter)
-- bumps the version in the same transaction, so a process that sees it unchanged (with the trust version, for the
-- shippers' signals) knows a page it keeps is still what the database would answer, whichever process wrote. Each
-- write also logs, under its version, the one-degree cell of the changed load's pickup (before and after), or no cell
-- for a write that may change any page: a page whose version is behind is still good when no change since touched the
-- cells its search circle covers. An update of loads counts only when a column a board page shows or searches by
-- changes (not the sync's seen-at and hash, the trip's times, the agreed price, the cancel reason, the landing page's
-- country code or the edit time; board-page-cache.test.ts keeps the list whole). The log keeps the last 100,000
-- versions' changes; a page older than that is read again.
INSERT INTO `cache_versions` (`name`, `version`) VALUES ('board', 0);
--> statement-breakpoint
CREATE TABLE `board_changes` (
  `version` integer NOT NULL,
  `cell_lat` integer,
  `cell_lng` integer
);
--> statement-breakpoint
CREATE INDEX `board_changes_version_idx` ON `board_changes` (`version`);
--> statement-breakpoint
CREATE TRIGGER `loads_board_insert` AFTER INSERT ON `loads` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'board';
  INSERT INTO `board_changes` (`version`, `cell_lat`, `cell_lng`) SELECT `version`, CAST(NEW.pickup_latitude + 90 AS INTEGER), CAST(NEW.pickup_longitude + 180 AS INTEGER) FROM `cache_versions` WHERE `name` = 'board';
  DELETE FROM `board_changes` WHERE `version` <= (SELECT `version` - 100000 FROM `cache_versions` WHERE `name` = 'board');
END;
--> statement-breakpoint
CREATE TRIGGER `loads_board_update` AFTER UPDATE ON `loads` WHEN OLD.id IS NOT NEW.id OR OLD.shipper_id IS NOT NEW.shipper_id OR OLD.title IS NOT NEW.title OR OLD.description IS NOT NEW.description OR OLD.pickup_address IS NOT NEW.pickup_address OR OLD.pickup_city IS NOT NEW.pickup_city OR OLD.pickup_state IS NOT NEW.pickup_state OR OLD.pickup_country IS NOT NEW.pickup_country OR OLD.pickup_latitude IS NOT NEW.pickup_latitude OR OLD.pickup_longitude IS NOT NEW.pickup_longitude OR OLD.delivery_address IS NOT NEW.delivery_address OR OLD.delivery_city IS NOT NEW.delivery_city OR OLD.delivery_state IS NOT NEW.delivery_state OR OLD.delivery_country IS NOT NEW.delivery_country OR OLD.delivery_latitude IS NOT NEW.delivery_latitude OR OLD.delivery_longitude IS NOT NEW.delivery_longitude OR OLD.pickup_date IS NOT NEW.pickup_date OR OLD.delivery_date IS NOT NEW.delivery_date OR OLD.weight_lbs IS NOT NEW.weight_lbs OR OLD.equipment_type IS NOT NEW.equipment_type OR OLD.budget_minor IS NOT NEW.budget_minor OR OLD.budget_currency IS NOT NEW.budget_currency OR OLD.load_size IS NOT NEW.load_size OR OLD.trip_miles IS NOT NEW.trip_miles OR OLD.special_instructions IS NOT NEW.special_instructions OR OLD.status IS NOT NEW.status OR OLD.source_type IS NOT NEW.source_type OR OLD.source_provider IS NOT NEW.source_provider OR OLD.source_external_id IS NOT NEW.source_external_id OR OLD.source_config_id IS NOT NEW.source_config_id OR OLD.source_owner_id IS NOT NEW.source_owner_id OR OLD.source_contact IS NOT NEW.source_contact OR OLD.assigned_driver_id IS NOT NEW.assigned_driver_id OR OLD.shipper_company_id IS NOT NEW.shipper_company_id OR OLD.created_at IS NOT NEW.created_at BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'board';
  INSERT INTO `board_changes` (`version`, `cell_lat`, `cell_lng`) SELECT `version`, CAST(OLD.pickup_latitude + 90 AS INTEGER), CAST(OLD.pickup_longitude + 180 AS INTEGER) FROM `cache_versions` WHERE `name` = 'board';
  INSERT INTO `board_changes` (`version`, `cell_lat`, `cell_lng`) SELECT `version`, CAST(NEW.pickup_latitude + 90 AS INTEGER), CAST(NEW.pickup_longitude + 180 AS INTEGER) FROM `cache_versions` WHERE `name` = 'board';
  DELETE FROM `board_changes` WHERE `version` <= (SELECT `version` - 100000 FROM `cache_versions` WHERE `name` = 'board');
END;
--> statement-breakpoint
CREATE TRIGGER `loads_board_delete` AFTER DELETE ON `loads` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'board';
  INSERT INTO `board_changes` (`version`, `cell_lat`, `cell_lng`) SELECT `version`, CAST(OLD.pickup_latitude + 90 AS INTEGER), CAST(OLD.pickup_longitude + 180 AS INTEGER) FROM `cache_versions` WHERE `name` = 'board';
END;
--> statement-breakpoint
CREATE TRIGGER `marketplace_configs_board_insert` AFTER INSERT ON `marketplace_configs` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'board';
  INSERT INTO `board_changes` (`version`, `cell_lat`, `cell_lng`) SELECT `version`, NULL, NULL FROM `cache_versions` WHERE `name` = 'board';
END;
--> statement-breakpoint
CREATE TRIGGER `marketplace_configs_board_update` AFTER UPDATE ON `marketplace_configs` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'board';
  INSERT INTO `board_changes` (`version`, `cell_lat`, `cell_lng`) SELECT `version`, NULL, NULL FROM `cache_versions` WHERE `name` = 'board';
END;
--> statement-breakpoint
CREATE TRIGGER `marketplace_configs_board_delete` AFTER DELETE ON `marketplace_configs` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'board';
  INSERT INTO `board_changes` (`version`, `cell_lat`, `cell_lng`) SELECT `version`, NULL, NULL FROM `cache_versions` WHERE `name` = 'board';
END;
--> statement-breakpoint
CREATE TRIGGER `truck_invitations_board_insert` AFTER INSERT ON `truck_invitations` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'board';
  INSERT INTO `board_changes` (`version`, `cell_lat`, `cell_lng`) SELECT `version`, NULL, NULL FROM `cache_versions` WHERE `name` = 'board';
END;
--> statement-breakpoint
CREATE TRIGGER `truck_invitations_board_update` AFTER UPDATE ON `truck_invitations` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'board';
  INSERT INTO `board_changes` (`version`, `cell_lat`, `cell_lng`) SELECT `version`, NULL, NULL FROM `cache_versions` WHERE `name` = 'board';
END;
--> statement-breakpoint
CREATE TRIGGER `truck_invitations_board_delete` AFTER DELETE ON `truck_invitations` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'board';
  INSERT INTO `board_changes` (`version`, `cell_lat`, `cell_lng`) SELECT `version`, NULL, NULL FROM `cache_versions` WHERE `name` = 'board';
END;
--> statement-breakpoint
CREATE TRIGGER `fx_rates_board_insert` AFTER INSERT ON `fx_rates` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'board';
  INSERT INTO `board_changes` (`version`, `cell_lat`, `cell_lng`) SELECT `version`, NULL, NULL FROM `cache_versions` WHERE `name` = 'board';
END;
--> statement-breakpoint
CREATE TRIGGER `fx_rates_board_update` AFTER UPDATE ON `fx_rates` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'board';
  INSERT INTO `board_changes` (`version`, `cell_lat`, `cell_lng`) SELECT `version`, NULL, NULL FROM `cache_versions` WHERE `name` = 'board';
END;
--> statement-breakpoint
CREATE TRIGGER `fx_rates_board_delete` AFTER DELETE ON `fx_rates` BEGIN
  UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'board';
  INSERT INTO `board_changes` (`version`, `cell_lat`, `cell_lng`) SELECT `version`, NULL, NULL FROM `cache_versions` WHERE `name` = 'board';
END;
