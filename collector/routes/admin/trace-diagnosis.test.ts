import { describe, expect, it } from 'vitest';
import { citedNumbers, type DiagnosisEvent, type DiagnosisInput, diagnoseTrace } from './trace-diagnosis.ts';

const chunk = (chunkId: string, rank: number, text: string) => ({ chunkId, rank, text });
const ev = (over: Partial<DiagnosisEvent>): DiagnosisEvent => ({
  traceId: 't',
  signalType: 'thumbs_down',
  signalValue: -1,
  superseded: false,
  detail: {},
  confidence: 0.9,
  attributedTraceId: 't',
  ...over,
});
const input = (over: Partial<DiagnosisInput>): DiagnosisInput => ({
  traceId: 't',
  query: 'refund window for opened items',
  rewrittenQuery: null,
  retrieved: [chunk('a', 1, 'Shipping takes five days.'), chunk('b', 2, 'Opened items can be refunded within 14 days.')],
  reranked: [],
  cited: new Set(['a']),
  events: [],
  attributedHere: [],
  ...over,
});

describe('diagnoseTrace', () => {
  it('says nothing points at a cause when nothing does', () => {
    expect(diagnoseTrace(input({}))).toEqual([{ kind: 'no_finding' }]);
  });

  it('finds the chunk holding the correction, its rank and whether it was cited', () => {
    const events = [ev({ signalType: 'correction', signalValue: -0.8, detail: { text: 'opened items refunded within 14 days' } })];
    expect(diagnoseTrace(input({ events }))).toEqual([{ kind: 'correction_in_chunk', chunkId: 'b', rank: 2, overlap: 1, cited: false }]);
  });

  it('says retrieval missed the answer when no chunk holds the correction', () => {
    const events = [ev({ signalType: 'correction', signalValue: -0.8, detail: { text: 'warranty claims go to the manufacturer' } })];
    expect(diagnoseTrace(input({ events }))).toEqual([{ kind: 'correction_not_retrieved', overlap: 0 }]);
  });

  it('says which quality dimension the reasons given point at, once each, and none for "other"', () => {
    const reason = (r: string, confidence = 0.9) => ev({ signalType: 'attribution', signalValue: null, detail: { reason: r }, confidence });
    const events = [reason('incomplete'), reason('not_answered'), reason('wrong_source'), reason('other'), reason('looks_wrong', 0.1)];
    expect(diagnoseTrace(input({ events }))).toEqual([
      { kind: 'failed_dimension', dimension: 'completeness' },
      { kind: 'failed_dimension', dimension: 'relevance' },
      { kind: 'low_confidence', count: 1 },
    ]);
  });

  it('ignores a correction the noise filter distrusts, and counts it as low confidence', () => {
    const events = [ev({ signalType: 'correction', confidence: 0.1, detail: { text: 'opened items refunded within 14 days' } })];
    expect(diagnoseTrace(input({ events }))).toEqual([{ kind: 'low_confidence', count: 1 }]);
  });

  it('flags a rewrite that lost the question, and counts attribution both ways', () => {
    const events = [ev({ attributedTraceId: 'earlier' }), ev({ signalValue: 1, attributedTraceId: 'earlier' })];
    const findings = diagnoseTrace(input({ rewrittenQuery: 'shipping times', events, attributedHere: [ev({ traceId: 'later' })] }));
    expect(findings).toEqual([
      { kind: 'rewrite_drift', overlap: 0 },
      { kind: 'attributed_elsewhere', count: 1 },
      { kind: 'attributed_here', count: 1 },
    ]);
  });

  it('reads a correction as being about the answer the attribution gave it to, as mining does', () => {
    const text = 'opened items refunded within 14 days';
    const typedHere = ev({ signalType: 'correction', signalValue: -0.8, detail: { text }, attributedTraceId: 'earlier' });
    // Typed under this follow-up but about the answer before: no finding about this answer's chunks.
    expect(diagnoseTrace(input({ events: [typedHere] }))).toEqual([{ kind: 'attributed_elsewhere', count: 1 }]);
    // The earlier answer's view: the correction a later turn sent here finds its chunk.
    const sentHere = ev({ traceId: 'later', signalType: 'correction', signalValue: -0.8, detail: { text }, attributedTraceId: 't' });
    expect(diagnoseTrace(input({ attributedHere: [sentHere] }))).toEqual([
      { kind: 'correction_in_chunk', chunkId: 'b', rank: 2, overlap: 1, cited: false },
      { kind: 'attributed_here', count: 1 },
    ]);
    // So is a flag of a source or a reason given: about the answer they were attributed to.
    const flag = ev({ signalType: 'wrong_source', detail: { chunkId: 'a' }, attributedTraceId: 'earlier' });
    const reason = ev({ signalType: 'attribution', signalValue: null, detail: { reason: 'incomplete' }, attributedTraceId: 'earlier' });
    expect(diagnoseTrace(input({ events: [flag, reason] }))).toEqual([{ kind: 'attributed_elsewhere', count: 1 }]);
    expect(
      diagnoseTrace(
        input({
          attributedHere: [
            { ...flag, traceId: 'later', attributedTraceId: 't' },
            { ...reason, traceId: 'later', attributedTraceId: 't' },
          ],
        }),
      ),
    ).toEqual([
      { kind: 'flagged_source', chunkId: 'a', rank: 1 },
      { kind: 'failed_dimension', dimension: 'completeness' },
      { kind: 'attributed_here', count: 1 },
    ]);
  });

  it("does not call a follow-up's rewrite a drift for leaving out the words that point back", () => {
    const followUp = (query: string, rewrittenQuery: string) => diagnoseTrace(input({ query, rewrittenQuery })).map((f) => f.kind);
    expect(followUp('what else?', 'refunds^0.5 opened^0.5 items^0.5')).toEqual(['no_finding']);
    expect(followUp('and what about shipping?', 'shipping refunds^0.5')).toEqual(['no_finding']);
    expect(followUp('what about shipping?', 'refunds^0.5 opened^0.5')).toEqual(['rewrite_drift']);
  });

  it('reads [n] citation markers once each', () => {
    expect(citedNumbers('A [1], b [3] and again [1]; not [x] or [1234].')).toEqual([1, 3]);
  });
});
