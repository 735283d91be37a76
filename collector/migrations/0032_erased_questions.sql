CREATE TABLE `erased_questions` (
	`project_id` text NOT NULL,
	`key` text NOT NULL,
	`erased_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `key`)
);
