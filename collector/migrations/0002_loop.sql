CREATE TABLE `chunk_stats` (
	`project_id` text NOT NULL,
	`chunk_id` text NOT NULL,
	`source_doc_id` text NOT NULL,
	`retrieved` integer NOT NULL,
	`top_ranked` integer NOT NULL,
	`clicks` integer NOT NULL,
	`focused_dwells` integer NOT NULL,
	`dwell_ms` integer NOT NULL,
	`copies` integer NOT NULL,
	`wrong_source_flags` integer NOT NULL,
	`weighted_score` real,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `chunk_id`)
);
--> statement-breakpoint
CREATE INDEX `chunk_stats_doc` ON `chunk_stats` (`project_id`,`source_doc_id`);--> statement-breakpoint
CREATE TABLE `day_stats` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`traces` integer NOT NULL,
	`with_signals` integer NOT NULL,
	`with_trusted` integer NOT NULL,
	`explicit_signals` integer NOT NULL,
	`implicit_signals` integer NOT NULL,
	`signals` integer NOT NULL,
	`trusted_signals` integer NOT NULL,
	`negative` integer NOT NULL,
	`requeried` integer NOT NULL,
	PRIMARY KEY(`project_id`, `day`)
);
--> statement-breakpoint
CREATE TABLE `document_days` (
	`project_id` text NOT NULL,
	`source_doc_id` text NOT NULL,
	`source_doc_version` text NOT NULL,
	`day` text NOT NULL,
	`traces` integer NOT NULL,
	`scored` integer NOT NULL,
	`negative` integer NOT NULL,
	`positive` integer NOT NULL,
	`requeried` integer NOT NULL,
	PRIMARY KEY(`project_id`, `source_doc_id`, `source_doc_version`, `day`)
);
--> statement-breakpoint
CREATE INDEX `document_days_day` ON `document_days` (`project_id`,`day`);--> statement-breakpoint
CREATE TABLE `event_assessments` (
	`project_id` text NOT NULL,
	`event_id` text NOT NULL,
	`trace_id` text NOT NULL,
	`attributed_trace_id` text NOT NULL,
	`confidence` real NOT NULL,
	`rules` text NOT NULL,
	`attribution` text,
	`assessed_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `event_assessments_attributed` ON `event_assessments` (`project_id`,`attributed_trace_id`);--> statement-breakpoint
CREATE TABLE `loop_runs` (
	`project_id` text NOT NULL,
	`night` text NOT NULL,
	`status` text NOT NULL,
	`stage` integer NOT NULL,
	`cursor` text,
	`window_from` integer NOT NULL,
	`window_to` integer NOT NULL,
	`state` text NOT NULL,
	`stages` text NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	PRIMARY KEY(`project_id`, `night`)
);
--> statement-breakpoint
CREATE TABLE `loop_settings` (
	`project_id` text PRIMARY KEY NOT NULL,
	`settings` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `loop_touched` (
	`project_id` text NOT NULL,
	`night` text NOT NULL,
	`kind` text NOT NULL,
	`key` text NOT NULL,
	PRIMARY KEY(`project_id`, `night`, `kind`, `key`)
);
--> statement-breakpoint
CREATE TABLE `session_stats` (
	`project_id` text NOT NULL,
	`session_id` text NOT NULL,
	`user_id_hash` text,
	`traces` integer NOT NULL,
	`scored` integer NOT NULL,
	`negative` integer NOT NULL,
	`requeried` integer NOT NULL,
	`first_at` integer NOT NULL,
	`last_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `session_id`)
);
--> statement-breakpoint
CREATE INDEX `session_stats_last` ON `session_stats` (`project_id`,`last_at`);--> statement-breakpoint
CREATE TABLE `trace_stats` (
	`project_id` text NOT NULL,
	`trace_id` text NOT NULL,
	`query_key` text NOT NULL,
	`created_at` integer NOT NULL,
	`knowledge_base` text,
	`intent` text,
	`model` text,
	`score` real,
	`weighted_score` real,
	`live_signals` integer NOT NULL,
	`explicit_signals` integer NOT NULL,
	`implicit_signals` integer NOT NULL,
	`trusted_signals` integer NOT NULL,
	`confidence` real,
	`requeried` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `trace_id`)
);
--> statement-breakpoint
CREATE INDEX `trace_stats_score` ON `trace_stats` (`project_id`,`weighted_score`);--> statement-breakpoint
CREATE INDEX `trace_stats_query` ON `trace_stats` (`project_id`,`query_key`);--> statement-breakpoint
CREATE INDEX `trace_stats_created` ON `trace_stats` (`project_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `corrections` (
	`project_id` text NOT NULL,
	`event_id` text NOT NULL,
	`trace_id` text NOT NULL,
	`query` text NOT NULL,
	`text` text NOT NULL,
	`source` text,
	`source_doc_id` text,
	`confidence` real NOT NULL,
	`status` text NOT NULL,
	`note` text,
	`resolved_at` integer,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `corrections_status` ON `corrections` (`project_id`,`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `document_flags` (
	`project_id` text NOT NULL,
	`source_doc_id` text NOT NULL,
	`source_doc_version` text NOT NULL,
	`reasons` text NOT NULL,
	`counts` text NOT NULL,
	`negative_p` real,
	`requery_p` real,
	`evidence` text NOT NULL,
	`first_flagged` text NOT NULL,
	`last_flagged` text NOT NULL,
	PRIMARY KEY(`project_id`, `source_doc_id`, `source_doc_version`)
);
--> statement-breakpoint
CREATE TABLE `document_owners` (
	`project_id` text NOT NULL,
	`position` integer NOT NULL,
	`pattern` text NOT NULL,
	`owner` text NOT NULL,
	PRIMARY KEY(`project_id`, `position`)
);
--> statement-breakpoint
CREATE TABLE `mining_thresholds` (
	`project_id` text NOT NULL,
	`at` integer NOT NULL,
	`from_value` real NOT NULL,
	`to_value` real NOT NULL,
	`reason` text NOT NULL,
	PRIMARY KEY(`project_id`, `at`)
);
--> statement-breakpoint
CREATE TABLE `review_item_traces` (
	`project_id` text NOT NULL,
	`item_id` text NOT NULL,
	`trace_id` text NOT NULL,
	`candidate` text NOT NULL,
	`weight` real NOT NULL,
	`evidence` text NOT NULL,
	`rank` integer NOT NULL,
	`score` real NOT NULL,
	`guess` text NOT NULL,
	`guess_why` text NOT NULL,
	`mined_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `item_id`, `trace_id`)
);
--> statement-breakpoint
CREATE INDEX `review_item_traces_trace` ON `review_item_traces` (`project_id`,`trace_id`);--> statement-breakpoint
CREATE TABLE `review_items` (
	`project_id` text NOT NULL,
	`item_id` text NOT NULL,
	`query_key` text NOT NULL,
	`query` text NOT NULL,
	`chunk_id` text NOT NULL,
	`source_doc_id` text NOT NULL,
	`source_doc_version` text,
	`chunk_text` text NOT NULL,
	`rank` integer NOT NULL,
	`score` real NOT NULL,
	`candidate` text NOT NULL,
	`guess` text NOT NULL,
	`guess_why` text NOT NULL,
	`evidence` text NOT NULL,
	`trace_count` integer NOT NULL,
	`weight` real NOT NULL,
	`expected_value` real NOT NULL,
	`status` text NOT NULL,
	`verdict` text,
	`note` text,
	`answered_at` integer,
	`mined_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `item_id`)
);
--> statement-breakpoint
CREATE INDEX `review_items_queue` ON `review_items` (`project_id`,`status`,`expected_value`);--> statement-breakpoint
CREATE INDEX `review_items_answered` ON `review_items` (`project_id`,`answered_at`);--> statement-breakpoint
CREATE TABLE `eval_items` (
	`project_id` text NOT NULL,
	`layer` text NOT NULL,
	`version` text NOT NULL,
	`position` integer NOT NULL,
	`query` text NOT NULL,
	`query_key` text NOT NULL,
	`trace_id` text NOT NULL,
	`judgements` text NOT NULL,
	`source` text NOT NULL,
	PRIMARY KEY(`project_id`, `layer`, `version`, `position`)
);
--> statement-breakpoint
CREATE INDEX `eval_items_trace` ON `eval_items` (`project_id`,`trace_id`);--> statement-breakpoint
CREATE TABLE `eval_sets` (
	`project_id` text NOT NULL,
	`layer` text NOT NULL,
	`version` text NOT NULL,
	`items` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `layer`, `version`)
);
--> statement-breakpoint
CREATE TABLE `health_snapshots` (
	`project_id` text NOT NULL,
	`day` text NOT NULL,
	`metrics` text NOT NULL,
	PRIMARY KEY(`project_id`, `day`)
);
--> statement-breakpoint
CREATE INDEX `traces_received` ON `traces` (`project_id`,`received_at`);
