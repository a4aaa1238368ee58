CREATE TABLE `x402_settlements` (
	`message_hash` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`network` text NOT NULL,
	`signature` text,
	`payer` text NOT NULL,
	`shape` text NOT NULL,
	`status` text NOT NULL,
	`transfer_id` text,
	`created_at` text NOT NULL,
	`settled_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `x402_settlements_signature` ON `x402_settlements` (`signature`);--> statement-breakpoint
CREATE INDEX `x402_settlements_account_created` ON `x402_settlements` (`account_id`,`created_at`);