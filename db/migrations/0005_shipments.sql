CREATE TABLE `shipments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`carrier` text NOT NULL,
	`service_code` text NOT NULL,
	`service_name` text NOT NULL,
	`total_cost_minor` integer NOT NULL,
	`currency` text NOT NULL,
	`delivery_days` integer,
	`guaranteed_delivery` integer NOT NULL,
	`shipper` text NOT NULL,
	`recipient` text NOT NULL,
	`packages` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `shipments_user_idx` ON `shipments` (`user_id`,`created_at`);