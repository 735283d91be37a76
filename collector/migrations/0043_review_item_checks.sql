-- The waiting review items retention must look at, listed as it purges their answers, instead of
-- every waiting item looked up each night (seconds at volume, growing with the queue). Every item
-- waiting now is listed once here, so the first run after this migration looks at all of them.
CREATE TABLE `review_item_checks` (
	`project_id` text NOT NULL,
	`item_id` text NOT NULL,
	PRIMARY KEY(`project_id`, `item_id`)
);--> statement-breakpoint
INSERT INTO `review_item_checks` (`project_id`, `item_id`) SELECT `project_id`, `item_id` FROM `review_items` WHERE `status` IN ('pending', 'held');
