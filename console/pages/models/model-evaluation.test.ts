import { describe, expect, it } from 'vitest';
import { evaluationRows, gain } from './model-evaluation.ts';

const m = (ndcg5: number, queries = 12) => ({ queries, ndcg5, ndcg10: ndcg5 + 0.01, mrr10: ndcg5 + 0.02 });

describe('a model evaluation as table rows', () => {
  it('puts overall first, then layers by name, each with the compared rankings', () => {
    const rows = evaluationRows({
      candidate: { overall: m(0.8), layers: { variant: m(0.7), echo: m(0.9) } },
      current: { overall: m(0.6), layers: { echo: m(0.5) } },
      retrieval: { overall: m(0.55), layers: { echo: m(0.5), variant: m(0.6) } },
    });
    expect(rows.map((r) => r.scope)).toEqual(['overall', 'echo', 'variant']);
    expect(rows[0]).toEqual({ scope: 'overall', candidate: m(0.8), current: m(0.6), retrieval: m(0.55) });
    expect(rows[2]).toEqual({ scope: 'variant', candidate: m(0.7), current: undefined, retrieval: m(0.6) });
  });

  it('gives no rows for an evaluation that is not the gate’s shape, and skips malformed layers', () => {
    expect(evaluationRows({})).toEqual([]);
    expect(evaluationRows({ candidate: { overall: { ndcg5: 'high' } } })).toEqual([]);
    const rows = evaluationRows({ candidate: { overall: m(0.8), layers: { echo: m(0.9), broken: { queries: 3 } } } });
    expect(rows.map((r) => r.scope)).toEqual(['overall', 'echo']);
    expect(rows[0]!.current).toBeUndefined();
  });

  it('signs gains', () => {
    expect(gain(0.0123)).toBe('+0.012');
    expect(gain(-0.02)).toBe('−0.020');
  });
});
