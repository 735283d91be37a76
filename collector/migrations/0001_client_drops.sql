CREATE TABLE `client_drops` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`dropped` integer NOT NULL,
	PRIMARY KEY(`project_id`, `day`)
);
