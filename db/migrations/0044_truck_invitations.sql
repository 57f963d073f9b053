CREATE TABLE `truck_invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`truck_id` integer NOT NULL,
	`load_id` integer NOT NULL,
	`shipper_id` integer NOT NULL,
	`driver_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`truck_id`) REFERENCES `trucks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`load_id`) REFERENCES `loads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shipper_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`driver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `truck_invitations_truck_load_idx` ON `truck_invitations` (`truck_id`,`load_id`);--> statement-breakpoint
CREATE INDEX `truck_invitations_load_idx` ON `truck_invitations` (`load_id`);--> statement-breakpoint
CREATE INDEX `truck_invitations_driver_idx` ON `truck_invitations` (`driver_id`,`load_id`);