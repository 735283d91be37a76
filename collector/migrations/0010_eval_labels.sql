-- The labels each held-out question's first reading found while this week's eval sets are built (collector/jobs/stages/evals.ts): later layers read them here instead of through the question's answers again.
CREATE TABLE `eval_labels` (
	`project_id` text NOT NULL,
	`query_key` text NOT NULL,
	`judgements` text NOT NULL,
	`sources` text NOT NULL,
	PRIMARY KEY(`project_id`, `query_key`)
);
