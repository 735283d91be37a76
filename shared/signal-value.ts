import type { FeedbackEvent } from './schema/event.ts';
import { SIGNALS } from './signals.ts';
import { FOCUSED_DWELL_MS, REGENERATE_WINDOW_MS } from './thresholds.ts';

/** Later regenerates still reject the answer, with less certainty than one within the window. */
const LATE_REGENERATE_VALUE = -0.3;
/** Focused reading of a cited source confirms the citation was useful. */
const FOCUSED_DWELL_VALUE = 0.3;
/** A yes/no answer to a "was this helpful?" prompt: explicit but nudged. */
const PROMPT_ANSWER_VALUE = 0.5;

/**
 * The value an event contributes to its trace's score, from the one table in `signals.ts`;
 * the few signals whose value depends on their detail are computed here and documented there.
 */
export function signalValue(event: FeedbackEvent): number | null {
  switch (event.signalType) {
    case 'rating':
      return (event.detail.stars - 3) / 2;
    case 'citation_dwell':
      return event.detail.ms >= FOCUSED_DWELL_MS ? FOCUSED_DWELL_VALUE : 0;
    case 'regenerate':
      return event.detail.gapMs <= REGENERATE_WINDOW_MS ? SIGNALS.regenerate.value : LATE_REGENERATE_VALUE;
    case 'prompt_answered':
      if (event.detail.answer === 'yes') return PROMPT_ANSWER_VALUE;
      if (event.detail.answer === 'no') return -PROMPT_ANSWER_VALUE;
      return null;
    default:
      return SIGNALS[event.signalType].value;
  }
}
