-- What a day's purged answers counted, per day and per document, so a day is counted again from its
-- stored answers plus these (an answer imported after its day's others were purged adds to them).
ALTER TABLE `day_stats` ADD `purged_traces` integer DEFAULT 0;--> statement-breakpoint
ALTER TABLE `day_stats` ADD `purged_with_signals` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `day_stats` ADD `purged_with_trusted` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `day_stats` ADD `purged_explicit_signals` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `day_stats` ADD `purged_implicit_signals` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `day_stats` ADD `purged_signals` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `day_stats` ADD `purged_trusted_signals` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `day_stats` ADD `purged_negative` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `day_stats` ADD `purged_requeried` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `document_days` ADD `purged_traces` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `document_days` ADD `purged_scored` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `document_days` ADD `purged_negative` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `document_days` ADD `purged_positive` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `document_days` ADD `purged_requeried` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Days retention reached before these were kept, left with no stored answer: all they counted was purged.
UPDATE `document_days` SET `purged_traces` = `traces`, `purged_scored` = `scored`, `purged_negative` = `negative`,
  `purged_positive` = `positive`, `purged_requeried` = `requeried`
WHERE unixepoch(`day`) * 1000 < (SELECT coalesce(max(r.state ->> '$.purgedBefore'), 0) FROM loop_runs r WHERE r.project_id = document_days.project_id)
  AND NOT EXISTS (SELECT 1 FROM traces t WHERE t.project_id = document_days.project_id
    AND t.created_at >= unixepoch(document_days.day) * 1000 AND t.created_at < (unixepoch(document_days.day) + 86400) * 1000);--> statement-breakpoint
UPDATE `day_stats` SET `purged_traces` = `traces`, `purged_with_signals` = `with_signals`, `purged_with_trusted` = `with_trusted`,
  `purged_explicit_signals` = `explicit_signals`, `purged_implicit_signals` = `implicit_signals`, `purged_signals` = `signals`,
  `purged_trusted_signals` = `trusted_signals`, `purged_negative` = `negative`, `purged_requeried` = `requeried`
WHERE unixepoch(`day`) * 1000 < (SELECT coalesce(max(r.state ->> '$.purgedBefore'), 0) FROM loop_runs r WHERE r.project_id = day_stats.project_id)
  AND NOT EXISTS (SELECT 1 FROM traces t WHERE t.project_id = day_stats.project_id
    AND t.created_at >= unixepoch(day_stats.day) * 1000 AND t.created_at < (unixepoch(day_stats.day) + 86400) * 1000);--> statement-breakpoint
-- Of those days, ones still holding an answer cannot tell what it counted from what was purged: they stay as counted (null).
UPDATE `day_stats` SET `purged_traces` = NULL
WHERE unixepoch(`day`) * 1000 < (SELECT coalesce(max(r.state ->> '$.purgedBefore'), 0) FROM loop_runs r WHERE r.project_id = day_stats.project_id)
  AND EXISTS (SELECT 1 FROM traces t WHERE t.project_id = day_stats.project_id
    AND t.created_at >= unixepoch(day_stats.day) * 1000 AND t.created_at < (unixepoch(day_stats.day) + 86400) * 1000);