ALTER TABLE "payout_methods" ADD COLUMN "account_last4" text;--> statement-breakpoint
-- The last 4 digits of numbers saved before sealing; the numbers themselves are sealed at the next start, which needs
-- the server key that no migration has (sealPayoutNumbers, run after the migrations).
UPDATE "payout_methods" SET "account_last4" = right("account_number", 4) WHERE "account_number" IS NOT NULL AND "account_number" NOT LIKE 'v1.%';
