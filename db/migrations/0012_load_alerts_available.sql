ALTER TABLE `load_alerts` ADD `available` integer DEFAULT true NOT NULL;--> statement-breakpoint
UPDATE `load_alerts` SET `available` = (SELECT `is_available` FROM `users` WHERE `users`.`id` = `load_alerts`.`user_id`);
