-- The version of what a board page is made of (the REST board's page cache, src/server/modules/boards/page-cache.ts),
-- and a log of what each version changed. Every write to the loads, the board configurations (a synced load's board
-- name, which boards are searched), truck invitations (a page's "invited") and exchange rates (the rate sort and filter)
-- bumps the version in the same transaction, so a process that sees it unchanged (with the trust version, for the
-- shippers' signals) knows a page it keeps is still what the database would answer, whichever process wrote. Each
-- write also logs, under its version, the one-degree cell of the changed load's pickup (before and after), or no cell
-- for a write that may change any page: a page whose version is behind is still good when no change since touched the
-- cells its search circle covers. An update of loads counts only when a column a board page shows or searches by
-- changes (not the sync's seen-at and hash, the trip's times, the agreed price, the cancel reason, the landing page's
-- country code or the edit time; board-page-cache.test.ts keeps the list whole). The log keeps the last 100,000
-- versions' changes; a page older than that is read again.
-- Here the bump and the log wait for the commit (deferred constraint triggers): the first change of a transaction
-- bumps the version once and keeps it in a transaction-local setting, and every change logs under it. Writers hold the
-- version's row only while committing and only insert into the log, so no lock order is added.
INSERT INTO "cache_versions" ("name", "version") VALUES ('board', 0);
--> statement-breakpoint
CREATE TABLE "board_changes" (
  "version" integer NOT NULL,
  "cell_lat" integer,
  "cell_lng" integer
);
--> statement-breakpoint
CREATE INDEX "board_changes_version_idx" ON "board_changes" ("version");
--> statement-breakpoint
CREATE FUNCTION "bump_board_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v integer;
BEGIN
  IF current_setting('mytess.board_bumped', true) IS DISTINCT FROM '1' THEN
    UPDATE "cache_versions" SET "version" = "version" + 1 WHERE "name" = 'board' RETURNING "version" INTO v;
    PERFORM set_config('mytess.board_bumped', '1', true);
    PERFORM set_config('mytess.board_version', v::text, true);
    DELETE FROM "board_changes" WHERE "version" <= v - 100000;
  ELSE
    v := current_setting('mytess.board_version')::integer;
  END IF;
  IF TG_TABLE_NAME = 'loads' THEN
    IF TG_OP <> 'INSERT' THEN
      INSERT INTO "board_changes" ("version", "cell_lat", "cell_lng")
        VALUES (v, floor(OLD.pickup_latitude + 90)::integer, floor(OLD.pickup_longitude + 180)::integer);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      INSERT INTO "board_changes" ("version", "cell_lat", "cell_lng")
        VALUES (v, floor(NEW.pickup_latitude + 90)::integer, floor(NEW.pickup_longitude + 180)::integer);
    END IF;
  ELSE
    INSERT INTO "board_changes" ("version", "cell_lat", "cell_lng") VALUES (v, NULL, NULL);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "loads_board_insert" AFTER INSERT ON "loads" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_board_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "loads_board_update" AFTER UPDATE ON "loads" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.shipper_id IS DISTINCT FROM NEW.shipper_id OR OLD.title IS DISTINCT FROM NEW.title OR OLD.description IS DISTINCT FROM NEW.description OR OLD.pickup_address IS DISTINCT FROM NEW.pickup_address OR OLD.pickup_city IS DISTINCT FROM NEW.pickup_city OR OLD.pickup_state IS DISTINCT FROM NEW.pickup_state OR OLD.pickup_country IS DISTINCT FROM NEW.pickup_country OR OLD.pickup_latitude IS DISTINCT FROM NEW.pickup_latitude OR OLD.pickup_longitude IS DISTINCT FROM NEW.pickup_longitude OR OLD.delivery_address IS DISTINCT FROM NEW.delivery_address OR OLD.delivery_city IS DISTINCT FROM NEW.delivery_city OR OLD.delivery_state IS DISTINCT FROM NEW.delivery_state OR OLD.delivery_country IS DISTINCT FROM NEW.delivery_country OR OLD.delivery_latitude IS DISTINCT FROM NEW.delivery_latitude OR OLD.delivery_longitude IS DISTINCT FROM NEW.delivery_longitude OR OLD.pickup_date IS DISTINCT FROM NEW.pickup_date OR OLD.delivery_date IS DISTINCT FROM NEW.delivery_date OR OLD.weight_lbs IS DISTINCT FROM NEW.weight_lbs OR OLD.equipment_type IS DISTINCT FROM NEW.equipment_type OR OLD.budget_minor IS DISTINCT FROM NEW.budget_minor OR OLD.budget_currency IS DISTINCT FROM NEW.budget_currency OR OLD.load_size IS DISTINCT FROM NEW.load_size OR OLD.trip_miles IS DISTINCT FROM NEW.trip_miles OR OLD.special_instructions IS DISTINCT FROM NEW.special_instructions OR OLD.status IS DISTINCT FROM NEW.status OR OLD.source_type IS DISTINCT FROM NEW.source_type OR OLD.source_provider IS DISTINCT FROM NEW.source_provider OR OLD.source_external_id IS DISTINCT FROM NEW.source_external_id OR OLD.source_config_id IS DISTINCT FROM NEW.source_config_id OR OLD.source_owner_id IS DISTINCT FROM NEW.source_owner_id OR OLD.source_contact IS DISTINCT FROM NEW.source_contact OR OLD.assigned_driver_id IS DISTINCT FROM NEW.assigned_driver_id OR OLD.shipper_company_id IS DISTINCT FROM NEW.shipper_company_id OR OLD.created_at IS DISTINCT FROM NEW.created_at) EXECUTE FUNCTION "bump_board_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "loads_board_delete" AFTER DELETE ON "loads" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_board_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "marketplace_configs_board_insert" AFTER INSERT ON "marketplace_configs" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_board_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "marketplace_configs_board_update" AFTER UPDATE ON "marketplace_configs" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_board_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "marketplace_configs_board_delete" AFTER DELETE ON "marketplace_configs" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_board_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "truck_invitations_board_insert" AFTER INSERT ON "truck_invitations" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_board_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "truck_invitations_board_update" AFTER UPDATE ON "truck_invitations" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_board_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "truck_invitations_board_delete" AFTER DELETE ON "truck_invitations" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_board_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "fx_rates_board_insert" AFTER INSERT ON "fx_rates" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_board_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "fx_rates_board_update" AFTER UPDATE ON "fx_rates" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_board_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "fx_rates_board_delete" AFTER DELETE ON "fx_rates" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_board_version"();
