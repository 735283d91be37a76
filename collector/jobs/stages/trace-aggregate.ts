import { SIGNALS, type SignalType } from '../../../shared/signals.ts';
import { LOW_CONFIDENCE } from '../../loop/noise.ts';
import { WEIGHTED_SCORE_DECIMALS } from '../../storage/trace-stats-upsert.ts';

/** One event counted for a trace, with its verdict. */
export interface CountedEvent {
  signalType: SignalType;
  signalValue: number | null;
  superseded: boolean;
  confidence: number;
}

/** A trace's row of `trace_stats`, but for its keys and times. */
export interface TraceAggregate {
  score: number | null;
  weightedScore: number | null;
  /**
   * Live scored signals, all and by kind: the events that say something of the answer. Context
   * (answer dwell, web vitals, a prompt shown) and what only explains another signal (a
   * thumbs-down's reason, a vote cleared) are not feedback, or every answer shown would count as
   * covered (loop health's coverage).
   */
  liveSignals: number;
  explicitSignals: number;
  implicitSignals: number;
  /** Live scored signals at or above LOW_CONFIDENCE. */
  trustedSignals: number;
  confidence: number | null;
  requeried: boolean;
}

/**
 * A sum as SQLite's sum() and avg() take it (Kahan-Babuska-Neumaier), so an aggregate computed
 * here equals the one `traceStatsSql` computes from the same events, to the last bit in practice.
 */
class Sum {
  private sum = 0;
  private err = 0;
  n = 0;
  add(r: number) {
    const s = this.sum;
    const t = s + r;
    this.err += Math.abs(s) > Math.abs(r) ? s - t + r : r - t + s;
    this.sum = t;
    this.n++;
  }
  get value(): number {
    return this.sum + this.err;
  }
}

/**
 * A trace's aggregate from the events counted for it: the seed's plain mean over live signals,
 * and the confidence-weighted mean over trusted ones (live, scored, at or above LOW_CONFIDENCE).
 * The same definition as `traceStatsSql`, which recomputes a trace from the stored verdicts.
 */
export function traceAggregate(events: readonly CountedEvent[]): TraceAggregate {
  const plain = new Sum();
  const weighted = new Sum();
  const weights = new Sum();
  const confidence = new Sum();
  const out = { liveSignals: 0, explicitSignals: 0, implicitSignals: 0, trustedSignals: 0, requeried: false };
  for (const e of events) {
    if (e.signalType === 'rephrase_within_session' && e.confidence >= LOW_CONFIDENCE) out.requeried = true;
    if (e.superseded || e.signalValue === null) continue;
    out.liveSignals++;
    const kind = SIGNALS[e.signalType].kind;
    if (kind === 'explicit') out.explicitSignals++;
    else if (kind === 'implicit') out.implicitSignals++;
    plain.add(e.signalValue);
    confidence.add(e.confidence);
    if (e.confidence < LOW_CONFIDENCE) continue;
    out.trustedSignals++;
    weighted.add(e.signalValue * e.confidence);
    weights.add(e.confidence);
  }
  return {
    ...out,
    score: plain.n ? plain.value / plain.n : null,
    // As SQLite's round() does: the decimal expansion rounded half away from zero.
    weightedScore: weights.n ? Number((weighted.value / weights.value).toFixed(WEIGHTED_SCORE_DECIMALS)) : null,
    confidence: confidence.n ? confidence.value / confidence.n : null,
  };
}
