ALTER TABLE "sync_runs" ADD COLUMN "job_id" integer;--> statement-breakpoint
CREATE INDEX "sync_runs_unfinished_idx" ON "sync_runs" USING btree ("job_id") WHERE finished_at IS NULL;
