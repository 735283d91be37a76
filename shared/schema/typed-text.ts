import type { SignalType } from '../signals.ts';

/**
 * The event detail fields that hold what a person typed, and only those, by signal, with the most
 * characters (UTF-16 units) each takes: the widget's form fields allow that much and the widget
 * redacts them before an event is buffered (the collector again as it parses them, with
 * `freeText`). Apart from the event schema so the widget reads it without the validator; a test
 * holds the two together.
 */
export const TYPED_TEXT = {
  attribution: { text: 2_000 },
  correction: { text: 4_000, source: 1_000 },
  prompt_answered: { text: 2_000 },
} as const satisfies Partial<Record<SignalType, Record<string, number>>>;
