-- Secondary indexes a stage of the nightly job dropped while it writes most of their table, and the statement that builds each again (collector/storage/deferred-indexes.ts).
CREATE TABLE `deferred_indexes` (
	`name` text PRIMARY KEY NOT NULL,
	`definition` text NOT NULL,
	`deferred_at` integer NOT NULL
);
