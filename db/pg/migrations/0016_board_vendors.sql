ALTER TABLE "sync_runs" ADD COLUMN "unreadable" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "lanes_outside" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "marketplace_configs" ADD COLUMN "oauth_tokens" text;--> statement-breakpoint
ALTER TABLE "marketplace_configs" ADD COLUMN "oauth_status" text;--> statement-breakpoint
ALTER TABLE "marketplace_configs" ADD COLUMN "oauth_pending" text;