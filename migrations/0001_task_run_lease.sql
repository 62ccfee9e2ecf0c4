ALTER TABLE `tasks` ADD `lease_token` text;--> statement-breakpoint
ALTER TABLE `tasks` ADD `lease_until` integer;--> statement-breakpoint
CREATE INDEX `tasks_status_updated_idx` ON `tasks` (`status`,`updated_at`);