import { DAY_MS, utcDay } from '../../../shared/time.ts';

/**
 * Before when raw rows are past the project's retention at `now`: the start of a UTC day, as raw
 * rows go (and are archived) in whole days of arrival.
 */
export const rawCutoff = (now: number, retentionDays: number) => Date.parse(`${utcDay(now - retentionDays * DAY_MS)}T00:00:00Z`);

/**
 * The first UTC day whose aggregates (per day, per document) are kept at `now`: retention deletes
 * the days before it, so an answer made before it would be counted and purged at once.
 */
export const firstKeptAggregateDay = (now: number, aggregateRetentionDays: number) => utcDay(now - aggregateRetentionDays * DAY_MS);

/**
 * The first UTC day an answer arriving at `now` may have been made on: the first the next night's
 * run keeps. The job counts an answer in the first run after it arrives, which is the next night's
 * once tonight's has counted its days: made a day earlier, it would be counted and purged in that run.
 */
export const firstCountedDay = (now: number, aggregateRetentionDays: number) => firstKeptAggregateDay(now + DAY_MS, aggregateRetentionDays);
