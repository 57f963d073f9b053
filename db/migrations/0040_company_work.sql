ALTER TABLE `bids` ADD `company_id` integer;--> statement-breakpoint
ALTER TABLE `loads` ADD `carrier_company_id` integer;