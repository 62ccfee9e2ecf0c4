-- Batch submits (POST /submit/batch/, docs/batch.md): one row per accepted batch, and each request
-- of a batch names its batch and its index in it. Hand-written; matches src/db/schema.ts.
CREATE TABLE `batches` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`requests` integer NOT NULL,
	`tasks` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `requests` ADD `batch_id` text;--> statement-breakpoint
ALTER TABLE `requests` ADD `batch_index` integer;--> statement-breakpoint
CREATE INDEX `requests_batch_idx` ON `requests` (`batch_id`, `batch_index`) WHERE `batch_id` IS NOT NULL;
