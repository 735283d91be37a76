-- A team's curated eval questions, which the gate ranks beside the eval sets mined from feedback (collector/storage/eval-suite.ts).
CREATE TABLE `eval_suite` (
	`project_id` text NOT NULL,
	`query_id` text NOT NULL,
	`query` text NOT NULL,
	`query_key` text NOT NULL,
	`candidates` text NOT NULL,
	`judgements` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `query_id`)
);
--> statement-breakpoint
CREATE INDEX `eval_suite_key` ON `eval_suite` (`project_id`,`query_key`);