-- The publisher's own totals for the profile (rating on its scale, star histogram) as the walk read
-- them (issue 36; src/core/tasks/publisher-summary.ts). Hand-written; matches src/db/schema.ts.
ALTER TABLE `tasks` ADD `publisher_summary` text;
