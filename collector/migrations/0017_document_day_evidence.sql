-- A flagged document's evidence comes from its days: each day in the window documents are judged
-- over keeps its ten worst answers citing each document version, so the documents stage no longer
-- reads every answer that cited a flagged document, and chunk rows need no index by document.
-- Days counted before have none (null): the next run counts again those of its window.
DROP INDEX `trace_chunks_doc`;--> statement-breakpoint
ALTER TABLE `document_days` ADD `worst` text;--> statement-breakpoint
-- The days holding a list, which retention clears, and those to count again.
CREATE INDEX `document_days_listed` ON `document_days` (`project_id`,`day`) WHERE "document_days"."worst" <> '[]';--> statement-breakpoint
CREATE INDEX `document_days_unlisted` ON `document_days` (`project_id`,`day`) WHERE "document_days"."worst" is null;
