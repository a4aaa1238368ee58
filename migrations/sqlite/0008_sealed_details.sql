ALTER TABLE `agent_transactions` ADD `sealed_amount` text;--> statement-breakpoint
ALTER TABLE `transfers` ADD `sealed_details` text;--> statement-breakpoint
CREATE INDEX `transfers_recipient_created` ON `transfers` (`recipient_address`,`created_at`);