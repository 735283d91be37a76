-- An answer was counted for every document its chunk rows named, those retrieval returned and the
-- reranker dropped too. Now it counts for the documents the model saw (the reranked chunks when a
-- reranker ran). The days documents are judged over are counted again by the next run, where their
-- answers are still stored, as a day without its list of worst answers is.
UPDATE `document_days` SET `worst` = null WHERE `day` >= strftime('%Y-%m-%d', 'now', '-35 days');
