CREATE TABLE `freight_payment_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`payment_id` integer NOT NULL,
	`state` text NOT NULL,
	`detail` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `freight_payments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `freight_payment_events_payment_idx` ON `freight_payment_events` (`payment_id`,`id`);--> statement-breakpoint
CREATE TABLE `freight_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`load_id` integer NOT NULL,
	`shipper_id` integer NOT NULL,
	`driver_id` integer NOT NULL,
	`provider` text NOT NULL,
	`provider_ref` text NOT NULL,
	`charge_ref` text,
	`state` text NOT NULL,
	`currency` text NOT NULL,
	`agreed_minor` integer NOT NULL,
	`fee_minor` integer NOT NULL,
	`note` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`load_id`) REFERENCES `loads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`shipper_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`driver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `freight_payments_load_idx` ON `freight_payments` (`load_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `freight_payments_ref_idx` ON `freight_payments` (`provider`,`provider_ref`);--> statement-breakpoint
CREATE INDEX `freight_payments_shipper_idx` ON `freight_payments` (`shipper_id`,`id`);--> statement-breakpoint
CREATE INDEX `freight_payments_driver_idx` ON `freight_payments` (`driver_id`,`id`);--> statement-breakpoint
CREATE TABLE `ledger_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`txn` text NOT NULL,
	`payment_id` integer NOT NULL,
	`load_id` integer NOT NULL,
	`account` text NOT NULL,
	`currency` text NOT NULL,
	`amount_minor` integer NOT NULL,
	`provider_object` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `freight_payments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_entries_txn_idx` ON `ledger_entries` (`txn`,`account`);--> statement-breakpoint
CREATE INDEX `ledger_entries_payment_idx` ON `ledger_entries` (`payment_id`);
