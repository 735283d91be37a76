import { describe, expect, it } from 'vitest';
import type { HealthSnapshot } from '../../api/types.ts';
import { evalSeriesByModel } from './eval-series.ts';

const night = (day: string, servedModel: string | null, evalNdcg5: number | null): HealthSnapshot => ({ day, servedModel, metrics: { evalNdcg5 } });

describe('the eval score per model version', () => {
  it('draws a line per version served, with its score on its nights only, a rollback going back to the earlier line', () => {
    const snaps = [night('d1', null, null), night('d2', 'v1', 0.61), night('d3', 'v2', 0.64), night('d4', 'v1', 0.61)];
    expect(evalSeriesByModel(snaps, 'Eval nDCG@5', ['a', 'b'])).toEqual([
      { label: 'v1', color: 'a', values: [null, 0.61, null, 0.61] },
      { label: 'v2', color: 'b', values: [null, null, 0.64, null] },
    ]);
  });

  it('names the nights recorded before versions were kept as one line of their own', () => {
    const old = { day: 'd1', metrics: { evalNdcg5: 0.5 } } as unknown as HealthSnapshot;
    expect(evalSeriesByModel([old, night('d2', 'v3', 0.55)], 'Eval nDCG@5', ['a'])).toEqual([
      { label: 'Eval nDCG@5', color: 'a', values: [0.5, null] },
      { label: 'v3', color: 'a', values: [null, 0.55] },
    ]);
  });
});
