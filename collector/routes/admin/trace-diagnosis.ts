/**
 * A preliminary diagnosis of one answer (seed 002, 3.5: "the chunk most similar to the right
 * answer was ranked 5th"): findings as data, which the console puts into words in the reader's
 * language. Pure: the trace view's route gathers the inputs.
 */

import type { Finding } from '../../../shared/admin-api/traces.ts';
import { REASON_DIMENSIONS } from '../../../shared/quality-dimensions.ts';
import type { AttributionReason } from '../../../shared/schema/reasons.ts';
import { POINTING_BACK, termOverlap, terms } from '../../../shared/terms.ts';
import { CORRECTION_IN_CHUNK, CORRECTION_NOT_RETRIEVED } from '../../loop/mining.ts';
import { LOW_CONFIDENCE } from '../../loop/noise.ts';

/** Below this share of the query's terms kept, a rewrite has drifted from the question. */
export const REWRITE_DRIFT = 0.5;

export interface DiagnosisChunk {
  chunkId: string;
  rank: number;
  text: string;
}

export interface DiagnosisEvent {
  traceId: string;
  signalType: string;
  signalValue: number | null;
  superseded: boolean;
  detail: Record<string, unknown>;
  /** Null until the nightly job has assessed the event. */
  confidence: number | null;
  attributedTraceId: string | null;
}

export interface DiagnosisInput {
  traceId: string;
  query: string;
  rewrittenQuery: string | null;
  retrieved: DiagnosisChunk[];
  /** Empty when no reranker ran. */
  reranked: DiagnosisChunk[];
  /** Chunk ids the answer cites. */
  cited: ReadonlySet<string>;
  /** This trace's own events. */
  events: DiagnosisEvent[];
  /** Events given on other turns and attributed to this trace. */
  attributedHere: DiagnosisEvent[];
}

/** The [n] markers of an answer: citations of the n-th chunk the model saw. */
export function citedNumbers(answer: string): number[] {
  return [...new Set([...answer.matchAll(/\[(\d{1,3})\]/g)].map((m) => Number(m[1])))];
}

const counts = (e: DiagnosisEvent) => !e.superseded && (e.confidence === null || e.confidence >= LOW_CONFIDENCE);
const negative = (e: DiagnosisEvent) => counts(e) && e.signalValue !== null && e.signalValue < 0;

export function diagnoseTrace(t: DiagnosisInput): Finding[] {
  const out: Finding[] = [];
  const seen = t.reranked.length ? t.reranked : t.retrieved;
  if (t.retrieved.length === 0 && t.reranked.length === 0) out.push({ kind: 'no_chunks' });

  // What users said about this answer, as mining reads it: its own events that multi-turn
  // attribution left here (or has not judged yet), and those other turns' signals it sent here.
  const about = [...t.events.filter((e) => e.attributedTraceId === null || e.attributedTraceId === t.traceId), ...t.attributedHere];

  const correction = about.find((e) => e.signalType === 'correction' && counts(e) && typeof e.detail.text === 'string');
  if (correction && seen.length) {
    const text = correction.detail.text as string;
    const closest = seen.map((ch) => ({ ch, overlap: termOverlap(text, ch.text) })).reduce((a, b) => (b.overlap > a.overlap ? b : a));
    if (closest.overlap < CORRECTION_NOT_RETRIEVED) {
      out.push({ kind: 'correction_not_retrieved', overlap: closest.overlap });
    } else {
      const kind = closest.overlap >= CORRECTION_IN_CHUNK ? 'correction_in_chunk' : 'correction_partial';
      out.push({ kind, chunkId: closest.ch.chunkId, rank: closest.ch.rank, overlap: closest.overlap, cited: t.cited.has(closest.ch.chunkId) });
      const before = t.retrieved.find((c) => c.chunkId === closest.ch.chunkId);
      if (t.reranked.length && before && before.rank < closest.ch.rank) {
        out.push({ kind: 'reranker_demoted', chunkId: closest.ch.chunkId, from: before.rank, to: closest.ch.rank });
      }
    }
  }

  for (const e of about) {
    if (e.signalType !== 'wrong_source' || !counts(e) || typeof e.detail.chunkId !== 'string') continue;
    const chunkId = e.detail.chunkId;
    out.push({ kind: 'flagged_source', chunkId, rank: seen.find((c) => c.chunkId === chunkId)?.rank ?? null });
  }

  // The reasons users gave, as the dimensions they say failed: each once.
  const dimensions = new Set(
    about.flatMap((e) => (e.signalType === 'attribution' && counts(e) ? [REASON_DIMENSIONS[e.detail.reason as AttributionReason] ?? null] : [])),
  );
  for (const dimension of dimensions) if (dimension) out.push({ kind: 'failed_dimension', dimension });

  // A follow-up's rewrite may drop the words pointing back ("what else?"): the subject is what it must keep.
  if (t.rewrittenQuery && terms(t.query).some((term) => !POINTING_BACK.has(term))) {
    const overlap = termOverlap(t.query, t.rewrittenQuery, POINTING_BACK);
    if (overlap < REWRITE_DRIFT) out.push({ kind: 'rewrite_drift', overlap });
  }

  const elsewhere = t.events.filter((e) => negative(e) && e.attributedTraceId !== null && e.attributedTraceId !== t.traceId).length;
  if (elsewhere) out.push({ kind: 'attributed_elsewhere', count: elsewhere });
  const here = t.attributedHere.filter(negative).length;
  if (here) out.push({ kind: 'attributed_here', count: here });
  const low = t.events.filter((e) => !e.superseded && e.confidence !== null && e.confidence < LOW_CONFIDENCE).length;
  if (low) out.push({ kind: 'low_confidence', count: low });

  return out.length ? out : [{ kind: 'no_finding' }];
}
