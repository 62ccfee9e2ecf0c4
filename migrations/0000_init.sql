CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`plan` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_name_unique` ON `accounts` (`name`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_idx` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_account_idx` ON `api_keys` (`account_id`);--> statement-breakpoint
CREATE TABLE `requests` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`foreign_key` text NOT NULL,
	`lazy` integer NOT NULL,
	`business` text NOT NULL,
	`base_url` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `requests_account_foreign_key_idx` ON `requests` (`account_id`,`foreign_key`);--> statement-breakpoint
CREATE TABLE `reviews` (
	`task_id` text NOT NULL,
	`review_id` text NOT NULL,
	`posted_at` integer NOT NULL,
	`position` integer,
	`data` text NOT NULL,
	PRIMARY KEY(`task_id`, `review_id`),
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reviews_task_position_idx` ON `reviews` (`task_id`,`position`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`request_id` text NOT NULL,
	`account_id` text NOT NULL,
	`foreign_key` text NOT NULL,
	`publisher_key` text NOT NULL,
	`position` integer NOT NULL,
	`profile_key` text NOT NULL,
	`profile_url` text,
	`status` integer NOT NULL,
	`reason` text,
	`options` text NOT NULL,
	`cookies_enc` text,
	`cursor` text,
	`pages_scraped` integer DEFAULT 0 NOT NULL,
	`reviews_found` integer DEFAULT 0 NOT NULL,
	`files` text DEFAULT '[]' NOT NULL,
	`runs` integer DEFAULT 0 NOT NULL,
	`deadline_at` integer,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`request_id`) REFERENCES `requests`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tasks_account_foreign_key_idx` ON `tasks` (`account_id`,`foreign_key`,`publisher_key`);--> statement-breakpoint
CREATE INDEX `tasks_request_idx` ON `tasks` (`request_id`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`account_id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`secret_enc` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
