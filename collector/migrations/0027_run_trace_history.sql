-- An answer's score as a nightly run first found it, kept before a slice rescores it: its own slice
-- weighs the history rule against the totals that hold that score (jobs/stages/assess.ts).
-- Emptied when the run ends.
CREATE TABLE `loop_trace_history` (
	`project_id` text NOT NULL,
	`night` text NOT NULL,
	`trace_id` text NOT NULL,
	`query_key` text,
	`weighted_score` real,
	PRIMARY KEY(`project_id`, `night`, `trace_id`)
);
