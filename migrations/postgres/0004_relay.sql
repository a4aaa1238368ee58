CREATE TABLE "relay_fee_usage" (
	"agent_account_id" text NOT NULL,
	"day" text NOT NULL,
	"lamports" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "agent_custody" text;--> statement-breakpoint
CREATE UNIQUE INDEX "relay_fee_usage_agent_day" ON "relay_fee_usage" USING btree ("agent_account_id","day");