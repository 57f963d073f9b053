-- A load of a shipper company shows the company's signals (modules/trust/trust.ts): its loads posted and completed
-- (`loads.shipper_company_id`, `status`), the ratings its side received on them (`ratings`) and its pay speed. The
-- trust version (0040) is bumped on these too, once per transaction at its commit, as the other trust triggers do.
-- A person's signals count their completed loads as well, so a load entering or leaving `completed` bumps it alike.
CREATE CONSTRAINT TRIGGER "loads_company_trust_update" AFTER UPDATE OF "shipper_company_id", "status" ON "loads" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.shipper_id IS NOT NULL AND (OLD.shipper_company_id IS DISTINCT FROM NEW.shipper_company_id OR (OLD.status = 'completed') IS DISTINCT FROM (NEW.status = 'completed'))) EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ratings_trust_insert" AFTER INSERT ON "ratings" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ratings_trust_update" AFTER UPDATE ON "ratings" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ratings_trust_delete" AFTER DELETE ON "ratings" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "bump_trust_version"();
