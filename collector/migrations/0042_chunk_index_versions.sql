-- Retention asks, of every chunk whose rows it purged, whether a text of the chunk (per document
-- version) is still used by a row (collector/storage/sql/text-checks.ts). The chunk index now
-- carries the version, so that is answered from the index: read from the rows, a chunk retrieved
-- in many answers and shown in several versions read a row per answer, most of a purge's time.
DROP INDEX `trace_chunks_chunk`;--> statement-breakpoint
CREATE INDEX `trace_chunks_chunk` ON `trace_chunks` (`project_id`,`chunk_id`,`trace_id`,`top_ranked`,`stage`,`rank`,`source_doc_id`,`source_doc_version`);