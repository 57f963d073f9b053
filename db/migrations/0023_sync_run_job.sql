ALTER TABLE `sync_runs` ADD `job_id` integer;--> statement-breakpoint
CREATE INDEX `sync_runs_unfinished_idx` ON `sync_runs` (`job_id`) WHERE finished_at IS NULL;
