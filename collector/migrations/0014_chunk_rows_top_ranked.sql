-- Whether a chunk row was among the first its trace's last stage showed, stored with the row when the
-- trace arrives (collector/storage/traces.ts), so the nightly chunk aggregates read it from the chunk
-- index instead of looking up each trace's stages. Rows stored before stay null: the job works it out
-- for them as before (collector/jobs/stages/aggregates.ts), so nothing is rewritten here.
DROP INDEX `trace_chunks_chunk`;--> statement-breakpoint
ALTER TABLE `trace_chunks` ADD `top_ranked` integer;--> statement-breakpoint
CREATE INDEX `trace_chunks_chunk` ON `trace_chunks` (`project_id`,`chunk_id`,`trace_id`,`top_ranked`,`stage`,`rank`,`source_doc_id`);
