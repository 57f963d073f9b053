CREATE TABLE `ecommerce_integrations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`platform` text NOT NULL,
	`name` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`credentials` text NOT NULL,
	`credential_fields` text NOT NULL,
	`settings` text NOT NULL,
	`total_orders_synced` integer DEFAULT 0 NOT NULL,
	`sync_cursor` integer DEFAULT 0 NOT NULL,
	`last_sync_at` integer,
	`last_error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ecommerce_integrations_user_idx` ON `ecommerce_integrations` (`user_id`);--> statement-breakpoint
CREATE TABLE `ecommerce_orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`integration_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`external_order_id` text NOT NULL,
	`order_number` text NOT NULL,
	`order_date` integer NOT NULL,
	`store_updated_at` integer NOT NULL,
	`customer_name` text,
	`status` text NOT NULL,
	`store_status` text NOT NULL,
	`currency` text NOT NULL,
	`total_minor` integer NOT NULL,
	`shipping_name` text,
	`shipping_line1` text,
	`shipping_city` text,
	`shipping_state` text,
	`shipping_country` text,
	`shipping_postal_code` text,
	`shipping_latitude` real,
	`shipping_longitude` real,
	`items` text NOT NULL,
	`load_id` integer,
	`converted_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`integration_id`) REFERENCES `ecommerce_integrations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`load_id`) REFERENCES `loads`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ecommerce_orders_external_idx` ON `ecommerce_orders` (`integration_id`,`external_order_id`);--> statement-breakpoint
CREATE INDEX `ecommerce_orders_user_idx` ON `ecommerce_orders` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `ecommerce_webhooks` (
	`webhook_id` text PRIMARY KEY NOT NULL,
	`integration_id` integer NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`integration_id`) REFERENCES `ecommerce_integrations`(`id`) ON UPDATE no action ON DELETE cascade
);
