-- Each deferred index names the run that dropped it, so that other projects' runs leave it alone while that run goes on; one kept before has no run and is built again by the next run's first slice.
CREATE TABLE `__new_deferred_indexes` (
	`name` text PRIMARY KEY NOT NULL,
	`definition` text NOT NULL,
	`project_id` text NOT NULL,
	`night` text NOT NULL,
	`deferred_at` integer NOT NULL
);--> statement-breakpoint
INSERT INTO `__new_deferred_indexes` (`name`, `definition`, `project_id`, `night`, `deferred_at`) SELECT `name`, `definition`, '', '', `deferred_at` FROM `deferred_indexes`;--> statement-breakpoint
DROP TABLE `deferred_indexes`;--> statement-breakpoint
ALTER TABLE `__new_deferred_indexes` RENAME TO `deferred_indexes`;
