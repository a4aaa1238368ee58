CREATE TABLE `receipt_closures` (
	`transfer_id` text PRIMARY KEY NOT NULL,
	`receipt_address` text NOT NULL,
	`outcome` text NOT NULL,
	`rent_returned` integer NOT NULL,
	`signature` text,
	`closed_at` text NOT NULL
);
