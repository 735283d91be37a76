DROP INDEX `trace_chunks_chunk`;--> statement-breakpoint
CREATE INDEX `trace_chunks_chunk` ON `trace_chunks` (`project_id`,`chunk_id`,`trace_id`,`stage`,`rank`,`source_doc_id`);--> statement-breakpoint
DROP INDEX `trace_stats_query`;--> statement-breakpoint
CREATE INDEX `trace_stats_query` ON `trace_stats` (`project_id`,`query_key`,`weighted_score`);--> statement-breakpoint
ALTER TABLE `event_assessments` ADD `chunk_id` text;--> statement-breakpoint
-- The chunk each assessed event names, as the nightly job now stores it (collector/jobs/stages/assess.ts).
UPDATE `event_assessments` SET `chunk_id` = (SELECT json_extract(e.`detail`, '$.chunkId') FROM `feedback_events` e WHERE e.`project_id` = `event_assessments`.`project_id` AND e.`event_id` = `event_assessments`.`event_id` AND json_type(e.`detail`, '$.chunkId') = 'text');--> statement-breakpoint
CREATE INDEX `event_assessments_chunk` ON `event_assessments` (`project_id`,`chunk_id`) WHERE "event_assessments"."chunk_id" is not null;