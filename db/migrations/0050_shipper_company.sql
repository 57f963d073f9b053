ALTER TABLE `loads` ADD `shipper_company_id` integer;--> statement-breakpoint
CREATE INDEX `loads_shipper_company_idx` ON `loads` (`shipper_company_id`);