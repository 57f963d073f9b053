CREATE TABLE `inbound_updates` (
	`source` text NOT NULL,
	`external_id` text NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`source`, `external_id`)
);
--> statement-breakpoint
CREATE INDEX `inbound_updates_received_idx` ON `inbound_updates` (`received_at`);