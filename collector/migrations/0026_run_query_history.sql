-- Each question's scores as a nightly run first read them, so the noise filter's history rule gives
-- the same verdict whichever slice an answer falls in (jobs/stages/assess.ts). Emptied when the run ends.
CREATE TABLE `loop_query_history` (
	`project_id` text NOT NULL,
	`night` text NOT NULL,
	`query_key` text NOT NULL,
	`traces` integer NOT NULL,
	`total` real NOT NULL,
	PRIMARY KEY(`project_id`, `night`, `query_key`)
);
