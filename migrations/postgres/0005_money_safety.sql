CREATE TABLE "receipt_closures" (
	"transfer_id" text PRIMARY KEY NOT NULL,
	"receipt_address" text NOT NULL,
	"outcome" text NOT NULL,
	"rent_returned" bigint NOT NULL,
	"signature" text,
	"closed_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reserve_usage" (
	"account_id" text NOT NULL,
	"day" text NOT NULL,
	"lamports" bigint NOT NULL,
	"reserved_lamports" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "fan_out_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "lease_expires_at" text;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "secret_version" bigint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "previous_secret_expires_at" text;--> statement-breakpoint
CREATE UNIQUE INDEX "reserve_usage_account_day" ON "reserve_usage" USING btree ("account_id","day");--> statement-breakpoint
CREATE INDEX "events_fan_out_pending" ON "events" USING btree ("fan_out_pending","created_at");