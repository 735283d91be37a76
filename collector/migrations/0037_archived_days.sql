CREATE TABLE `archived_days` (
	`project_id` text NOT NULL,
	`kind` text NOT NULL,
	`day` text NOT NULL,
	`rows` integer NOT NULL,
	`last_received_at` integer NOT NULL,
	`stale` integer DEFAULT false NOT NULL,
	`archived_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `kind`, `day`)
);
