CREATE TABLE "reserve_reconciliations" (
	"signature" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"reservations" text NOT NULL,
	"signatures" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "reserve_reconciliations_created" ON "reserve_reconciliations" USING btree ("created_at");