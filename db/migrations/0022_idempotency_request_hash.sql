-- A stored answer is replayed only to the same request (method, path and body, hashed). Refusals (4xx) are no longer
-- kept, so a corrected request can use its key again: those stored before go now. Rows from before have no hash and
-- are matched by method and path, as they were, until they expire (a day).
ALTER TABLE `idempotency_keys` ADD `request_hash` text;--> statement-breakpoint
DELETE FROM `idempotency_keys` WHERE `status` >= 400 AND `status` < 500;
