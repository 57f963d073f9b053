ALTER TABLE "bids" ADD COLUMN "truck_id" integer;--> statement-breakpoint
ALTER TABLE "bids" ADD COLUMN "truck_equipment_type" text;--> statement-breakpoint
ALTER TABLE "bids" ADD COLUMN "truck_capacity_lbs" double precision;--> statement-breakpoint
ALTER TABLE "bids" ADD COLUMN "truck_plate" text;--> statement-breakpoint
ALTER TABLE "bids" ADD CONSTRAINT "bids_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE set null ON UPDATE no action;