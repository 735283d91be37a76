-- The chunk index holds what retention's text check reads (collector/storage/sql/text-checks.ts)
-- and no more: nothing else reads chunk rows by chunk since the chunk aggregates became running
-- totals (0016), and every row's entry is deleted with the row, most of what a purge's deletes wrote.
DROP INDEX `trace_chunks_chunk`;--> statement-breakpoint
CREATE INDEX `trace_chunks_chunk` ON `trace_chunks` (`project_id`,`chunk_id`,`source_doc_version`);