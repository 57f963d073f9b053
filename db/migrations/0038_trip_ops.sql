ALTER TABLE `loads` ADD `track_pruned_at` integer;
--> statement-breakpoint
ALTER TABLE `load_documents` ADD `client_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `load_documents_client_key_idx` ON `load_documents` (`uploader_id`,`client_key`);
