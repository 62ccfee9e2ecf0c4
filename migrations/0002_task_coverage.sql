ALTER TABLE `tasks` ADD `publisher_total` integer;--> statement-breakpoint
ALTER TABLE `tasks` ADD `limited_view` text;--> statement-breakpoint
ALTER TABLE `tasks` ADD `full_walk` integer;--> statement-breakpoint
ALTER TABLE `tasks` ADD `stop_reason` text;