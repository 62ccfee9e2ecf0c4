CREATE TABLE `monitor_changes` (
	`monitor_id` text NOT NULL,
	`seq` integer NOT NULL,
	`type` text NOT NULL,
	`publisher_key` text NOT NULL,
	`review_id` text NOT NULL,
	`task_id` text NOT NULL,
	`run` integer NOT NULL,
	`before` text,
	`after` text,
	`detected_at` integer NOT NULL,
	PRIMARY KEY(`monitor_id`, `seq`)
);
--> statement-breakpoint
CREATE INDEX `monitor_changes_task_idx` ON `monitor_changes` (`task_id`);--> statement-breakpoint
CREATE TABLE `monitor_reviews` (
	`monitor_id` text NOT NULL,
	`publisher_key` text NOT NULL,
	`review_id` text NOT NULL,
	`review_hash` text NOT NULL,
	`posted_at` integer NOT NULL,
	`last_seen_run` integer NOT NULL,
	`data` text NOT NULL,
	PRIMARY KEY(`monitor_id`, `publisher_key`, `review_id`)
);
--> statement-breakpoint
CREATE INDEX `monitor_reviews_newest_idx` ON `monitor_reviews` (`monitor_id`,`publisher_key`,`posted_at`);--> statement-breakpoint
CREATE TABLE `monitor_runs` (
	`task_id` text PRIMARY KEY NOT NULL,
	`monitor_id` text NOT NULL,
	`run` integer NOT NULL,
	`publisher_key` text NOT NULL,
	`full_walk` integer NOT NULL,
	`state` text NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	`updated` integer DEFAULT 0 NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`reviews_seen` integer DEFAULT 0 NOT NULL,
	`complete` integer,
	`baseline` integer DEFAULT false NOT NULL,
	`settle_order` integer,
	`events_queued` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`settled_at` integer
);
--> statement-breakpoint
CREATE INDEX `monitor_runs_monitor_idx` ON `monitor_runs` (`monitor_id`,`run`);--> statement-breakpoint
CREATE TABLE `monitors` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`foreign_key` text NOT NULL,
	`business` text NOT NULL,
	`publishers` text NOT NULL,
	`interval_hours` integer NOT NULL,
	`full_walk_every` integer NOT NULL,
	`paused` integer DEFAULT false NOT NULL,
	`runs` integer DEFAULT 0 NOT NULL,
	`next_due_at` integer,
	`change_seq` integer DEFAULT 0 NOT NULL,
	`settled_runs` integer DEFAULT 0 NOT NULL,
	`base_url` text NOT NULL,
	`last_run_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `monitors_next_due_idx` ON `monitors` (`next_due_at`);--> statement-breakpoint
CREATE INDEX `monitors_account_idx` ON `monitors` (`account_id`,`created_at`);