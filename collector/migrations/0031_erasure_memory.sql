CREATE TABLE `erasure_memory` (
	`project_id` text NOT NULL,
	`user_id_hash` text NOT NULL,
	`kind` text NOT NULL,
	`key` text NOT NULL,
	PRIMARY KEY(`project_id`, `user_id_hash`, `kind`, `key`)
);
--> statement-breakpoint
ALTER TABLE `models` ADD `revision` integer DEFAULT 0 NOT NULL;