ALTER TABLE `events` ADD `fan_out_pending` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `events_fan_out_pending` ON `events` (`fan_out_pending`,`created_at`);--> statement-breakpoint
ALTER TABLE `webhook_subscriptions` ADD `secret_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_subscriptions` ADD `previous_secret_expires_at` text;