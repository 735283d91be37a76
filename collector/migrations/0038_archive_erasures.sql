CREATE TABLE `archive_erasures` (
	`project_id` text NOT NULL,
	`user_id_hash` text NOT NULL,
	`requested_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `user_id_hash`)
);
