CREATE TABLE `chunk_texts` (
	`project_id` text NOT NULL,
	`chunk_id` text NOT NULL,
	`source_doc_version` text NOT NULL,
	`text` text NOT NULL,
	PRIMARY KEY(`project_id`, `chunk_id`, `source_doc_version`)
);
--> statement-breakpoint
-- Written by hand: each chunk's text moves here once (the first stored for a chunk id and version).
INSERT OR IGNORE INTO `chunk_texts` (`project_id`, `chunk_id`, `source_doc_version`, `text`)
  SELECT `project_id`, `chunk_id`, coalesce(`source_doc_version`, ''), `text` FROM `trace_chunks` ORDER BY rowid;--> statement-breakpoint
ALTER TABLE `trace_chunks` DROP COLUMN `text`;