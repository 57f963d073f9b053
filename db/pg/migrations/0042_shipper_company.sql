ALTER TABLE "loads" ADD COLUMN "shipper_company_id" integer;--> statement-breakpoint
CREATE INDEX "loads_shipper_company_idx" ON "loads" USING btree ("shipper_company_id");