CREATE TABLE `reserve_advances` (
	`account_id` text PRIMARY KEY NOT NULL,
	`lamports` integer NOT NULL,
	`reserved_lamports` integer NOT NULL
);
