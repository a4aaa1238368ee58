CREATE TABLE `indexed_events` (
	`signature` text NOT NULL,
	`instruction_index` integer NOT NULL,
	`event_index` integer NOT NULL,
	`slot` integer NOT NULL,
	`event` text NOT NULL,
	`resource_id` text,
	`state` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `indexed_events_position` ON `indexed_events` (`signature`,`instruction_index`,`event_index`);--> statement-breakpoint
CREATE INDEX `indexed_events_state_slot` ON `indexed_events` (`state`,`slot`);--> statement-breakpoint
CREATE TABLE `indexer_checkpoints` (
	`source` text PRIMARY KEY NOT NULL,
	`slot` integer NOT NULL,
	`signature` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_transfers` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`api_key_id` text,
	`from_handle` text NOT NULL,
	`to` text NOT NULL,
	`recipient_address` text NOT NULL,
	`asset` text NOT NULL,
	`confidential` integer NOT NULL,
	`status` text NOT NULL,
	`phase` text NOT NULL,
	`tx_signature` text,
	`signatures` text DEFAULT '[]' NOT NULL,
	`failure_code` text,
	`usage_increment` text,
	`held_transaction_id` text,
	`created_at` text NOT NULL,
	`confirmed_at` text
);
--> statement-breakpoint
INSERT INTO `__new_transfers`("id", "account_id", "api_key_id", "from_handle", "to", "recipient_address", "asset", "confidential", "status", "phase", "tx_signature", "signatures", "failure_code", "usage_increment", "held_transaction_id", "created_at", "confirmed_at") SELECT "id", "account_id", "api_key_id", "from_handle", "to", "recipient_address", "asset", "confidential", "status", "phase", "tx_signature", "signatures", "failure_code", "usage_increment", "held_transaction_id", "created_at", "confirmed_at" FROM `transfers`;--> statement-breakpoint
DROP TABLE `transfers`;--> statement-breakpoint
ALTER TABLE `__new_transfers` RENAME TO `transfers`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `transfers_account_created` ON `transfers` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `transfers_phase` ON `transfers` (`phase`);