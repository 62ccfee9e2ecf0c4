-- Monitors bounded and fair (issue 34, docs/monitoring.md "Limits"). A monitor's large parts (the
-- business, its publishers, their sealed login cookies) move to monitor_details, so the cron claim
-- reads and rewrites only small schedule rows, and list-monitors reads no cookies.
CREATE TABLE `monitor_details` (
	`monitor_id` text PRIMARY KEY NOT NULL,
	`business` text NOT NULL,
	`publishers` text NOT NULL,
	`cookies` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `monitor_details` (`monitor_id`, `business`, `publishers`, `cookies`)
SELECT m.`id`, m.`business`,
	(SELECT json_group_array(json_object(
		'publisher_key', json_extract(p.value, '$.publisher_key'),
		'profile_key', json_extract(p.value, '$.profile_key'),
		'profile_url', json_extract(p.value, '$.profile_url')))
	 FROM json_each(m.`publishers`) p),
	(SELECT json_group_object(json_extract(p.value, '$.publisher_key'), json_extract(p.value, '$.cookies_enc'))
	 FROM json_each(m.`publishers`) p WHERE json_extract(p.value, '$.cookies_enc') IS NOT NULL)
FROM `monitors` m;
--> statement-breakpoint
ALTER TABLE `monitors` ADD `details_bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `monitors` SET `details_bytes` = length(CAST(`business` AS BLOB)) + length(CAST(`publishers` AS BLOB));--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `business`;--> statement-breakpoint
ALTER TABLE `monitors` DROP COLUMN `publishers`;--> statement-breakpoint
-- Set while the account has no active API key: the monitor does not run; cleared when a key exists again.
ALTER TABLE `monitors` ADD `suspended_at` integer;--> statement-breakpoint
DROP INDEX `monitors_next_due_idx`;--> statement-breakpoint
-- Covers the claim (due monitors ranked per account) without reading a row.
CREATE INDEX `monitors_due_idx` ON `monitors` (`next_due_at`,`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `monitors_suspended_idx` ON `monitors` (`account_id`) WHERE `suspended_at` IS NOT NULL;--> statement-breakpoint
-- One task per publisher per run: a second start of the same run fails as a whole.
DROP INDEX `monitor_runs_monitor_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `monitor_runs_run_idx` ON `monitor_runs` (`monitor_id`,`run`,`publisher_key`);
--> statement-breakpoint
-- A run's changes are numbered from here (src/app/monitors/settle.ts writes a run in bounded transactions).
ALTER TABLE `monitor_runs` ADD `settle_base` integer;
--> statement-breakpoint
-- The cron finds runs whose settle was lost (src/app/monitors/settle.ts, settleStuckRuns) among the unsettled only.
CREATE INDEX `monitor_runs_unsettled_idx` ON `monitor_runs` (`task_id`) WHERE `state` IN ('running', 'settling');
