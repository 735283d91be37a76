-- Dead letters kept before erasure took their users' events out of them, or before a letter was
-- kept without the events about answers erased already (erased_traces), may still hold what an
-- erased user typed. Taken out as an erasure takes them (collector/storage/dead-letter-erasure.ts):
-- a letter left with none goes, its drop report kept as its write would have kept it; another
-- keeps its other events in their order.
INSERT INTO `client_drop_reports` (`project_id`, `event_id`, `day`, `dropped`)
SELECT `project_id`, coalesce(`message` ->> '$.firstEventId', `message` ->> '$.rows[0].eventId'), strftime('%Y-%m-%d', 'now'), `message` ->> '$.dropped'
FROM `dead_letters`
WHERE `message` ->> '$.dropped' > 0
  AND EXISTS (SELECT 1 FROM json_each(`dead_letters`.`message`, '$.rows') r
    WHERE EXISTS (SELECT 1 FROM `erased_traces` x WHERE x.`project_id` = `dead_letters`.`project_id` AND x.`trace_id` = r.value ->> 'traceId'))
  AND NOT EXISTS (SELECT 1 FROM json_each(`dead_letters`.`message`, '$.rows') r
    WHERE NOT EXISTS (SELECT 1 FROM `erased_traces` x WHERE x.`project_id` = `dead_letters`.`project_id` AND x.`trace_id` = r.value ->> 'traceId'))
ON CONFLICT (`project_id`, `event_id`) DO UPDATE SET `dropped` = max(`dropped`, excluded.`dropped`);
--> statement-breakpoint
DELETE FROM `dead_letters`
WHERE EXISTS (SELECT 1 FROM json_each(`dead_letters`.`message`, '$.rows') r
    WHERE EXISTS (SELECT 1 FROM `erased_traces` x WHERE x.`project_id` = `dead_letters`.`project_id` AND x.`trace_id` = r.value ->> 'traceId'))
  AND NOT EXISTS (SELECT 1 FROM json_each(`dead_letters`.`message`, '$.rows') r
    WHERE NOT EXISTS (SELECT 1 FROM `erased_traces` x WHERE x.`project_id` = `dead_letters`.`project_id` AND x.`trace_id` = r.value ->> 'traceId'));
--> statement-breakpoint
UPDATE `dead_letters` SET `message` = json_set(`message`, '$.rows',
  (SELECT json_group_array(json(r.value) ORDER BY r.key) FROM json_each(`dead_letters`.`message`, '$.rows') r
    WHERE NOT EXISTS (SELECT 1 FROM `erased_traces` x WHERE x.`project_id` = `dead_letters`.`project_id` AND x.`trace_id` = r.value ->> 'traceId')))
WHERE EXISTS (SELECT 1 FROM json_each(`dead_letters`.`message`, '$.rows') r
  WHERE EXISTS (SELECT 1 FROM `erased_traces` x WHERE x.`project_id` = `dead_letters`.`project_id` AND x.`trace_id` = r.value ->> 'traceId'));
