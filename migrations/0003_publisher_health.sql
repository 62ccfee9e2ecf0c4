-- Publisher health (docs/health.md): one row per publisher and hour with the outcomes of the tasks
-- that finished in it, written in the same batch as each task's completion or failure.
CREATE TABLE `publisher_hours` (
	`publisher_key` text NOT NULL,
	`hour` integer NOT NULL,
	`tasks` integer DEFAULT 0 NOT NULL,
	`succeeded` integer DEFAULT 0 NOT NULL,
	`failed_publisher` integer DEFAULT 0 NOT NULL,
	`failed_other` integer DEFAULT 0 NOT NULL,
	`canary_tasks` integer DEFAULT 0 NOT NULL,
	`pages` integer DEFAULT 0 NOT NULL,
	`reviews` integer DEFAULT 0 NOT NULL,
	`duration_ms` integer DEFAULT 0 NOT NULL,
	`last_success_at` integer,
	`last_failure_at` integer,
	`last_failure_reason` text,
	PRIMARY KEY(`publisher_key`, `hour`)
);
--> statement-breakpoint
CREATE INDEX `publisher_hours_hour_idx` ON `publisher_hours` (`hour`);
--> statement-breakpoint
-- The last health status each publisher was seen in, so an alert goes out once per change.
CREATE TABLE `publisher_health` (
	`publisher_key` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`changed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tasks_account_publisher_finished_idx` ON `tasks` (`account_id`,`publisher_key`,`finished_at`);
