ALTER TABLE "users" ADD COLUMN "deleted_at" bigint;
