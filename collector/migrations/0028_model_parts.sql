-- A model's artifact past its first part, in order: D1 takes at most 2 MB in one value, and a model
-- with a large memory of judged questions is longer (storage/models.ts).
CREATE TABLE `model_parts` (
	`project_id` text NOT NULL,
	`version` text NOT NULL,
	`part` integer NOT NULL,
	`text` text NOT NULL,
	PRIMARY KEY(`project_id`, `version`, `part`)
);
