import { FOCUSED_DWELL_MS } from '../../../shared/thresholds.ts';
import { LOW_CONFIDENCE } from '../../loop/noise.ts';
import { EVENT_CHUNK, JOIN_VERDICT, NAMES_CHUNK, VERDICT } from './verdict.ts';

const TRUSTED = `e.superseded = 0 and ${VERDICT.confidence} >= ${LOW_CONFIDENCE}`;
const SCORED = `${TRUSTED} and e.signal_value is not null`;

/**
 * What events `e` (joined to their verdicts) add to the signal counts of the chunk they name, as
 * SQL aggregates by name: the stored events' counts, and what retention keeps of purged ones
 * (`purged_*` in `chunk_stats`). The weighted score is kept as its sum and weight, which add up.
 */
export const CHUNK_SIGNALS = {
  clicks: `count(case when e.signal_type = 'citation_click' and ${TRUSTED} then 1 end)`,
  focused_dwells: `count(case when e.signal_type = 'citation_dwell' and json_extract(e.detail, '$.ms') >= ${FOCUSED_DWELL_MS} and ${TRUSTED} then 1 end)`,
  dwell_ms: `coalesce(sum(case when e.signal_type = 'citation_dwell' then json_extract(e.detail, '$.ms') end), 0)`,
  copies: `count(case when e.signal_type = 'copy_source' and ${TRUSTED} then 1 end)`,
  wrong_source_flags: `count(case when e.signal_type = 'wrong_source' and ${TRUSTED} then 1 end)`,
  score_sum: `coalesce(sum(case when ${SCORED} then e.signal_value * ${VERDICT.confidence} end), 0)`,
  score_weight: `coalesce(sum(case when ${SCORED} then ${VERDICT.confidence} end), 0)`,
} as const;

/** CHUNK_SIGNALS as a select list, each aggregate named after its key. */
export const CHUNK_SIGNAL_COLUMNS = Object.entries(CHUNK_SIGNALS)
  .map(([name, sql]) => `${sql} as ${name}`)
  .join(', ');

/**
 * Keeps what the events `eventIds` lists (SQL selecting `event_id`, with the project as ?1) add to
 * the signal counts of the chunks they name, in those chunks' `purged_*` counts: for retention,
 * before it purges them. The events are read from the list, never the project's events tested
 * against it.
 */
export const keepPurgedChunkSignalsSql = (eventIds: string) =>
  `update chunk_stats set ${Object.keys(CHUNK_SIGNALS)
    .map((name) => `purged_${name} = purged_${name} + p.${name}`)
    .join(', ')}
   from (
     select ${EVENT_CHUNK} as chunk_id, ${CHUNK_SIGNAL_COLUMNS}
     from (${eventIds}) o cross join feedback_events e on e.project_id = ?1 and e.event_id = o.event_id ${JOIN_VERDICT}
     where ${NAMES_CHUNK}
     group by ${EVENT_CHUNK}
   ) p
   where chunk_stats.project_id = ?1 and chunk_stats.chunk_id = p.chunk_id`;
