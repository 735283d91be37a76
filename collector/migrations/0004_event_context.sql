ALTER TABLE `feedback_events` ADD `shown_ms` integer;--> statement-breakpoint
ALTER TABLE `feedback_events` ADD `ip_hash` text;