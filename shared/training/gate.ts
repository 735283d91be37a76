/**
 * The eval gate (seed 000: promote only a checkpoint that beats the current one on the eval
 * suite): the candidate and the current model rank the held-out eval queries' own candidates,
 * scored by nDCG@5 (the deciding figure), nDCG@10 and MRR@10, overall and per layer.
 */

import { mrrAt, ndcgAt } from '../ranking-metrics.ts';
import type { Candidate } from '../reranker/candidate.ts';
import { CURATED_LAYER, type GateFinding, reasonOf } from './gate-findings.ts';

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
  /**
   * How sure the gain must be: a one-sided paired t test of the per-query gains (Smucker et al.
   * 2007 on significance tests for IR), at the level whose normal quantile this is (1.645: 5 %). A
   * gain that a few queries make and others take back is noise.
   */
  z: number;
  /** nDCG@5 any layer may lose, at most. */
  layerTolerance: number;
  /** Judged eval queries below which no verdict is possible. */
  minQueries: number;
}

/**
 * Whether the gain is measured on the curated layer alone: it has at least `minQueries` judged
 * queries. Its labels were not drawn from what the current model showed users, as the mined
 * layers' are, so a candidate that lifts a chunk nobody was shown is not scored as if that chunk
 * were wrong. The mined layers still veto a loss beyond the tolerance.
 */
export const decidesOnCurated = (e: Evaluation, settings: GateSettings = DEFAULT_GATE): boolean =>
  (e.layers[CURATED_LAYER]?.queries ?? 0) >= settings.minQueries;

/** The per-query rows the gain is measured on (`decidesOnCurated`). */
export const decidingRows = (rows: readonly QueryMetrics[], e: Evaluation, settings: GateSettings = DEFAULT_GATE): readonly QueryMetrics[] =>
  decidesOnCurated(e, settings) ? rows.filter((r) => r.layer === CURATED_LAYER) : rows;

export const DEFAULT_GATE: GateSettings = { minGain: 0.005, z: 1.645, layerTolerance: 0.02, minQueries: 10 };
/** A layer with fewer judged queries than this is reported but cannot veto: its mean is mostly noise. */
export const MIN_LAYER_QUERIES = 10;

function mean(rows: readonly Metrics[]): Metrics {
  const n = rows.length;
  const avg = (pick: (m: Metrics) => number) => (n === 0 ? 0 : rows.reduce((s, m) => s + pick(m), 0) / n);
  return { queries: n, ndcg5: avg((m) => m.ndcg5), ndcg10: avg((m) => m.ndcg10), mrr10: avg((m) => m.mrr10) };
}

/** One eval query's metrics under a ranker. */
export interface QueryMetrics extends Metrics {
  layer: string;
}

/**
 * Metrics of `rank` on each eval query with a relevant chunk among its candidates, in order. The
 * others rank nothing: no relevant chunk was judged, or its answer's chunks are gone (retention
 * keeps an eval set longer than the answers it was frozen from), and every ranker would score 0.
 */
export function scoreQueries(rank: Ranker, queries: readonly EvalQuery[]): QueryMetrics[] {
  const rows: QueryMetrics[] = [];
  for (const q of queries) {
    const judged = new Map(Object.entries(q.judgements));
    if (!q.candidates.some((c) => (judged.get(c.chunkId) ?? 0) > 0)) continue;
    // A chunk a trace lists twice (retrievers merged) counts once, as a run lists each document: its
    // second copy shows the user nothing new. Counted, it lifts nDCG past 1, and a model gains by
    // setting the copies side by side.
    const ranked = [...new Set(rank(q.query, q.candidates))];
    rows.push({ layer: q.layer, queries: 1, ndcg5: ndcgAt(5, ranked, judged), ndcg10: ndcgAt(10, ranked, judged), mrr10: mrrAt(10, ranked, judged) });
  }
  return rows;
}

/** The means of per-query metrics, overall and per layer. */
export function summarize(rows: readonly QueryMetrics[]): Evaluation {
  const byLayer = new Map<string, Metrics[]>();
  for (const r of rows) byLayer.set(r.layer, [...(byLayer.get(r.layer) ?? []), r]);
  return {
    overall: mean(rows),
    layers: Object.fromEntries([...byLayer].map(([layer, m]) => [layer, mean(m)])),
  };
}

/** Metrics of `rank` on the eval queries, overall and per layer. */
export const evaluate = (rank: Ranker, queries: readonly EvalQuery[]): Evaluation => summarize(scoreQueries(rank, queries));

/**
 * The t value a one-sided test must reach with `df` degrees of freedom, from the normal quantile
 * `z` of its level (Cornish-Fisher expansion: 1.833 at 9 df for 5 %, as the tables say; `z` for many).
 */
export function tCritical(z: number, df: number): number {
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2);
}

/** The paired t statistic of per-query gains: their mean over its standard error (infinite when every gain is the same positive one). */
export function pairedT(gains: readonly number[]): number {
  const n = gains.length;
  if (n < 2) return 0;
  const m = gains.reduce((s, g) => s + g, 0) / n;
  const variance = gains.reduce((s, g) => s + (g - m) ** 2, 0) / (n - 1);
  if (variance === 0) return m > 0 ? Number.POSITIVE_INFINITY : 0;
  return m / Math.sqrt(variance / n);
}

export interface GateDecision {
  promote: boolean;
  /** What it found: every check that failed, or the gain that passed. */
  findings: GateFinding[];
  /** The same in English. */
  reasons: string[];
}

/**
 * `gains`: each judged query's nDCG@5 under the candidate less under the current model, paired
 * (`scoreQueries` of both on the same eval queries, `decidingRows` of them); without them the
 * gain's significance is not tested. The gain is the curated layer's when it decides, else overall.
 */
export function decide(candidate: Evaluation, current: Evaluation, settings: GateSettings = DEFAULT_GATE, gains?: readonly number[]): GateDecision {
  const findings: GateFinding[] = [];
  if (candidate.overall.queries < settings.minQueries)
    findings.push({ kind: 'too_few_queries', queries: candidate.overall.queries, needed: settings.minQueries });
  const curated = decidesOnCurated(candidate, settings) && current.layers[CURATED_LAYER] !== undefined;
  const [after, before] = curated ? [candidate.layers[CURATED_LAYER]!, current.layers[CURATED_LAYER]!] : [candidate.overall, current.overall];
  const basis = curated ? ({ basis: CURATED_LAYER } as const) : {};
  const gain = after.ndcg5 - before.ndcg5;
  if (gain < settings.minGain) findings.push({ kind: 'gain_too_small', gain, minimum: settings.minGain, ...basis });
  else if (gains) {
    const t = pairedT(gains);
    const needed = tCritical(settings.z, Math.max(1, gains.length - 1));
    const changed = gains.filter((g) => g !== 0).length;
    if (t < needed) findings.push({ kind: 'gain_not_sure', gain, t, needed, changed, queries: gains.length, ...basis });
  }
  for (const [layer, m] of Object.entries(candidate.layers)) {
    const before = current.layers[layer];
    if (!before || m.queries < MIN_LAYER_QUERIES) continue;
    const loss = before.ndcg5 - m.ndcg5;
    if (loss > settings.layerTolerance) findings.push({ kind: 'layer_loses', layer, loss, tolerance: settings.layerTolerance });
  }
  const promote = findings.length === 0;
  if (promote) findings.push({ kind: 'passed', before: before.ndcg5, after: after.ndcg5, queries: after.queries, ...basis });
  return { promote, findings, reasons: findings.map(reasonOf) };
}
