ALTER TABLE "loads" ADD COLUMN "track_pruned_at" bigint;
--> statement-breakpoint
ALTER TABLE "load_documents" ADD COLUMN "client_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "load_documents_client_key_idx" ON "load_documents" USING btree ("uploader_id","client_key");
