-- A flagged document's evidence comes from its days: each day in the window documents are judged
-- over keeps its ten worst answers citing each document version, so the documents stage no longer
-- reads every answer that cited a flagged document, and chunk rows need no index by document.
-- Days counted before stay null; the next run counts again the days of its window that have none.
DROP INDEX `trace_chunks_doc`;--> statement-breakpoint
ALTER TABLE `document_days` ADD `worst` text;--> statement-breakpoint
-- Retention clears the lists of days leaving the window or purged: found on this index alone.
CREATE INDEX `document_days_listed` ON `document_days` (`project_id`,`day`) WHERE "document_days"."worst" is not null;
