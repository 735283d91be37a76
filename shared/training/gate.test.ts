import { describe, expect, it } from 'vitest';
import { DEFAULT_GATE, decide, evaluate, type GateSettings, pairedT, retrievalOrder, summarize } from './gate.ts';

/** One row per query of `layer`, each scoring `ndcg5`. */
const rows = (layer: string, n: number, ndcg5: number) => Array.from({ length: n }, () => ({ layer, queries: 1, ndcg5, ndcg10: ndcg5, mrr10: ndcg5 }));
/** Figures exact in binary, so each edge is met exactly. */
const gate: GateSettings = { ...DEFAULT_GATE, minGain: 0.25, layerTolerance: 0.25 };
const kinds = (d: ReturnType<typeof decide>) => d.findings.map((f) => f.kind);

describe('the gate at its edges', () => {
  it('promotes a gain of exactly the minimum, and not one short of it', () => {
    const before = summarize(rows('replay', 20, 0.5));
    expect(kinds(decide(summarize(rows('replay', 20, 0.75)), before, gate))).toEqual(['passed']);
    expect(kinds(decide(summarize(rows('replay', 20, 0.625)), before, gate))).toEqual(['gain_too_small']);
  });

  it('judges from exactly ten judged queries, and not from nine', () => {
    const decision = (n: number) => kinds(decide(summarize(rows('replay', n, 0.75)), summarize(rows('replay', n, 0.5)), gate));
    expect(decision(10)).toEqual(['passed']);
    expect(decision(9)).toEqual(['too_few_queries']);
  });

  it('lets a layer lose exactly the tolerance, and only one of ten judged queries or more veto', () => {
    // The replay layer gains enough to carry the overall gain; echo loses.
    const candidate = (echoQueries: number, echo: number) => summarize([...rows('replay', 30, 1), ...rows('echo', echoQueries, echo)]);
    const current = (echoQueries: number) => summarize([...rows('replay', 30, 0.25), ...rows('echo', echoQueries, 1)]);
    expect(kinds(decide(candidate(10, 0.75), current(10), gate))).toEqual(['passed']);
    expect(kinds(decide(candidate(10, 0.5), current(10), gate))).toEqual(['layer_loses']);
    expect(kinds(decide(candidate(9, 0.5), current(9), gate))).toEqual(['passed']);
  });

  it('measures the gain on the curated suite from exactly ten judged questions', () => {
    // The curated suite gains nothing, the replay layer a lot: decided on the suite, rejected.
    const candidate = summarize([...rows('replay', 20, 1), ...rows('curated', 10, 0.5)]);
    const current = summarize([...rows('replay', 20, 0.25), ...rows('curated', 10, 0.5)]);
    expect(decide(candidate, current, gate).findings).toEqual([{ kind: 'gain_too_small', gain: 0, minimum: 0.25, basis: 'curated' }]);
  });

  it('cannot be sure of a gain one query makes, nor of none', () => {
    expect(pairedT([0.5])).toBe(0);
    expect(pairedT([0, 0, 0])).toBe(0);
    expect(pairedT([-0.5, -0.5])).toBe(0);
    const one = { ...gate, minQueries: 1 };
    expect(kinds(decide(summarize(rows('replay', 1, 1)), summarize(rows('replay', 1, 0.5)), one, [0.5]))).toEqual(['gain_not_sure']);
  });

  it('scores no query whose candidates hold no relevant chunk', () => {
    const chunk = (chunkId: string) => ({ chunkId, sourceDocId: `${chunkId}.md`, text: chunkId });
    const judged = { layer: 'replay', query: 'refunds', candidates: [chunk('a'), chunk('b')], judgements: { a: 1, b: 0 } };
    const unjudged = { ...judged, query: 'shipping', judgements: { a: 0, b: 0 } };
    expect(evaluate(retrievalOrder, [judged, unjudged]).overall).toEqual({ queries: 1, ndcg5: 1, ndcg10: 1, mrr10: 1 });
  });
});
