import type { FeedbackEvent } from './schema/event.ts';
import { SIGNALS } from './signals.ts';
import { FOCUSED_DWELL_MS, REGENERATE_WINDOW_MS } from './thresholds.ts';

/** Whether a citation dwell of `ms` was focused reading rather than a glance (detail as stored or sent). */
export const isFocusedDwell = (ms: unknown): boolean => Number(ms) >= FOCUSED_DWELL_MS;

/**
 * The value an event contributes to its trace's score: its signal's fixed value, or for the
 * few signals whose value depends on their detail, the one of its `values` the detail selects.
 */
export function signalValue(event: FeedbackEvent): number | null {
  switch (event.signalType) {
    case 'rating':
      return (event.detail.stars - 3) / 2;
    case 'citation_dwell':
      return isFocusedDwell(event.detail.ms) ? SIGNALS.citation_dwell.values.focused : SIGNALS.citation_dwell.values.glance;
    case 'regenerate':
      return event.detail.gapMs <= REGENERATE_WINDOW_MS ? SIGNALS.regenerate.value : SIGNALS.regenerate.values.late;
    case 'prompt_answered':
      return event.detail.answer === 'yes' || event.detail.answer === 'no' ? SIGNALS.prompt_answered.values[event.detail.answer] : null;
    default:
      return SIGNALS[event.signalType].value;
  }
}
