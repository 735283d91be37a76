-- An answer citing several versions of a document at once (during a re-index) was counted in each
-- version's row, so more than once in the document's counts. Now each answer is counted once per
-- document, in the row of all the versions it cited (a JSON array); a row of one version is an
-- array of one.
ALTER TABLE `document_days` RENAME COLUMN `source_doc_version` TO `source_doc_versions`;--> statement-breakpoint
UPDATE `document_days` SET `source_doc_versions` = json_array(`source_doc_versions`);--> statement-breakpoint
-- The days documents are judged over are counted again by the next run, where their answers are
-- still stored, as a day without its list of worst answers is.
UPDATE `document_days` SET `worst` = null WHERE `day` >= strftime('%Y-%m-%d', 'now', '-35 days');
