-- Widgets' drop reports, one row per report keyed by the first event of the batch that carried it
-- (storage/drops.ts): a batch sent again after its answer was lost counts its report once. The
-- daily counts kept before stay, each as one report of its day.
CREATE TABLE `client_drop_reports` (
	`project_id` text NOT NULL,
	`event_id` text NOT NULL,
	`day` text NOT NULL,
	`dropped` integer NOT NULL,
	PRIMARY KEY(`project_id`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `client_drop_reports_day` ON `client_drop_reports` (`project_id`,`day`);
--> statement-breakpoint
INSERT INTO `client_drop_reports` (`project_id`, `event_id`, `day`, `dropped`)
SELECT `project_id`, 'day:' || `day`, `day`, `dropped` FROM `client_drops`;
--> statement-breakpoint
DROP TABLE `client_drops`;
