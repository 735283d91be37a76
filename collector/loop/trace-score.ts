/** What the score of a trace is computed from: its stored events. */
export interface ScoredEvent {
  /** From the signal table; null for context-only signals, which do not move the score. */
  signalValue: number | null;
  /** A later vote of the same session replaced this one. */
  superseded: boolean;
}

export interface TraceSummary {
  /** The mean value of the live, scored events (the seed's `avg(signal_value)`); null until something scored it. */
  score: number | null;
  /** Events not superseded, scored or not. */
  liveEvents: number;
}

/**
 * A trace's score: the one definition the admin API, the nightly job and the console share, so a
 * trace ranked worst at night is the one an admin sees scored worst.
 */
export function traceSummary(events: readonly ScoredEvent[]): TraceSummary {
  const live = events.filter((e) => !e.superseded);
  const scored = live.map((e) => e.signalValue).filter((v): v is number => v !== null);
  return { score: scored.length ? scored.reduce((a, b) => a + b, 0) / scored.length : null, liveEvents: live.length };
}

/**
 * An answer clearly bad: its weighted score strictly below `badTraceScore`, as the seed mines
 * (`< -0.3`), so a lone bounce or late regenerate at exactly -0.3 is not. In SQL: clear-scores.ts.
 */
export const isClearlyBad = (score: number, badTraceScore: number) => score < badTraceScore;
/** An answer clearly good: its weighted score at `goodTraceScore` or above. */
export const isClearlyGood = (score: number, goodTraceScore: number) => score >= goodTraceScore;
