-- The eval sets label a held-out question from its answers' explicit feedback and the engagement
-- on answers that have some: only answers with explicit signals can give a label, so they are
-- read on their own index, which covers what the labels need, instead of every answer of the
-- question with its row.
CREATE INDEX `trace_stats_explicit` ON `trace_stats` (`project_id`,`query_key`,`trace_id`,`weighted_score`,`explicit_signals`) WHERE "trace_stats"."explicit_signals" > 0;
