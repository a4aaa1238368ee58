CREATE TABLE "reserve_usage" (
	"account_id" text NOT NULL,
	"day" text NOT NULL,
	"lamports" bigint NOT NULL,
	"reserved_lamports" bigint NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "reserve_usage_account_day" ON "reserve_usage" USING btree ("account_id","day");