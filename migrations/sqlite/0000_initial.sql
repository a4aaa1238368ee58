CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`handle` text NOT NULL,
	`type` text NOT NULL,
	`kyc_status` text NOT NULL,
	`public_key` text NOT NULL,
	`owner_account_id` text,
	`agent_name` text,
	`agent_signer` text,
	`policy_id` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_handle` ON `accounts` (`handle`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_public_key` ON `accounts` (`public_key`);--> statement-breakpoint
CREATE INDEX `accounts_owner` ON `accounts` (`owner_account_id`);--> statement-breakpoint
CREATE TABLE `agent_transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_account_id` text NOT NULL,
	`owner_account_id` text NOT NULL,
	`transfer_id` text NOT NULL,
	`pending_address` text NOT NULL,
	`to` text NOT NULL,
	`confidential` integer NOT NULL,
	`status` text NOT NULL,
	`requested_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`decided_at` text,
	`tx_signature` text
);
--> statement-breakpoint
CREATE INDEX `agent_transactions_owner_status` ON `agent_transactions` (`owner_account_id`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `agent_transactions_pending_address` ON `agent_transactions` (`pending_address`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`environment` text NOT NULL,
	`key_hash` text NOT NULL,
	`last4` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	`last_used_at` text,
	`request_count` integer DEFAULT 0 NOT NULL,
	`transfer_count` integer DEFAULT 0 NOT NULL,
	`transferred_total` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_account` ON `api_keys` (`account_id`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`account_id` text NOT NULL,
	`resource_id` text NOT NULL,
	`fact_key` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_fact_key` ON `events` (`fact_key`);--> statement-breakpoint
CREATE INDEX `events_account` ON `events` (`account_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`account_id` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`state` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`resource_id` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `idempotency_keys_account_key` ON `idempotency_keys` (`account_id`,`key`);--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `service_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `transfers` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`api_key_id` text NOT NULL,
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
	`held_transaction_id` text,
	`created_at` text NOT NULL,
	`confirmed_at` text
);
--> statement-breakpoint
CREATE INDEX `transfers_account_created` ON `transfers` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `transfers_phase` ON `transfers` (`phase`);--> statement-breakpoint
CREATE TABLE `vault_secrets` (
	`account_id` text NOT NULL,
	`kind` text NOT NULL,
	`key_id` text NOT NULL,
	`sealed` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vault_secrets_owner_kind` ON `vault_secrets` (`account_id`,`kind`);