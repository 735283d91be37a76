/** The gate's figures as a console table: one row per layer and ranking, nDCG@5 first. */
import type { Evaluation } from '../../shared/training/gate.ts';

export function gateTable(evaluation: { retrieval: Evaluation; current: Evaluation; candidate: Evaluation }): Record<string, string | number>[] {
  const rows: Record<string, string | number>[] = [];
  const layers = ['overall', ...Object.keys(evaluation.candidate.layers).sort()];
  for (const layer of layers)
    for (const [ranking, e] of Object.entries(evaluation)) {
      const m = layer === 'overall' ? e.overall : e.layers[layer];
      if (m) rows.push({ layer, ranking, queries: m.queries, 'nDCG@5': m.ndcg5.toFixed(3), 'nDCG@10': m.ndcg10.toFixed(3), 'MRR@10': m.mrr10.toFixed(3) });
    }
  return rows;
}
