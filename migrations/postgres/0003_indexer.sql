CREATE TABLE "indexed_events" (
	"signature" text NOT NULL,
	"instruction_index" bigint NOT NULL,
	"event_index" bigint NOT NULL,
	"slot" bigint NOT NULL,
	"event" text NOT NULL,
	"resource_id" text,
	"state" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "indexer_checkpoints" (
	"source" text PRIMARY KEY NOT NULL,
	"slot" bigint NOT NULL,
	"signature" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transfers" ALTER COLUMN "api_key_id" DROP NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "indexed_events_position" ON "indexed_events" USING btree ("signature","instruction_index","event_index");--> statement-breakpoint
CREATE INDEX "indexed_events_state_slot" ON "indexed_events" USING btree ("state","slot");