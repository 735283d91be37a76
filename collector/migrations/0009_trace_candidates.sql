-- Review items keep running sums of what their traces contributed, and each mined trace's contribution is one row (collector/storage/review-aggregates.ts) instead of a row per item and trace.
CREATE TABLE `trace_candidates` (
	`project_id` text NOT NULL,
	`trace_id` text NOT NULL,
	`candidates` text NOT NULL,
	`mined_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `trace_id`)
);
--> statement-breakpoint
INSERT INTO `trace_candidates` (`project_id`, `trace_id`, `candidates`, `mined_at`)
SELECT `project_id`, `trace_id`,
  json_group_array(json_object('itemId', `item_id`, 'candidate', `candidate`, 'weight', `weight`, 'evidence', json(`evidence`), 'rank', `rank`,
    'score', `score`, 'guess', `guess`, 'guessWhy', `guess_why`) ORDER BY `item_id`),
  min(`mined_at`)
FROM `review_item_traces` GROUP BY `project_id`, `trace_id`;--> statement-breakpoint
ALTER TABLE `review_items` ADD `weight_total` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `review_items` ADD `direction` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `review_items` ADD `ranks` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `review_items` ADD `strongest` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `review_items` ADD `strongest_cut` text;--> statement-breakpoint
-- The sums from every row (weights in millionths, as the job adds them), the 20 strongest traces (STRONGEST_KEPT) and, past them, the first one left out.
UPDATE `review_items` SET
  `weight_total` = (SELECT sum(CAST(round(r.`weight` * 1000000) AS integer)) FROM `review_item_traces` r
    WHERE r.`project_id` = `review_items`.`project_id` AND r.`item_id` = `review_items`.`item_id`),
  `direction` = (SELECT sum(CASE r.`candidate` WHEN 'positive' THEN 1 ELSE -1 END * CAST(round(r.`weight` * 1000000) AS integer)) FROM `review_item_traces` r
    WHERE r.`project_id` = `review_items`.`project_id` AND r.`item_id` = `review_items`.`item_id`),
  `ranks` = (SELECT json_group_object(g.`rank`, g.n) FROM (SELECT r.`rank`, count(*) AS n FROM `review_item_traces` r
    WHERE r.`project_id` = `review_items`.`project_id` AND r.`item_id` = `review_items`.`item_id` GROUP BY r.`rank`) g),
  `strongest` = (SELECT json_group_array(json_object('traceId', s.`trace_id`, 'candidate', s.`candidate`, 'weight', s.`weight`, 'evidence', json(s.`evidence`),
      'rank', s.`rank`, 'score', s.`score`, 'guess', s.`guess`, 'guessWhy', s.`guess_why`) ORDER BY s.`weight` DESC, s.`trace_id`)
    FROM (SELECT * FROM `review_item_traces` r WHERE r.`project_id` = `review_items`.`project_id` AND r.`item_id` = `review_items`.`item_id`
      ORDER BY r.`weight` DESC, r.`trace_id` LIMIT 20) s),
  `strongest_cut` = (SELECT json_object('weight', r.`weight`, 'traceId', r.`trace_id`) FROM `review_item_traces` r
    WHERE r.`project_id` = `review_items`.`project_id` AND r.`item_id` = `review_items`.`item_id` ORDER BY r.`weight` DESC, r.`trace_id` LIMIT 1 OFFSET 20)
WHERE EXISTS (SELECT 1 FROM `review_item_traces` r WHERE r.`project_id` = `review_items`.`project_id` AND r.`item_id` = `review_items`.`item_id`);--> statement-breakpoint
DROP TABLE `review_item_traces`;--> statement-breakpoint
-- A row per item and trace for the readers that look an item up by trace (the trace view) or need every trace of an item (the training export).
-- DISTINCT (the rows are distinct anyway) keeps SQLite from flattening the view into a join, where it would read every item of the project for each
-- trace instead of the trace's row first: the view's filters are pushed down into it instead.
CREATE VIEW `review_item_traces` AS
SELECT DISTINCT c.`project_id`, j.value ->> 'itemId' AS `item_id`, c.`trace_id`, j.value ->> 'candidate' AS `candidate`, j.value ->> 'weight' AS `weight`,
  j.value -> 'evidence' AS `evidence`, j.value ->> 'rank' AS `rank`, j.value ->> 'score' AS `score`, j.value ->> 'guess' AS `guess`,
  j.value ->> 'guessWhy' AS `guess_why`, c.`mined_at`
FROM `trace_candidates` c, json_each(c.`candidates`) j;
