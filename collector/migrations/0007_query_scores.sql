CREATE TABLE `query_scores` (
	`project_id` text NOT NULL,
	`query_key` text NOT NULL,
	`traces` integer NOT NULL,
	`total` real NOT NULL,
	PRIMARY KEY(`project_id`, `query_key`)
);
--> statement-breakpoint
CREATE INDEX `event_assessments_moved` ON `event_assessments` (`project_id`,`attributed_trace_id`) WHERE "event_assessments"."attributed_trace_id" <> "event_assessments"."trace_id";--> statement-breakpoint
-- A query's history as running totals (collector/jobs/stages/assess.ts): the scored traces of each key, kept in step with trace_stats by the triggers below.
INSERT INTO `query_scores` (`project_id`, `query_key`, `traces`, `total`) SELECT `project_id`, `query_key`, count(*), sum(`weighted_score`) FROM `trace_stats` WHERE `weighted_score` IS NOT NULL GROUP BY `project_id`, `query_key`;--> statement-breakpoint
CREATE TRIGGER `trace_stats_scores_insert` AFTER INSERT ON `trace_stats` WHEN NEW.`weighted_score` IS NOT NULL BEGIN
  INSERT INTO `query_scores` (`project_id`, `query_key`, `traces`, `total`) VALUES (NEW.`project_id`, NEW.`query_key`, 1, NEW.`weighted_score`)
    ON CONFLICT (`project_id`, `query_key`) DO UPDATE SET `traces` = `traces` + 1, `total` = `total` + excluded.`total`;
END;--> statement-breakpoint
CREATE TRIGGER `trace_stats_scores_update` AFTER UPDATE OF `query_key`, `weighted_score` ON `trace_stats`
  WHEN OLD.`query_key` IS NOT NEW.`query_key` OR OLD.`weighted_score` IS NOT NEW.`weighted_score` BEGIN
  UPDATE `query_scores` SET `traces` = `traces` - 1, `total` = `total` - OLD.`weighted_score`
    WHERE OLD.`weighted_score` IS NOT NULL AND `project_id` = OLD.`project_id` AND `query_key` = OLD.`query_key`;
  INSERT INTO `query_scores` (`project_id`, `query_key`, `traces`, `total`) SELECT NEW.`project_id`, NEW.`query_key`, 1, NEW.`weighted_score` WHERE NEW.`weighted_score` IS NOT NULL
    ON CONFLICT (`project_id`, `query_key`) DO UPDATE SET `traces` = `traces` + 1, `total` = `total` + excluded.`total`;
END;--> statement-breakpoint
CREATE TRIGGER `trace_stats_scores_delete` AFTER DELETE ON `trace_stats` WHEN OLD.`weighted_score` IS NOT NULL BEGIN
  UPDATE `query_scores` SET `traces` = `traces` - 1, `total` = `total` - OLD.`weighted_score` WHERE `project_id` = OLD.`project_id` AND `query_key` = OLD.`query_key`;
END;
