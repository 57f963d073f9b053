-- External loads (synced from a user's board) are always posted: loads_posted_earth_idx finds them, and the index of
-- every load (a party's own loads in other states) has no use for them. Leaving them out halves a sync's index writes.
-- Searches outside the posted state say source_type = 'mytess', so this partial index still answers them.
DROP INDEX "loads_pickup_earth_idx";
--> statement-breakpoint
CREATE INDEX "loads_pickup_earth_idx" ON "loads" USING gist (ll_to_earth("pickup_latitude", "pickup_longitude"))
  WHERE "source_type" = 'mytess';
