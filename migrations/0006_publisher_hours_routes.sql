-- Publisher health: which fetch routes the finished tasks of each hour used (their request counts).
ALTER TABLE `publisher_hours` ADD `requests_direct` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `publisher_hours` ADD `requests_browser` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `publisher_hours` ADD `requests_provider` integer DEFAULT 0 NOT NULL;
