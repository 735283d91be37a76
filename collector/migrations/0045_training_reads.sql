-- When a training last began to read each project's reviewed answers: an answer saved after it is
-- stamped after it, so that a model never takes as seen an answer stamped before its read but saved
-- after it. Empty until a project's next training.
CREATE TABLE `training_reads` (
	`project_id` text PRIMARY KEY NOT NULL,
	`read_at` integer NOT NULL
);
