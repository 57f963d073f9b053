CREATE TABLE "inbound_updates" (
	"source" text NOT NULL,
	"external_id" text NOT NULL,
	"received_at" bigint NOT NULL,
	CONSTRAINT "inbound_updates_source_external_id_pk" PRIMARY KEY("source","external_id")
);
--> statement-breakpoint
CREATE INDEX "inbound_updates_received_idx" ON "inbound_updates" USING btree ("received_at");