CREATE TABLE `model_rollouts` (
	`project_id` text NOT NULL,
	`seq` integer NOT NULL,
	`at` integer NOT NULL,
	`action` text NOT NULL,
	`version` text NOT NULL,
	`reason` text NOT NULL,
	PRIMARY KEY(`project_id`, `seq`)
);
--> statement-breakpoint
CREATE TABLE `models` (
	`project_id` text NOT NULL,
	`version` text NOT NULL,
	`created_at` integer NOT NULL,
	`trained_by` text NOT NULL,
	`artifact` text NOT NULL,
	`bytes` integer NOT NULL,
	`confirmed` integer NOT NULL,
	`compared_with` text,
	`evaluation` text NOT NULL,
	`decision` text NOT NULL,
	`reasons` text NOT NULL,
	PRIMARY KEY(`project_id`, `version`)
);
--> statement-breakpoint
CREATE INDEX `models_created` ON `models` (`project_id`,`created_at`);