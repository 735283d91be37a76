-- Erasure's scratch list of other users' answers to recompute, written and emptied within one
-- transaction (collector/storage/erasure.ts).
CREATE TABLE `erasure_recompute` (
	`project_id` text NOT NULL,
	`trace_id` text NOT NULL,
	PRIMARY KEY(`project_id`, `trace_id`)
);
