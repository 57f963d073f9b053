ALTER TABLE "freight_payments" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "freight_payments" ADD COLUMN "checkout_attempt" integer DEFAULT 0 NOT NULL;