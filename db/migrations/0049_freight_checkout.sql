ALTER TABLE `freight_payments` ADD `checkout_url` text;--> statement-breakpoint
ALTER TABLE `freight_payments` ADD `checkout_attempt` integer DEFAULT 0 NOT NULL;