ALTER TABLE `bids` ADD `truck_id` integer REFERENCES trucks(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `bids` ADD `truck_equipment_type` text;--> statement-breakpoint
ALTER TABLE `bids` ADD `truck_capacity_lbs` real;--> statement-breakpoint
ALTER TABLE `bids` ADD `truck_plate` text;