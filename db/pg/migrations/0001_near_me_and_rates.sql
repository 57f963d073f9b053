-- "Near me" without PostGIS: contrib's cube and earthdistance. A GiST index over each load's pickup point as an earth
-- point answers `ORDER BY ll_to_earth(pickup_latitude, pickup_longitude) <-> ll_to_earth($1, $2) LIMIT k` in index
-- order, and `earth_box(ll_to_earth($1, $2), metres) @> ll_to_earth(pickup_latitude, pickup_longitude)` for a radius.
-- The posted loads have an index of their own, the board's default question (SQLite's loads_posted_rtree).
CREATE EXTENSION IF NOT EXISTS cube;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS earthdistance;
--> statement-breakpoint
CREATE INDEX "loads_pickup_earth_idx" ON "loads" USING gist (ll_to_earth("pickup_latitude", "pickup_longitude"));
--> statement-breakpoint
CREATE INDEX "loads_posted_earth_idx" ON "loads" USING gist (ll_to_earth("pickup_latitude", "pickup_longitude"))
  WHERE "status" = 'posted';
--> statement-breakpoint
-- First-start display rates (units per USD; docs/product-rules.md); GBP and CAD serve load budgets and bids (as
-- SQLite's 0001).
INSERT INTO "fx_rates" ("currency", "name", "symbol", "rate_per_usd", "locale", "updated_at") VALUES
  ('USD', 'US Dollar', '$', 1, 'en-US', 0),
  ('EUR', 'Euro', '€', 0.85, 'de-DE', 0),
  ('ETB', 'Ethiopian Birr', 'Br', 60.5, 'am-ET', 0),
  ('GBP', 'British Pound', '£', 0.79, 'en-GB', 0),
  ('CAD', 'Canadian Dollar', 'CA$', 1.37, 'en-CA', 0)
ON CONFLICT ("currency") DO NOTHING;
