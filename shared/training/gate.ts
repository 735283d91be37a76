/**
 * The eval gate (seed 000: promote only a checkpoint that beats the current one on the eval
 * suite): the candidate and the current model rank the held-out eval queries' own candidates,
 * scored by nDCG@5 (the deciding figure), nDCG@10 and MRR@10, overall and per layer.
 */

import { mrrAt, ndcgAt } from '../ranking-metrics.ts';
import type { Candidate } from '../reranker/candidate.ts';

/** A held-out query with its candidates in retrieval's order and its known labels. */
export interface EvalQuery {
  layer: string;
  query: string;
  candidates: Candidate[];
  /** Chunk id to relevance (1 relevant, 0 not). */
  judgements: Readonly<Record<string, number>>;
}

export interface Metrics {
  queries: number;
  ndcg5: number;
  ndcg10: number;
  mrr10: number;
}

export interface Evaluation {
  overall: Metrics;
  layers: Record<string, Metrics>;
}

/** Orders one query's candidates; returns chunk ids best first. */
export type Ranker = (query: string, candidates: readonly Candidate[]) => string[];

/** Retrieval's own order: what a project without a promoted model serves. */
export const retrievalOrder: Ranker = (_q, candidates) => candidates.map((c) => c.chunkId);

export interface GateSettings {
  /** nDCG@5 the candidate must gain over the current model, overall. */
  minGain: number;
  /** nDCG@5 any layer may lose, at most. */
  layerTolerance: number;
  /** Judged eval queries below which no verdict is possible. */
  minQueries: number;
}

export const DEFAULT_GATE: GateSettings = { minGain: 0.005, layerTolerance: 0.02, minQueries: 10 };
/** A layer with fewer judged queries than this is reported but cannot veto: its mean is mostly noise. */
export const MIN_LAYER_QUERIES = 10;

function mean(rows: readonly Metrics[]): Metrics {
  const n = rows.length;
  const avg = (pick: (m: Metrics) => number) => (n === 0 ? 0 : rows.reduce((s, m) => s + pick(m), 0) / n);
  return { queries: n, ndcg5: avg((m) => m.ndcg5), ndcg10: avg((m) => m.ndcg10), mrr10: avg((m) => m.mrr10) };
}

/** Metrics of `rank` on every eval query that has at least one relevant chunk (the others rank nothing). */
export function evaluate(rank: Ranker, queries: readonly EvalQuery[]): Evaluation {
  const byLayer = new Map<string, Metrics[]>();
  for (const q of queries) {
    const judged = new Map(Object.entries(q.judgements));
    if (![...judged.values()].some((g) => g > 0)) continue;
    const ranked = rank(q.query, q.candidates);
    const m = { queries: 1, ndcg5: ndcgAt(5, ranked, judged), ndcg10: ndcgAt(10, ranked, judged), mrr10: mrrAt(10, ranked, judged) };
    byLayer.set(q.layer, [...(byLayer.get(q.layer) ?? []), m]);
  }
  return {
    overall: mean([...byLayer.values()].flat()),
    layers: Object.fromEntries([...byLayer].map(([layer, rows]) => [layer, mean(rows)])),
  };
}

export interface GateDecision {
  promote: boolean;
  /** Why, in words: every check that failed, or the gain that passed. */
  reasons: string[];
}

const f3 = (x: number) => x.toFixed(3);

export function decide(candidate: Evaluation, current: Evaluation, settings: GateSettings = DEFAULT_GATE): GateDecision {
  const reasons: string[] = [];
  if (candidate.overall.queries < settings.minQueries)
    reasons.push(`only ${candidate.overall.queries} judged held-out queries; the gate needs ${settings.minQueries}`);
  const gain = candidate.overall.ndcg5 - current.overall.ndcg5;
  if (gain < settings.minGain) reasons.push(`nDCG@5 gain ${f3(gain)} is below the minimum ${f3(settings.minGain)}`);
  for (const [layer, m] of Object.entries(candidate.layers)) {
    const before = current.layers[layer];
    if (!before || m.queries < MIN_LAYER_QUERIES) continue;
    const loss = before.ndcg5 - m.ndcg5;
    if (loss > settings.layerTolerance) reasons.push(`layer ${layer} loses ${f3(loss)} nDCG@5, more than the tolerance ${f3(settings.layerTolerance)}`);
  }
  if (reasons.length > 0) return { promote: false, reasons };
  return {
    promote: true,
    reasons: [`nDCG@5 ${f3(current.overall.ndcg5)} → ${f3(candidate.overall.ndcg5)} (+${f3(gain)}) on ${candidate.overall.queries} held-out queries`],
  };
}
