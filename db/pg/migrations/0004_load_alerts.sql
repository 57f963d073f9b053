CREATE TABLE "load_alerts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"radius_miles" integer DEFAULT 50 NOT NULL,
	"equipment_types" text DEFAULT '[]' NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"min_lat" double precision,
	"max_lat" double precision,
	"min_lng" double precision,
	"max_lng" double precision,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "load_alerts" ADD CONSTRAINT "load_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Alert areas as earth boxes (contrib's cube + earthdistance, migration 0001): "which areas hold this point" is
-- `earth_box(...) @> ll_to_earth(point)` on this GiST index, then the exact distance.
CREATE INDEX "load_alerts_area_idx" ON "load_alerts" USING gist (earth_box(ll_to_earth("latitude", "longitude"), "radius_miles" * 1609.344))
  WHERE "enabled" AND "latitude" IS NOT NULL;
