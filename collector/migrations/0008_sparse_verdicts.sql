-- Verdicts are stored only where a noise rule or the attribution changed them (collector/storage/sql/verdict.ts): a missing row is the base verdict. The base rows go first, so dropping the column below rewrites only the rest.
DELETE FROM `event_assessments` WHERE `rules` = '[]' AND (`attribution` IS NULL OR `attribution` = 'null');--> statement-breakpoint
DROP INDEX `event_assessments_chunk`;--> statement-breakpoint
ALTER TABLE `event_assessments` DROP COLUMN `chunk_id`;--> statement-breakpoint
-- The per-chunk aggregates find an event's chunk in its detail now that most events have no verdict row to carry it.
CREATE INDEX `feedback_events_chunk` ON `feedback_events` (`project_id`,json_extract(`detail`, '$.chunkId')) WHERE json_type(`detail`, '$.chunkId') = 'text';
