CREATE TABLE `operators` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`granted_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `verification_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subject_type` text NOT NULL,
	`subject_id` integer NOT NULL,
	`uploaded_by` integer NOT NULL,
	`verification_id` integer,
	`kind` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`storage_key` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`verification_id`) REFERENCES `verifications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `verification_files_subject_idx` ON `verification_files` (`subject_type`,`subject_id`,`id`);--> statement-breakpoint
CREATE INDEX `verification_files_verification_idx` ON `verification_files` (`verification_id`);--> statement-breakpoint
CREATE TABLE `verifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subject_type` text NOT NULL,
	`subject_id` integer NOT NULL,
	`submitted_by` integer NOT NULL,
	`status` text NOT NULL,
	`country` text NOT NULL,
	`trade_licence_number` text,
	`tin` text,
	`mc_number` text,
	`dot_number` text,
	`insurance_expires_on` text,
	`insurance_reminder_at` integer,
	`reason` text,
	`reviewed_by` integer,
	`reviewed_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`submitted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reviewed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `verifications_subject_idx` ON `verifications` (`subject_type`,`subject_id`,`id`);--> statement-breakpoint
CREATE INDEX `verifications_status_idx` ON `verifications` (`status`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `verifications_one_pending_idx` ON `verifications` (`subject_type`,`subject_id`) WHERE status = 'pending';