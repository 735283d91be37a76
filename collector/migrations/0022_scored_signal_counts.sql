-- A trace's signal counts (live, explicit, implicit) and a day's (answers with signals, signals,
-- explicit, implicit) now count scored signals only: context (answer dwell, web vitals, a prompt
-- shown) and what only explains another signal (a thumbs-down's reason, a vote cleared) had made
-- nearly every answer shown count as covered. Counted again here from the stored events with their
-- verdicts, as far as a run has assessed them (collector/storage/sql/verdict.ts); a day retention has
-- reached keeps its count, and health snapshots already taken keep theirs.
UPDATE `trace_stats` SET `live_signals` = 0, `explicit_signals` = 0, `implicit_signals` = 0;--> statement-breakpoint
UPDATE `trace_stats` SET `live_signals` = c.scored, `explicit_signals` = c.explicit, `implicit_signals` = c.implicit
FROM (
  SELECT project_id, trace_id, count(*) AS scored,
    count(CASE WHEN signal_type IN ('thumbs_up', 'thumbs_down', 'vote_cleared', 'rating', 'attribution', 'correction', 'wrong_source', 'prompt_answered') THEN 1 END) AS explicit,
    count(CASE WHEN signal_type IN ('citation_click', 'citation_dwell', 'copy_answer', 'copy_source', 'answer_dwell', 'rephrase_within_session', 'regenerate', 'bounce') THEN 1 END) AS implicit
  FROM (
    -- Each trace's own events that stay with it: no verdict row (assessed once a run covered its arrival), or one keeping it there.
    SELECT e.project_id, e.trace_id, e.signal_type FROM `feedback_events` e
      JOIN (
        SELECT project_id, max(window_to) AS assessed FROM `loop_runs` WHERE status = 'done' OR state ->> '$.assessed' GROUP BY project_id
      ) r ON r.project_id = e.project_id
      LEFT JOIN `event_assessments` a ON a.project_id = e.project_id AND a.event_id = e.event_id
      WHERE e.superseded = 0 AND e.signal_value IS NOT NULL
        AND (a.event_id IS NULL AND e.received_at <= r.assessed OR a.attributed_trace_id = a.trace_id)
    UNION ALL
    -- Other traces' events attributed to it.
    SELECT a.project_id, a.attributed_trace_id, e.signal_type FROM `event_assessments` a
      JOIN `feedback_events` e ON e.project_id = a.project_id AND e.event_id = a.event_id
      WHERE a.attributed_trace_id <> a.trace_id AND e.superseded = 0 AND e.signal_value IS NOT NULL
  )
  GROUP BY project_id, trace_id
) c
WHERE `trace_stats`.project_id = c.project_id AND `trace_stats`.trace_id = c.trace_id;--> statement-breakpoint
UPDATE `day_stats` SET `with_signals` = c.with_signals, `signals` = c.signals, `explicit_signals` = c.explicit, `implicit_signals` = c.implicit
FROM (
  SELECT t.project_id, strftime('%Y-%m-%d', t.created_at / 1000, 'unixepoch') AS day, count(*) AS traces,
    count(CASE WHEN s.live_signals > 0 THEN 1 END) AS with_signals, coalesce(sum(s.live_signals), 0) AS signals,
    coalesce(sum(s.explicit_signals), 0) AS explicit, coalesce(sum(s.implicit_signals), 0) AS implicit
  FROM `traces` t LEFT JOIN `trace_stats` s ON s.project_id = t.project_id AND s.trace_id = t.trace_id
  GROUP BY 1, 2
) c
-- Only days whose answers are all still stored.
WHERE `day_stats`.project_id = c.project_id AND `day_stats`.day = c.day AND `day_stats`.traces = c.traces;--> statement-breakpoint
-- Corrections already in the inbox are dated as the corrections stage now dates them: by the browser's
-- clock held between the answer and the arrival, so one from a clock running ahead no longer stays on top.
UPDATE `corrections` SET `created_at` = min(e.received_at, max(e.client_ts, t.created_at))
FROM `feedback_events` e JOIN `traces` t ON t.project_id = e.project_id AND t.trace_id = e.trace_id
WHERE e.project_id = `corrections`.project_id AND e.event_id = `corrections`.event_id;
