ALTER TABLE "agent_transactions" ADD COLUMN "sealed_amount" text;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "sealed_details" text;--> statement-breakpoint
CREATE INDEX "transfers_recipient_created" ON "transfers" USING btree ("recipient_address","created_at");