ALTER TABLE "marketplace_configs" ADD COLUMN "oauth_tokens" text;--> statement-breakpoint
ALTER TABLE "marketplace_configs" ADD COLUMN "oauth_status" text;--> statement-breakpoint
ALTER TABLE "marketplace_configs" ADD COLUMN "oauth_pending" text;