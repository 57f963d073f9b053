ALTER TABLE "load_alerts" ADD COLUMN "available" boolean DEFAULT true NOT NULL;--> statement-breakpoint
UPDATE "load_alerts" a SET "available" = u."is_available" FROM "users" u WHERE u."id" = a."user_id";
