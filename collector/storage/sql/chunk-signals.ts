import { LOW_CONFIDENCE } from '../../loop/noise.ts';
import { focusedDwellSql } from './focused-dwell.ts';
import { utcDaySql } from './utc-day.ts';
import { EVENT_CHUNK, VERDICT } from './verdict.ts';

const TRUSTED = `e.superseded = 0 and ${VERDICT.confidence} >= ${LOW_CONFIDENCE}`;
const SCORED = `${TRUSTED} and e.signal_value is not null`;

/**
 * What events `e` (joined to their verdicts) add to the signal counts of the chunk they name, as
 * SQL aggregates by name, the columns of `chunk_signal_days`. The weighted score is kept as its sum
 * and weight, which add up over days.
 */
export const CHUNK_SIGNALS = {
  clicks: `count(case when e.signal_type = 'citation_click' and ${TRUSTED} then 1 end)`,
  focused_dwells: `count(case when e.signal_type = 'citation_dwell' and ${focusedDwellSql()} and ${TRUSTED} then 1 end)`,
  // The time spent on it, every dwell's (glances and untrusted ones too): context that nothing scores, mines or trains on, unlike the counts beside it.
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

/** Between a chunk id and a day in the keys of a run's `chunk_day` list: below any character of an id. */
const SEPARATOR = 'char(1)';

/** The key of the chunk day event `e` falls on (the chunk it names, the day it arrived), as SQL. */
export const CHUNK_DAY_KEY = `${EVENT_CHUNK} || ${SEPARATOR} || ${utcDaySql('e.received_at')}`;

/** The chunk ids and days of the keys `keys` selects (SQL), as `chunk_id` and `day`: a day is the last ten characters. */
export const chunkDaysOf = (keys: string) => `select substr(key, 1, length(key) - 11) as chunk_id, substr(key, -10) as day from (${keys})`;
