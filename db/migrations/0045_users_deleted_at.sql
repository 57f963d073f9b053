ALTER TABLE `users` ADD `deleted_at` integer;
