-- A chunk's aggregates become running totals. Each answer's retrievals are added once, when its
-- trace's aggregate is first written (pending) and then counted, instead of every touched chunk
-- being counted again from all its stored rows each night; its signals are kept per day of arrival
-- and summed, so a night counts again only the days its events fall on, and purged events stay counted.
CREATE TABLE `chunk_signal_days` (
	`project_id` text NOT NULL,
	`chunk_id` text NOT NULL,
	`day` text NOT NULL,
	`clicks` integer NOT NULL,
	`focused_dwells` integer NOT NULL,
	`dwell_ms` integer NOT NULL,
	`copies` integer NOT NULL,
	`wrong_source_flags` integer NOT NULL,
	`score_sum` real NOT NULL,
	`score_weight` real NOT NULL,
	PRIMARY KEY(`project_id`, `chunk_id`, `day`)
);
--> statement-breakpoint
CREATE INDEX `chunk_signal_days_day` ON `chunk_signal_days` (`project_id`,`day`);--> statement-breakpoint
DROP INDEX `feedback_events_chunk`;--> statement-breakpoint
-- A chunk's events by arrival: one day of them is a range.
CREATE INDEX `feedback_events_chunk` ON `feedback_events` (`project_id`,json_extract(`detail`, '$.chunkId'),`received_at`) WHERE json_type(`detail`, '$.chunkId') = 'text';--> statement-breakpoint
ALTER TABLE `trace_stats` ADD `retrievals_pending` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `trace_stats_retrievals_pending` ON `trace_stats` (`project_id`,`trace_id`) WHERE "trace_stats"."retrievals_pending" = 1;--> statement-breakpoint
-- The chunk counts so far covered the answers stored when each chunk was last counted again, which
-- no window of a run says exactly: every stored answer is counted afresh, by the next run (whose
-- chunks stage also takes every day of every chunk's events, finding no days kept yet).
UPDATE `chunk_stats` SET `retrieved` = 0, `top_ranked` = 0;--> statement-breakpoint
UPDATE `trace_stats` SET `retrievals_pending` = 1;--> statement-breakpoint
-- The stages gained `retrievals` before `chunks` (the fifth, index 4): a run under way goes on with
-- the stage it was in (one past it leaves its answers to the next run, which counts every pending one).
UPDATE `loop_runs` SET `stage` = `stage` + 1 WHERE `status` = 'running' AND `stage` >= 4;
