-- Requests a task made to the publisher by route kind (docs/routes.md), for its cost. Hand-written
-- after 0004 (numbered after the migrations main added meanwhile); matches src/db/schema.ts.
ALTER TABLE `tasks` ADD `requests_direct` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `requests_browser` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `requests_provider` integer DEFAULT 0 NOT NULL;