-- Publisher health that no single client can steer (docs/health.md): up to three of the accounts whose
-- tasks failed for a publisher reason in the hour, as a JSON array of account ids.
ALTER TABLE `publisher_hours` ADD `failed_accounts` text DEFAULT '[]' NOT NULL;
