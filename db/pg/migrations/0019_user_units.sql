ALTER TABLE "users" ADD COLUMN "units" text DEFAULT 'imperial' NOT NULL;--> statement-breakpoint
-- Accounts that read Amharic or Afaan Oromo, or count in birr, start in kilometres and kilograms.
UPDATE "users" SET "units" = 'metric' WHERE "language" IN ('am', 'om') OR "currency" = 'ETB';
