CREATE TABLE `reserve_usage` (
	`account_id` text NOT NULL,
	`day` text NOT NULL,
	`lamports` integer NOT NULL,
	`reserved_lamports` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reserve_usage_account_day` ON `reserve_usage` (`account_id`,`day`);