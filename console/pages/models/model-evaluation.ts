import type { RankingMetrics } from '../../api/types.ts';

/** One row of a model's evaluation table: a scope (overall or a layer) with the rankings compared on it. */
export interface EvaluationRow {
  /** "overall" or the eval layer's name (echo, variant, conflict, replay). */
  scope: string;
  candidate: RankingMetrics;
  /** What was served when the model was evaluated (retrieval's order before any model). */
  current: RankingMetrics | undefined;
  retrieval: RankingMetrics | undefined;
}

interface Evaluated {
  overall: RankingMetrics;
  layers: Record<string, RankingMetrics>;
}

const isMetrics = (x: unknown): x is RankingMetrics =>
  typeof x === 'object' && x !== null && ['queries', 'ndcg5', 'ndcg10', 'mrr10'].every((k) => typeof (x as Record<string, unknown>)[k] === 'number');

const asEvaluated = (x: unknown): Evaluated | undefined => {
  if (typeof x !== 'object' || x === null) return undefined;
  const { overall, layers } = x as { overall?: unknown; layers?: unknown };
  if (!isMetrics(overall)) return undefined;
  const valid = typeof layers === 'object' && layers !== null ? Object.entries(layers).filter((e): e is [string, RankingMetrics] => isMetrics(e[1])) : [];
  return { overall, layers: Object.fromEntries(valid) };
};

/**
 * The gate's evaluation as rows: overall first, then each layer by name. The registry stores it
 * as the API received it, so anything that is not the gate's shape gives no rows rather than
 * a broken page.
 */
export function evaluationRows(evaluation: Record<string, unknown>): EvaluationRow[] {
  const candidate = asEvaluated(evaluation.candidate);
  if (!candidate) return [];
  const current = asEvaluated(evaluation.current);
  const retrieval = asEvaluated(evaluation.retrieval);
  const scopes = ['overall', ...Object.keys(candidate.layers).sort()];
  const pick = (e: Evaluated | undefined, scope: string) => (scope === 'overall' ? e?.overall : e?.layers[scope]);
  return scopes.map((scope) => ({ scope, candidate: pick(candidate, scope)!, current: pick(current, scope), retrieval: pick(retrieval, scope) }));
}

/** A metric as the page shows it; a gain with its sign. */
export const metric = (x: number) => x.toFixed(3);
export const gain = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;
