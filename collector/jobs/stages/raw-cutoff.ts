import { DAY_MS, utcDay } from '../../../shared/time.ts';

/**
 * Before when raw rows are past the project's retention at `now`: the start of a UTC day, as raw
 * rows go (and are archived) in whole days of arrival.
 */
export const rawCutoff = (now: number, retentionDays: number) => Date.parse(`${utcDay(now - retentionDays * DAY_MS)}T00:00:00Z`);
