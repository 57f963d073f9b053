ALTER TABLE `sync_runs` ADD `unreadable` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sync_runs` ADD `lanes_outside` integer DEFAULT 0 NOT NULL;