-- Full truckload or partial (LTL); every load posted before this was a full truckload.
ALTER TABLE "loads" ADD COLUMN "load_size" text DEFAULT 'full' NOT NULL;
--> statement-breakpoint
-- The lane search (as SQLite's loads_lane_rtree): each posted load as one point of seven dimensions (its pickup and its
-- delivery as earth points, and its pickup day) in a GiST index of contrib's cube, so a lane (two earth boxes and a
-- window) is one box and the index visits only the loads near both ends in the window; an end that is "anywhere" is
-- an unbounded side of the box. External loads are in it too (always posted); the viewer's filter follows.
CREATE FUNCTION "lane_point"(plat float8, plng float8, dlat float8, dlng float8, pickup bigint) RETURNS cube
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT cube(ARRAY[
    cube_ll_coord(ll_to_earth(plat, plng), 1), cube_ll_coord(ll_to_earth(plat, plng), 2),
    cube_ll_coord(ll_to_earth(plat, plng), 3), cube_ll_coord(ll_to_earth(dlat, dlng), 1),
    cube_ll_coord(ll_to_earth(dlat, dlng), 2), cube_ll_coord(ll_to_earth(dlat, dlng), 3), pickup / 86400000.0::float8]) $$;
--> statement-breakpoint
CREATE INDEX "loads_lane_idx" ON "loads" USING gist (
  "lane_point"("pickup_latitude", "pickup_longitude", "delivery_latitude", "delivery_longitude", "pickup_date"))
  WHERE "status" = 'posted';
