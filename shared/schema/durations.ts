import { DAY_MS } from '../time.ts';

/**
 * The event detail fields that hold a duration in milliseconds, and the longest the collector
 * takes: a whole number up to a day (a tab left open over a weekend still says "a day or more").
 * Apart from the event schema so the widget reads it without the validator; a test holds the two together.
 */
export const DURATION_FIELDS: readonly string[] = ['ms', 'gapMs'];
export const MAX_DURATION_MS = DAY_MS;
