-- The chunks whose texts retention must look at, listed as their rows are deleted (retention, erasure)
-- instead of every text checked every night. Every chunk with a text is listed once here, so the
-- first runs after this migration look at all of them, in batches.
CREATE TABLE `chunk_text_checks` (
	`project_id` text NOT NULL,
	`chunk_id` text NOT NULL,
	PRIMARY KEY(`project_id`, `chunk_id`)
);--> statement-breakpoint
INSERT INTO `chunk_text_checks` (`project_id`, `chunk_id`) SELECT DISTINCT `project_id`, `chunk_id` FROM `chunk_texts`;
