-- When each model's training read the reviewers' answers, by the real clock they are stamped by:
-- its night (`created_at`) may be days ahead of it under `POST /v1/admin/nightly?at=`. Models
-- stored before are taken to have read them at their night, or now if that is still to come.
ALTER TABLE `models` ADD `data_read_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `models` SET `data_read_at` = min(`created_at`, cast(unixepoch('subsec') * 1000 as integer));
