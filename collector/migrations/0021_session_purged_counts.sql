-- What a session's purged answers counted, so a session that goes on past the raw rows' retention
-- is counted again from its stored answers plus these instead of shrinking to them.
ALTER TABLE `session_stats` ADD `purged_traces` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `session_stats` ADD `purged_scored` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `session_stats` ADD `purged_negative` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `session_stats` ADD `purged_requeried` integer DEFAULT 0 NOT NULL;