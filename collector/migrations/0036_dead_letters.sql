-- Queued events the consumer could not write, kept from the dead-letter queue until an admin
-- replays them (collector/ingest-queue/dead-letters.ts, GET /v1/admin/dead-letters).
CREATE TABLE `dead_letters` (
	`project_id` text NOT NULL,
	`id` text NOT NULL,
	`dead_lettered_at` integer NOT NULL,
	`message` text NOT NULL,
	`error` text NOT NULL,
	`attempts` integer NOT NULL,
	PRIMARY KEY(`project_id`, `id`)
);
