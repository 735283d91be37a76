-- A question's running totals go with its last scored answer: a query key no stored trace holds any more (erased, purged or rescored) is not kept.
DROP TRIGGER `trace_stats_scores_update`;--> statement-breakpoint
DROP TRIGGER `trace_stats_scores_delete`;--> statement-breakpoint
CREATE TRIGGER `trace_stats_scores_update` AFTER UPDATE OF `query_key`, `weighted_score` ON `trace_stats`
  WHEN OLD.`query_key` IS NOT NEW.`query_key` OR OLD.`weighted_score` IS NOT NEW.`weighted_score` BEGIN
  UPDATE `query_scores` SET `traces` = `traces` - 1, `total` = `total` - OLD.`weighted_score`
    WHERE OLD.`weighted_score` IS NOT NULL AND `project_id` = OLD.`project_id` AND `query_key` = OLD.`query_key`;
  DELETE FROM `query_scores` WHERE `project_id` = OLD.`project_id` AND `query_key` = OLD.`query_key` AND `traces` <= 0;
  INSERT INTO `query_scores` (`project_id`, `query_key`, `traces`, `total`) SELECT NEW.`project_id`, NEW.`query_key`, 1, NEW.`weighted_score` WHERE NEW.`weighted_score` IS NOT NULL
    ON CONFLICT (`project_id`, `query_key`) DO UPDATE SET `traces` = `traces` + 1, `total` = `total` + excluded.`total`;
END;--> statement-breakpoint
CREATE TRIGGER `trace_stats_scores_delete` AFTER DELETE ON `trace_stats` WHEN OLD.`weighted_score` IS NOT NULL BEGIN
  UPDATE `query_scores` SET `traces` = `traces` - 1, `total` = `total` - OLD.`weighted_score` WHERE `project_id` = OLD.`project_id` AND `query_key` = OLD.`query_key`;
  DELETE FROM `query_scores` WHERE `project_id` = OLD.`project_id` AND `query_key` = OLD.`query_key` AND `traces` <= 0;
END;--> statement-breakpoint
DELETE FROM `query_scores` WHERE `traces` <= 0;
