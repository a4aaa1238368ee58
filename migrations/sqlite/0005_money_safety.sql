CREATE TABLE `receipt_closures` (
	`transfer_id` text PRIMARY KEY NOT NULL,
	`receipt_address` text NOT NULL,
	`outcome` text NOT NULL,
	`rent_returned` integer NOT NULL,
	`signature` text,
	`closed_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `reserve_usage` (
	`account_id` text NOT NULL,
	`day` text NOT NULL,
	`lamports` integer NOT NULL,
	`reserved_lamports` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reserve_usage_account_day` ON `reserve_usage` (`account_id`,`day`);--> statement-breakpoint
ALTER TABLE `events` ADD `fan_out_pending` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `events_fan_out_pending` ON `events` (`fan_out_pending`,`created_at`);--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `lease_expires_at` text;--> statement-breakpoint
ALTER TABLE `webhook_subscriptions` ADD `secret_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_subscriptions` ADD `previous_secret_expires_at` text;