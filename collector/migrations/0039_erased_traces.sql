CREATE TABLE `erased_traces` (
	`project_id` text NOT NULL,
	`trace_id` text NOT NULL,
	`erased_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `trace_id`)
);
