-- The version of what a shipper's trust signals are made of (the board's per-shipper cache, src/server/modules/trust/
-- trust-cache.ts): every write to a table they are read from bumps it in the same transaction, so a process that sees
-- the version unchanged knows its cached signals are still what the database says, whichever process wrote.
-- Here the bump waits for the commit (a deferred constraint trigger) and happens once per transaction (a
-- transaction-local setting), so writers hold the version's row only while committing and never while they take other
-- locks: no deadlock between a writer holding the version and one holding a load.
CREATE TABLE "cache_versions" (
  "name" text PRIMARY KEY NOT NULL,
  "version" integer NOT NULL
);
--> statement-breakpoint
INSERT INTO "cache_versions" ("name", "version") VALUES ('trust', 0);
--> statement-breakpoint
CREATE FUNCTION "bump_trust_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('mytess.trust_bumped', true) IS DISTINCT FROM '1' THEN
    PERFORM set_config('mytess.trust_bumped', '1', true);
    UPDATE "cache_versions" SET "version" = "version" + 1 WHERE "name" = 'trust';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "users_trust_update" AFTER UPDATE OF "first_name", "last_name", "rating_sum", "total_ratings" ON "users" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name OR OLD.rating_sum IS DISTINCT FROM NEW.rating_sum OR OLD.total_ratings IS DISTINCT FROM NEW.total_ratings) EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "users_trust_delete" AFTER DELETE ON "users" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "companies_trust_update" AFTER UPDATE OF "name", "kind" ON "companies" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.kind IS DISTINCT FROM NEW.kind) EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "companies_trust_delete" AFTER DELETE ON "companies" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "company_members_trust_insert" AFTER INSERT ON "company_members" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "company_members_trust_update" AFTER UPDATE ON "company_members" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "company_members_trust_delete" AFTER DELETE ON "company_members" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "loads_trust_insert" AFTER INSERT ON "loads" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.shipper_id IS NOT NULL) EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "loads_trust_update" AFTER UPDATE OF "shipper_id", "delivered_at" ON "loads" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.shipper_id IS DISTINCT FROM NEW.shipper_id OR OLD.delivered_at IS DISTINCT FROM NEW.delivered_at) EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "loads_trust_delete" AFTER DELETE ON "loads" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.shipper_id IS NOT NULL) EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "freight_payments_trust_insert" AFTER INSERT ON "freight_payments" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "freight_payments_trust_update" AFTER UPDATE OF "shipper_id", "load_id", "state" ON "freight_payments" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.shipper_id IS DISTINCT FROM NEW.shipper_id OR OLD.load_id IS DISTINCT FROM NEW.load_id OR OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "freight_payments_trust_delete" AFTER DELETE ON "freight_payments" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "freight_payment_events_trust_insert" AFTER INSERT ON "freight_payment_events" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.state = 'released') EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "freight_payment_events_trust_update" AFTER UPDATE ON "freight_payment_events" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "freight_payment_events_trust_delete" AFTER DELETE ON "freight_payment_events" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.state = 'released') EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "verifications_trust_insert" AFTER INSERT ON "verifications" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "verifications_trust_update" AFTER UPDATE ON "verifications" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "verifications_trust_delete" AFTER DELETE ON "verifications" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "verification_files_trust_insert" AFTER INSERT ON "verification_files" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "verification_files_trust_update" AFTER UPDATE ON "verification_files" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "verification_files_trust_delete" AFTER DELETE ON "verification_files" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
