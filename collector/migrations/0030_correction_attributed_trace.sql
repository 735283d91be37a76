-- The answer a correction is about when the multi-turn attribution moved it off the one it was sent
-- on (an earlier turn): the inbox lists it with that answer's question and trace (jobs/stages/corrections.ts).
ALTER TABLE `corrections` ADD `attributed_trace_id` text;--> statement-breakpoint
-- Those already in the inbox, as their events' verdicts stand (the night that routed them wrote them).
UPDATE `corrections` SET `attributed_trace_id` = a.attributed_trace_id
FROM `event_assessments` a
WHERE a.project_id = `corrections`.project_id AND a.event_id = `corrections`.event_id AND a.attributed_trace_id <> `corrections`.trace_id;
