CREATE TABLE `document_owners_versions` (
	`project_id` text PRIMARY KEY NOT NULL,
	`updated_at` integer NOT NULL
);
