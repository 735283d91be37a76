CREATE TABLE `api_keys` (
	`key_hash` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`kind` text NOT NULL,
	`prefix` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `api_keys_project` ON `api_keys` (`project_id`);--> statement-breakpoint
CREATE TABLE `feedback_events` (
	`project_id` text NOT NULL,
	`event_id` text NOT NULL,
	`trace_id` text NOT NULL,
	`session_id` text NOT NULL,
	`signal_type` text NOT NULL,
	`signal_value` real,
	`signal_group` text,
	`superseded` integer DEFAULT false NOT NULL,
	`detail` text NOT NULL,
	`widget_version` text,
	`client_ts` integer NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `feedback_trace` ON `feedback_events` (`project_id`,`trace_id`);--> statement-breakpoint
CREATE INDEX `feedback_type_received` ON `feedback_events` (`project_id`,`signal_type`,`received_at`);--> statement-breakpoint
CREATE TABLE `project_origins` (
	`project_id` text NOT NULL,
	`origin` text NOT NULL,
	PRIMARY KEY(`project_id`, `origin`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `project_origins_origin` ON `project_origins` (`origin`);--> statement-breakpoint
CREATE TABLE `projects` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `trace_chunks` (
	`project_id` text NOT NULL,
	`trace_id` text NOT NULL,
	`stage` text NOT NULL,
	`rank` integer NOT NULL,
	`chunk_id` text NOT NULL,
	`source_doc_id` text NOT NULL,
	`source_doc_version` text,
	`score` real NOT NULL,
	`text` text NOT NULL,
	PRIMARY KEY(`project_id`, `trace_id`, `stage`, `rank`)
);
--> statement-breakpoint
CREATE INDEX `trace_chunks_doc` ON `trace_chunks` (`project_id`,`source_doc_id`);--> statement-breakpoint
CREATE INDEX `trace_chunks_chunk` ON `trace_chunks` (`project_id`,`chunk_id`);--> statement-breakpoint
CREATE TABLE `traces` (
	`project_id` text NOT NULL,
	`trace_id` text NOT NULL,
	`session_id` text,
	`user_id_hash` text,
	`turn_index` integer,
	`query` text NOT NULL,
	`rewritten_query` text,
	`top_k` integer,
	`threshold` real,
	`embedding_model` text,
	`prompt` text,
	`answer` text NOT NULL,
	`model` text NOT NULL,
	`reranker_version` text,
	`intent` text,
	`knowledge_base` text,
	`created_at` integer NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `trace_id`)
);
--> statement-breakpoint
CREATE INDEX `traces_created` ON `traces` (`project_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `traces_session` ON `traces` (`project_id`,`session_id`,`turn_index`);--> statement-breakpoint
CREATE TABLE `widget_configs` (
	`project_id` text PRIMARY KEY NOT NULL,
	`config` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE no action
);
