CREATE TABLE "reserve_advances" (
	"account_id" text PRIMARY KEY NOT NULL,
	"lamports" bigint NOT NULL,
	"reserved_lamports" bigint NOT NULL
);
