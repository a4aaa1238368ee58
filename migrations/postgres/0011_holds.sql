ALTER TABLE "agent_transactions" RENAME TO "holds";--> statement-breakpoint
ALTER TABLE "holds" RENAME COLUMN "pending_address" TO "hold_address";--> statement-breakpoint
ALTER TABLE "transfers" RENAME COLUMN "held_transaction_id" TO "hold_id";--> statement-breakpoint
DROP INDEX "agent_transactions_owner_status";--> statement-breakpoint
DROP INDEX "agent_transactions_pending_address";--> statement-breakpoint
CREATE INDEX "holds_owner_status" ON "holds" USING btree ("owner_account_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "holds_hold_address" ON "holds" USING btree ("hold_address");