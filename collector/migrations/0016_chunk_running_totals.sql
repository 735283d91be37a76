-- A chunk's aggregates become running totals: each answer's retrievals are added once, when its
-- trace's aggregate is first written (pending) and then counted, instead of every touched chunk
-- being counted again from all its stored rows each night; and what the events retention purges
-- had added to its signal counts is kept beside them, as the retrieval totals keep purged answers.
ALTER TABLE `chunk_stats` ADD `purged_clicks` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `chunk_stats` ADD `purged_focused_dwells` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `chunk_stats` ADD `purged_dwell_ms` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `chunk_stats` ADD `purged_copies` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `chunk_stats` ADD `purged_wrong_source_flags` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `chunk_stats` ADD `purged_score_sum` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `chunk_stats` ADD `purged_score_weight` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `trace_stats` ADD `retrievals_pending` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `trace_stats_retrievals_pending` ON `trace_stats` (`project_id`,`trace_id`) WHERE "trace_stats"."retrievals_pending" = 1;--> statement-breakpoint
-- The chunk counts so far covered the answers stored when each chunk was last counted again, which
-- no window of a run says exactly: every stored answer is counted afresh, by the next run.
UPDATE `chunk_stats` SET `retrieved` = 0, `top_ranked` = 0;--> statement-breakpoint
UPDATE `trace_stats` SET `retrievals_pending` = 1;--> statement-breakpoint
-- The stages gained `retrievals` before `chunks` (the fifth, index 4): a run under way goes on with
-- the stage it was in (one past it leaves its answers to the next run, which counts every pending one).
UPDATE `loop_runs` SET `stage` = `stage` + 1 WHERE `status` = 'running' AND `stage` >= 4;
