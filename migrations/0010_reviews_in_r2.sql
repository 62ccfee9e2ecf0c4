-- Reviews live in R2 (issue 33, docs/architecture.md "Storage"): a completed task's reviews are one
-- newest-first JSON Lines object and a fixed-width index beside it, under the key prefix recorded
-- here. D1 keeps no per-review rows. The old `reviews` table is renamed, not dropped: its rows are
-- moved to R2 by the cron's move step (src/app/scrape/legacy-reviews.ts), which drops the table once
-- it is empty, so an upgrade loses nothing whatever the order of deploy and cron.
ALTER TABLE `tasks` ADD `reviews_key` text;--> statement-breakpoint
DROP INDEX IF EXISTS `reviews_task_position_idx`;--> statement-breakpoint
ALTER TABLE `reviews` RENAME TO `legacy_reviews`;--> statement-breakpoint
CREATE INDEX `tasks_finished_idx` ON `tasks` (`finished_at`) WHERE `finished_at` IS NOT NULL;
