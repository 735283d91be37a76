-- The nightly job orders a session's turns by turn and time from this index (jobs/stages/assess.ts):
-- a long session costs index entries and a lookup of each id, not its rows' answers.
DROP INDEX `traces_session`;--> statement-breakpoint
CREATE INDEX `traces_session` ON `traces` (`project_id`,`session_id`,`turn_index`,`created_at`);