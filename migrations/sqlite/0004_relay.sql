CREATE TABLE `relay_fee_usage` (
	`agent_account_id` text NOT NULL,
	`day` text NOT NULL,
	`lamports` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `relay_fee_usage_agent_day` ON `relay_fee_usage` (`agent_account_id`,`day`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `agent_custody` text;