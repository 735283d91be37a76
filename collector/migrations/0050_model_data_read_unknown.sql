-- Whether a model was recorded without when its training read the reviewers' answers: its
-- data_read_at then holds the read of the models before it (0 for a project's first), which
-- retraining goes by, but which loop health must not take for what the model saw. Models stored
-- before are taken as such when they hold 0, or the read of a model recorded before them: each
-- training reads at its own moment, so only a model sent without its read shares another's.
ALTER TABLE `models` ADD `data_read_unknown` integer DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE `models` SET `data_read_unknown` = true
WHERE `data_read_at` = 0
  OR EXISTS (SELECT 1 FROM `models` m WHERE m.`project_id` = `models`.`project_id` AND m.`data_read_at` = `models`.`data_read_at` AND m.rowid < `models`.rowid);
