ALTER TABLE `tasks` ADD `requests_direct` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `requests_browser` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `requests_provider` integer DEFAULT 0 NOT NULL;