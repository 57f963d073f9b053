ALTER TABLE "bids" ADD COLUMN "company_id" integer;--> statement-breakpoint
ALTER TABLE "loads" ADD COLUMN "carrier_company_id" integer;