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
-- The chunk counts so far hold every answer up to the last finished run; the answers received
-- since are left for the next run to add (a run under way that already recounted some chunks
-- adds those answers to them a second time: applied between runs, the totals are exact).
UPDATE `trace_stats` SET `retrievals_pending` = 1 WHERE (`project_id`, `trace_id`) IN (
	SELECT t.`project_id`, t.`trace_id` FROM `projects` p
	CROSS JOIN `traces` t ON t.`project_id` = p.`id` AND t.`received_at` > coalesce(
		(SELECT max(r.`window_to`) FROM `loop_runs` r WHERE r.`project_id` = p.`id` AND r.`status` = 'done'), 0)
);
